// Regenerate the demo catalogue images (public/images/demo/*.webp) from api/db/seed-data.ts:
//   npm install --no-save sharp && npx tsx scripts/generate-demo-images.mjs
//
// Every image is drawn from an SVG composed here: a gradient in the category's colours plus simple
// geometric shapes evoking the category (plates, waves, balloons, gears...). Layout and colours vary
// with a deterministic hash of the image's file name, so re-running produces the same pictures.
// sharp is deliberately not a project dependency; it is only needed to run this script.
import { mkdir, readdir, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { SEED_OFFERS } from "../api/db/seed-data.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PUBLIC_DIR = path.join(ROOT, "public");
const DEMO_DIR = path.join(PUBLIC_DIR, "images", "demo");
const QUALITY = 70;
const MAX_COVER_BYTES = 25 * 1024;

/** Gradient start, gradient end, and two accent colours per category. */
const PALETTES = {
  leisure: ["#0ea5e9", "#22c55e", "#fef08a", "#ffffff"],
  entertainment: ["#7c3aed", "#db2777", "#fde047", "#f5d0fe"],
  restaurants: ["#f97316", "#b91c1c", "#fff7ed", "#fde68a"],
  health_and_beauty: ["#14b8a6", "#a78bfa", "#f0fdfa", "#fbcfe8"],
  services: ["#475569", "#0284c7", "#e2e8f0", "#facc15"],
  family_plans: ["#f59e0b", "#ec4899", "#fef3c7", "#a5f3fc"],
  travel: ["#0369a1", "#06b6d4", "#fde68a", "#f0f9ff"],
  product: ["#65a30d", "#ca8a04", "#fefce8", "#7c2d12"],
  training: ["#1d4ed8", "#4f46e5", "#e0e7ff", "#fbbf24"],
};

// ---------------------------------------------------------------- deterministic randomness

function hash(text) {
  // FNV-1a, 32 bits.
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function rng(seed) {
  // mulberry32
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const between = (r, min, max) => min + r() * (max - min);
const pick = (r, list) => list[Math.floor(r() * list.length)];
const n = (v) => Math.round(v * 10) / 10;

/** Shift a #rrggbb colour's hue-ish by mixing towards another channel order; small, deterministic. */
function tint(hex, amount) {
  const v = parseInt(hex.slice(1), 16);
  const ch = [(v >> 16) & 255, (v >> 8) & 255, v & 255].map((c) => Math.max(0, Math.min(255, Math.round(c + amount))));
  return `#${ch.map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}

// ---------------------------------------------------------------- shapes

function waves(r, w, h, color, count, opacity) {
  let out = "";
  for (let i = 0; i < count; i++) {
    const y = h * (0.62 + i * 0.1) + between(r, -12, 12);
    const amp = between(r, 10, 26);
    const len = between(r, 140, 220);
    let d = `M0 ${n(y)}`;
    for (let x = 0; x < w + len; x += len) {
      d += ` q${n(len / 4)} ${n(-amp)} ${n(len / 2)} 0 t${n(len / 2)} 0`;
    }
    d += ` V${h} H0 Z`;
    out += `<path d="${d}" fill="${color}" opacity="${(opacity + i * 0.12).toFixed(2)}"/>`;
  }
  return out;
}

function hills(r, w, h, color, count) {
  let out = "";
  for (let i = 0; i < count; i++) {
    const base = h * (0.7 + i * 0.08);
    const peak = base - between(r, 90, 200);
    const px = between(r, 0.1, 0.9) * w;
    out += `<path d="M${n(px - 420)} ${h} L${n(px)} ${n(peak)} L${n(px + 420)} ${h} Z" fill="${color}" opacity="${(0.25 + i * 0.15).toFixed(2)}"/>`;
  }
  return out;
}

function sun(r, x, y, radius, color) {
  let rays = "";
  const count = 12;
  for (let i = 0; i < count; i++) {
    const a = (i / count) * Math.PI * 2;
    const x1 = x + Math.cos(a) * radius * 1.25;
    const y1 = y + Math.sin(a) * radius * 1.25;
    const x2 = x + Math.cos(a) * radius * 1.6;
    const y2 = y + Math.sin(a) * radius * 1.6;
    rays += `<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" stroke="${color}" stroke-width="6" stroke-linecap="round" opacity="0.7"/>`;
  }
  return `<circle cx="${n(x)}" cy="${n(y)}" r="${n(radius)}" fill="${color}" opacity="0.9"/>${rays}`;
}

function plate(x, y, radius, rim, inner, food) {
  return (
    `<circle cx="${n(x)}" cy="${n(y + radius * 0.08)}" r="${n(radius)}" fill="#000" opacity="0.15"/>` +
    `<circle cx="${n(x)}" cy="${n(y)}" r="${n(radius)}" fill="${rim}"/>` +
    `<circle cx="${n(x)}" cy="${n(y)}" r="${n(radius * 0.72)}" fill="${inner}" opacity="0.9"/>` +
    `<circle cx="${n(x - radius * 0.18)}" cy="${n(y - radius * 0.1)}" r="${n(radius * 0.28)}" fill="${food}" opacity="0.85"/>` +
    `<circle cx="${n(x + radius * 0.22)}" cy="${n(y + radius * 0.14)}" r="${n(radius * 0.2)}" fill="${food}" opacity="0.6"/>`
  );
}

function cutlery(x, y, height, color) {
  const w = height * 0.07;
  return (
    // fork
    `<rect x="${n(x)}" y="${n(y + height * 0.3)}" width="${n(w)}" height="${n(height * 0.7)}" rx="${n(w / 2)}" fill="${color}"/>` +
    [0, 1, 2]
      .map(
        (i) =>
          `<rect x="${n(x - w + i * w)}" y="${n(y)}" width="${n(w * 0.5)}" height="${n(height * 0.32)}" rx="${n(w / 4)}" fill="${color}"/>`,
      )
      .join("") +
    `<rect x="${n(x - w)}" y="${n(y + height * 0.26)}" width="${n(w * 2.5)}" height="${n(w)}" rx="${n(w / 2)}" fill="${color}"/>` +
    // knife
    `<path d="M${n(x + height * 0.25)} ${n(y)} q${n(w * 2)} ${n(height * 0.2)} 0 ${n(height * 0.45)} z" fill="${color}"/>` +
    `<rect x="${n(x + height * 0.25 - w / 2)}" y="${n(y + height * 0.4)}" width="${n(w)}" height="${n(height * 0.6)}" rx="${n(w / 2)}" fill="${color}"/>`
  );
}

function stones(x, y, size, color) {
  let out = "";
  let cy = y;
  for (let i = 0; i < 4; i++) {
    const rx = size * (1 - i * 0.2);
    const ry = rx * 0.38;
    out += `<ellipse cx="${n(x)}" cy="${n(cy)}" rx="${n(rx)}" ry="${n(ry)}" fill="${color}" opacity="${(0.95 - i * 0.1).toFixed(2)}"/>`;
    cy -= ry * 1.7;
  }
  return out;
}

function leaf(x, y, size, angle, color) {
  return `<path transform="translate(${n(x)} ${n(y)}) rotate(${n(angle)})" d="M0 0 C${n(size * 0.5)} ${n(-size * 0.5)} ${n(size * 1.2)} ${n(-size * 0.3)} ${n(size * 1.5)} 0 C${n(size * 1.2)} ${n(size * 0.3)} ${n(size * 0.5)} ${n(size * 0.5)} 0 0 Z" fill="${color}" opacity="0.8"/>`;
}

function star(x, y, radius, color, opacity = 1) {
  let d = "";
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 === 0 ? radius : radius * 0.45;
    d += `${i === 0 ? "M" : "L"}${n(x + Math.cos(a) * rr)} ${n(y + Math.sin(a) * rr)} `;
  }
  return `<path d="${d}Z" fill="${color}" opacity="${opacity}"/>`;
}

function gear(x, y, radius, color, hole) {
  let teeth = "";
  for (let i = 0; i < 8; i++) {
    teeth += `<rect x="${n(x - radius * 0.16)}" y="${n(y - radius * 1.22)}" width="${n(radius * 0.32)}" height="${n(radius * 0.4)}" rx="${n(radius * 0.05)}" fill="${color}" transform="rotate(${i * 45} ${n(x)} ${n(y)})"/>`;
  }
  return `${teeth}<circle cx="${n(x)}" cy="${n(y)}" r="${n(radius)}" fill="${color}"/><circle cx="${n(x)}" cy="${n(y)}" r="${n(radius * 0.4)}" fill="${hole}"/>`;
}

function balloon(x, y, size, color, string) {
  return (
    `<path d="M${n(x)} ${n(y + size * 1.2)} q${n(size * 0.3)} ${n(size * 0.8)} ${n(-size * 0.1)} ${n(size * 1.8)}" stroke="${string}" stroke-width="3" fill="none" opacity="0.8"/>` +
    `<ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(size)}" ry="${n(size * 1.2)}" fill="${color}"/>` +
    `<ellipse cx="${n(x - size * 0.35)}" cy="${n(y - size * 0.45)}" rx="${n(size * 0.2)}" ry="${n(size * 0.32)}" fill="#fff" opacity="0.45"/>`
  );
}

function house(x, y, size, wall, roof) {
  return (
    `<rect x="${n(x - size / 2)}" y="${n(y - size * 0.7)}" width="${n(size)}" height="${n(size * 0.7)}" fill="${wall}"/>` +
    `<path d="M${n(x - size * 0.62)} ${n(y - size * 0.66)} L${n(x)} ${n(y - size * 1.2)} L${n(x + size * 0.62)} ${n(y - size * 0.66)} Z" fill="${roof}"/>` +
    `<rect x="${n(x - size * 0.12)}" y="${n(y - size * 0.38)}" width="${n(size * 0.24)}" height="${n(size * 0.38)}" fill="${roof}" opacity="0.8"/>`
  );
}

function plane(x, y, size, angle, color) {
  return `<path transform="translate(${n(x)} ${n(y)}) rotate(${n(angle)}) scale(${n(size / 100)})" d="M-50 -6 L30 -6 Q50 0 30 6 L-50 6 Z M-10 -6 L-30 -48 L-16 -48 L14 -6 Z M-10 6 L-30 48 L-16 48 L14 6 Z M-44 -5 L-54 -24 L-46 -24 L-34 -5 Z M-44 5 L-54 24 L-46 24 L-34 5 Z" fill="${color}"/>`;
}

function sail(x, y, size, color, hull) {
  return (
    `<path d="M${n(x)} ${n(y - size)} L${n(x)} ${n(y)} L${n(x + size * 0.6)} ${n(y)} Z" fill="${color}"/>` +
    `<path d="M${n(x - 6)} ${n(y - size * 0.8)} L${n(x - 6)} ${n(y)} L${n(x - size * 0.4)} ${n(y)} Z" fill="${color}" opacity="0.8"/>` +
    `<path d="M${n(x - size * 0.5)} ${n(y + 8)} L${n(x + size * 0.7)} ${n(y + 8)} L${n(x + size * 0.55)} ${n(y + size * 0.2)} L${n(x - size * 0.38)} ${n(y + size * 0.2)} Z" fill="${hull}"/>`
  );
}

function box(x, y, size, front, side, ribbon) {
  const d = size * 0.35;
  return (
    `<path d="M${n(x)} ${n(y)} h${n(size)} l${n(d)} ${n(-d)} h${n(-size)} Z" fill="${side}" opacity="0.75"/>` +
    `<path d="M${n(x + size)} ${n(y)} l${n(d)} ${n(-d)} v${n(size)} l${n(-d)} ${n(d)} Z" fill="${side}"/>` +
    `<rect x="${n(x)}" y="${n(y)}" width="${n(size)}" height="${n(size)}" fill="${front}"/>` +
    `<rect x="${n(x + size * 0.44)}" y="${n(y)}" width="${n(size * 0.12)}" height="${n(size)}" fill="${ribbon}"/>` +
    `<path d="M${n(x + size * 0.5)} ${n(y)} l${n(-size * 0.2)} ${n(-size * 0.22)} l${n(size * 0.04)} ${n(size * 0.22)} Z M${n(x + size * 0.5)} ${n(y)} l${n(size * 0.2)} ${n(-size * 0.22)} l${n(-size * 0.04)} ${n(size * 0.22)} Z" fill="${ribbon}"/>`
  );
}

function books(x, y, size, colors) {
  let out = "";
  let bx = x;
  for (let i = 0; i < colors.length; i++) {
    const bw = size * (0.16 + (i % 3) * 0.04);
    const bh = size * (0.8 + ((i * 7) % 5) * 0.06);
    out += `<rect x="${n(bx)}" y="${n(y - bh)}" width="${n(bw)}" height="${n(bh)}" rx="3" fill="${colors[i]}"/>`;
    out += `<rect x="${n(bx + bw * 0.2)}" y="${n(y - bh * 0.8)}" width="${n(bw * 0.6)}" height="${n(bh * 0.06)}" fill="#fff" opacity="0.5"/>`;
    bx += bw + 4;
  }
  return `<rect x="${n(x - 12)}" y="${n(y)}" width="${n(bx - x + 24)}" height="10" rx="3" fill="#000" opacity="0.2"/>${out}`;
}

function cap(x, y, size, color, tassel) {
  return (
    `<path d="M${n(x - size * 0.3)} ${n(y + size * 0.05)} v${n(size * 0.22)} q${n(size * 0.3)} ${n(size * 0.16)} ${n(size * 0.6)} 0 v${n(-size * 0.22)} Z" fill="${color}" opacity="0.85"/>` +
    `<path d="M${n(x - size * 0.6)} ${n(y)} L${n(x)} ${n(y - size * 0.25)} L${n(x + size * 0.6)} ${n(y)} L${n(x)} ${n(y + size * 0.25)} Z" fill="${color}"/>` +
    `<path d="M${n(x)} ${n(y)} L${n(x + size * 0.45)} ${n(y + size * 0.08)} v${n(size * 0.3)}" stroke="${tassel}" stroke-width="5" fill="none"/>` +
    `<circle cx="${n(x + size * 0.45)}" cy="${n(y + size * 0.4)}" r="${n(size * 0.05)}" fill="${tassel}"/>`
  );
}

function spotlight(x, y, w, h, color, opacity) {
  return `<path d="M${n(x - 14)} 0 L${n(x + 14)} 0 L${n(x + w / 2)} ${n(y)} L${n(x - w / 2)} ${n(y)} Z" fill="${color}" opacity="${opacity}"/><ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(w / 2)}" ry="${n(h)}" fill="${color}" opacity="${Math.min(1, opacity * 1.6).toFixed(2)}"/>`;
}

function confetti(r, w, h, colors, count) {
  let out = "";
  for (let i = 0; i < count; i++) {
    const x = between(r, 0, w);
    const y = between(r, 0, h * 0.7);
    const c = pick(r, colors);
    if (r() < 0.5) out += `<circle cx="${n(x)}" cy="${n(y)}" r="${n(between(r, 3, 8))}" fill="${c}" opacity="0.7"/>`;
    else
      out += `<rect x="${n(x)}" y="${n(y)}" width="${n(between(r, 6, 14))}" height="${n(between(r, 3, 6))}" fill="${c}" opacity="0.7" transform="rotate(${n(between(r, 0, 180))} ${n(x)} ${n(y)})"/>`;
  }
  return out;
}

// ---------------------------------------------------------------- scenes per category

const SCENES = {
  restaurants(r, w, h, [, , light, accent]) {
    const count = 1 + Math.floor(r() * 3);
    let out = `<rect x="0" y="${n(h * 0.55)}" width="${w}" height="${n(h * 0.45)}" fill="#000" opacity="0.12"/>`;
    for (let i = 0; i < count; i++) {
      const radius = between(r, 85, 135) * (count === 1 ? 1.3 : 1);
      const x = w * ((i + 0.5) / count) + between(r, -40, 40);
      out += plate(x, h * 0.56 + between(r, -40, 40), radius, light, accent, pick(r, ["#16a34a", "#dc2626", "#facc15", "#92400e"]));
    }
    out += cutlery(between(r, 30, 70), h * 0.18, h * 0.5, light);
    return out;
  },
  health_and_beauty(r, w, h, [, , light, accent]) {
    let out = waves(r, w, h, light, 2, 0.25);
    out += `<circle cx="${n(between(r, 0.55, 0.85) * w)}" cy="${n(h * 0.3)}" r="${n(between(r, 60, 110))}" fill="${accent}" opacity="0.5"/>`;
    const sx = between(r, 0.25, 0.45) * w;
    out += stones(sx, h * 0.72, between(r, 70, 100), light);
    for (let i = 0; i < 3; i++)
      out += leaf(sx + between(r, 60, 200), h * between(r, 0.45, 0.7), between(r, 40, 70), between(r, -60, 20), "#166534");
    return out;
  },
  leisure(r, w, h, [, , sunColor, light]) {
    let out = sun(r, between(r, 0.6, 0.85) * w, h * between(r, 0.2, 0.32), between(r, 40, 60), sunColor);
    if (r() < 0.5) out += hills(r, w, h, "#14532d", 2);
    out += waves(r, w, h, light, 2, 0.3);
    out += sail(between(r, 0.2, 0.45) * w, h * 0.66, between(r, 110, 150), light, "#7c2d12");
    return out;
  },
  entertainment(r, w, h, [, , gold, light]) {
    let out = "";
    for (let i = 0; i < 3; i++)
      out += spotlight(w * (0.2 + i * 0.3) + between(r, -40, 40), h * 0.82, between(r, 160, 240), 22, light, 0.18);
    for (let i = 0; i < 9; i++) out += star(between(r, 0, w), between(r, 0, h * 0.55), between(r, 6, 18), gold, 0.8);
    out += `<path d="M0 0 H${n(w * 0.14)} Q${n(w * 0.08)} ${n(h * 0.5)} ${n(w * 0.16)} ${h} H0 Z" fill="#7f1d1d" opacity="0.85"/>`;
    out += `<path d="M${w} 0 H${n(w * 0.86)} Q${n(w * 0.92)} ${n(h * 0.5)} ${n(w * 0.84)} ${h} H${w} Z" fill="#7f1d1d" opacity="0.85"/>`;
    out += star(w * 0.5 + between(r, -60, 60), h * 0.45, between(r, 60, 85), gold);
    return out;
  },
  services(r, w, h, [, , light, accent]) {
    let out = "";
    for (let i = 0; i < 12; i++)
      out += `<rect x="${n(i * 70 + between(r, -10, 10))}" y="0" width="2" height="${h}" fill="${light}" opacity="0.08"/>`;
    out += gear(between(r, 0.3, 0.45) * w, h * 0.5, between(r, 80, 110), light, "#334155");
    out += gear(between(r, 0.6, 0.72) * w, h * between(r, 0.3, 0.4), between(r, 45, 65), accent, "#334155");
    out += gear(between(r, 0.65, 0.8) * w, h * 0.75, between(r, 30, 45), light, "#334155");
    return out;
  },
  family_plans(r, w, h, [, , light, accent]) {
    let out = `<rect x="0" y="${n(h * 0.8)}" width="${w}" height="${n(h * 0.2)}" fill="#15803d" opacity="0.55"/>`;
    out += house(between(r, 0.12, 0.3) * w, h * 0.82, between(r, 120, 160), light, "#b91c1c");
    const colors = ["#ef4444", "#3b82f6", "#22c55e", "#eab308", "#a855f7", accent];
    const count = 3 + Math.floor(r() * 3);
    for (let i = 0; i < count; i++) {
      out += balloon(w * (0.45 + i * 0.1) + between(r, -20, 20), h * between(r, 0.2, 0.4), between(r, 30, 46), pick(r, colors), light);
    }
    return out;
  },
  travel(r, w, h, [, , sunColor, light]) {
    let out = sun(r, between(r, 0.15, 0.4) * w, h * between(r, 0.2, 0.3), between(r, 35, 55), sunColor);
    out += hills(r, w, h, "#0c4a6e", 1);
    out += waves(r, w, h, light, 3, 0.2);
    out += plane(between(r, 0.55, 0.8) * w, h * between(r, 0.18, 0.35), between(r, 110, 160), between(r, -25, -5), light);
    out += `<path d="M${n(w * 0.4)} ${n(h * 0.45)} Q${n(w * 0.55)} ${n(h * 0.15)} ${n(w * 0.68)} ${n(h * 0.3)}" stroke="${light}" stroke-width="3" stroke-dasharray="10 10" fill="none" opacity="0.6"/>`;
    return out;
  },
  product(r, w, h, [, , light, accent]) {
    let out = `<rect x="0" y="${n(h * 0.78)}" width="${w}" height="${n(h * 0.22)}" fill="#000" opacity="0.12"/>`;
    const size = between(r, 140, 190);
    out += box(w * 0.5 - size * 0.6, h * 0.78 - size, size, light, accent, "#dc2626");
    out += box(w * 0.5 - size * 1.25, h * 0.78 - size * 0.6, size * 0.6, accent, "#451a03", light);
    out += box(w * 0.5 + size * 0.6, h * 0.78 - size * 0.7, size * 0.7, light, "#a16207", "#2563eb");
    for (let i = 0; i < 5; i++) out += star(between(r, 0, w), between(r, 0, h * 0.35), between(r, 5, 12), light, 0.7);
    return out;
  },
  training(r, w, h, [, , light, accent]) {
    let out = "";
    for (let i = 0; i < 6; i++)
      out += `<line x1="0" y1="${n(60 + i * 60)}" x2="${w}" y2="${n(60 + i * 60)}" stroke="${light}" stroke-width="1.5" opacity="0.12"/>`;
    out += books(
      between(r, 0.12, 0.25) * w,
      h * 0.82,
      between(r, 220, 260),
      ["#ef4444", light, accent, "#10b981", "#f97316", "#0ea5e9"].slice(0, 4 + Math.floor(r() * 3)),
    );
    out += cap(between(r, 0.65, 0.78) * w, h * between(r, 0.32, 0.45), between(r, 170, 210), "#0f172a", accent);
    out += `<circle cx="${n(w * 0.5)}" cy="${n(h * 0.2)}" r="${n(between(r, 18, 30))}" fill="${accent}" opacity="0.6"/>`;
    return out;
  },
};

// ---------------------------------------------------------------- svg documents

function gradientDefs(r, [from, to], seedShift) {
  const angle = between(r, 0, 360);
  const x2 = 50 + Math.cos((angle * Math.PI) / 180) * 50;
  const y2 = 50 + Math.sin((angle * Math.PI) / 180) * 50;
  return (
    `<defs><linearGradient id="bg" x1="${n(100 - x2)}%" y1="${n(100 - y2)}%" x2="${n(x2)}%" y2="${n(y2)}%">` +
    `<stop offset="0" stop-color="${tint(from, seedShift)}"/><stop offset="1" stop-color="${tint(to, -seedShift)}"/></linearGradient>` +
    `<radialGradient id="glow" cx="50%" cy="50%" r="50%"><stop offset="0" stop-color="#fff" stop-opacity="0.35"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs>`
  );
}

function sceneSvg(seedText, category, width, height) {
  const r = rng(hash(seedText));
  const palette = PALETTES[category];
  const shift = Math.round(between(r, -24, 24));
  const glowX = between(r, 0.2, 0.8) * width;
  const glowY = between(r, 0.1, 0.5) * height;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    gradientDefs(r, palette, shift) +
    `<rect width="${width}" height="${height}" fill="url(#bg)"/>` +
    `<ellipse cx="${n(glowX)}" cy="${n(glowY)}" rx="${n(width * 0.45)}" ry="${n(height * 0.5)}" fill="url(#glow)"/>` +
    confetti(r, width, height, [palette[2], palette[3]], 6) +
    SCENES[category](r, width, height, palette) +
    `</svg>`
  );
}

/** Square logo: rounded tile with a geometric mark (no text), colours from the organization key. */
function logoSvg(seedText, category, size) {
  const r = rng(hash(seedText));
  const [from, to, light, accent] = PALETTES[category];
  const c = size / 2;
  const marks = [
    () =>
      `<circle cx="${c}" cy="${c}" r="${n(size * 0.26)}" fill="none" stroke="${light}" stroke-width="${n(size * 0.08)}"/><circle cx="${c}" cy="${c}" r="${n(size * 0.09)}" fill="${accent}"/>`,
    () => star(c, c + 4, size * 0.3, light),
    () =>
      `<path d="M${n(c - size * 0.28)} ${n(c + size * 0.22)} L${c} ${n(c - size * 0.28)} L${n(c + size * 0.28)} ${n(c + size * 0.22)} Z" fill="${light}"/><circle cx="${c}" cy="${n(c + size * 0.06)}" r="${n(size * 0.08)}" fill="${accent}"/>`,
    () =>
      `<rect x="${n(c - size * 0.24)}" y="${n(c - size * 0.24)}" width="${n(size * 0.48)}" height="${n(size * 0.48)}" rx="${n(size * 0.08)}" fill="${light}" transform="rotate(45 ${c} ${c})"/><rect x="${n(c - size * 0.1)}" y="${n(c - size * 0.1)}" width="${n(size * 0.2)}" height="${n(size * 0.2)}" fill="${accent}" transform="rotate(45 ${c} ${c})"/>`,
    () => leaf(c - size * 0.3, c + size * 0.1, size * 0.4, -30, light) + leaf(c, c + size * 0.18, size * 0.3, -70, accent),
    () =>
      [0, 1, 2]
        .map(
          (i) =>
            `<rect x="${n(c - size * 0.27 + i * size * 0.2)}" y="${n(c + size * 0.2 - (i + 1) * size * 0.13)}" width="${n(size * 0.14)}" height="${n((i + 1) * size * 0.13)}" rx="3" fill="${i === 2 ? accent : light}"/>`,
        )
        .join(""),
  ];
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${tint(from, between(r, -20, 20))}"/><stop offset="1" stop-color="${tint(to, between(r, -20, 20))}"/></linearGradient></defs>` +
    `<rect width="${size}" height="${size}" rx="${n(size * 0.18)}" fill="url(#bg)"/>` +
    pick(r, marks)() +
    `</svg>`
  );
}

// ---------------------------------------------------------------- main

async function render(svg, width, height, quality) {
  return sharp(Buffer.from(svg)).resize(width, height).webp({ quality, effort: 6 }).toBuffer();
}

async function main() {
  await mkdir(DEMO_DIR, { recursive: true });
  /** file -> { category, image } (a logo shared by several offers is drawn once). */
  const jobs = new Map();
  for (const offer of SEED_OFFERS) {
    for (const image of offer.images) {
      if (!image.file.startsWith("/images/demo/") || !image.file.endsWith(".webp")) {
        throw new Error(`Unexpected image path ${image.file} in offer ${offer.key}`);
      }
      if (!jobs.has(image.file)) jobs.set(image.file, { category: offer.category, image, org: offer.organization.key });
    }
  }

  let total = 0;
  let biggest = 0;
  const smalls = new Set();
  for (const [file, { category, image, org }] of jobs) {
    const svg = image.logo
      ? logoSvg(org, category, image.width)
      : sceneSvg(path.basename(file, ".webp"), category, image.width, image.height);
    let quality = QUALITY;
    let buffer = await render(svg, image.width, image.height, quality);
    // Keep covers under budget even if a scene comes out busy.
    while (!image.logo && buffer.length > MAX_COVER_BYTES && quality > 40) {
      quality -= 10;
      buffer = await render(svg, image.width, image.height, quality);
    }
    const meta = await sharp(buffer).metadata();
    if (meta.width !== image.width || meta.height !== image.height) {
      throw new Error(`${file}: rendered ${meta.width}x${meta.height}, seed data says ${image.width}x${image.height}`);
    }
    await writeFile(path.join(PUBLIC_DIR, file), buffer);
    total += buffer.length;
    biggest = Math.max(biggest, buffer.length);
    if (image.small) {
      // The same scene drawn at the smaller size, for phones' cards (seed-data.ts, photo()).
      const small = await render(svg, image.small.width, image.small.height, quality);
      await mkdir(path.dirname(path.join(PUBLIC_DIR, image.small.file)), { recursive: true });
      await writeFile(path.join(PUBLIC_DIR, image.small.file), small);
      smalls.add(image.small.file);
      total += small.length;
    }
  }

  // Remove images no longer referenced by the seed data, so the folder mirrors it exactly.
  const wanted = new Set([...jobs.keys(), ...smalls].map((f) => path.relative("/images/demo", f)));
  const onDiskFiles = (await readdir(DEMO_DIR, { recursive: true })).filter((name) => name.endsWith(".webp"));
  for (const name of onDiskFiles) {
    if (!wanted.has(name)) {
      await unlink(path.join(DEMO_DIR, name));
      console.log(`removed stale ${name}`);
    }
  }

  let onDisk = 0;
  for (const name of wanted) onDisk += (await stat(path.join(DEMO_DIR, name))).size;
  console.log(
    `${jobs.size + smalls.size} images written to ${path.relative(ROOT, DEMO_DIR)}: ${(total / 1024).toFixed(0)} KB, largest ${(biggest / 1024).toFixed(1)} KB (folder total ${(onDisk / 1024).toFixed(0)} KB)`,
  );
}

await main();
