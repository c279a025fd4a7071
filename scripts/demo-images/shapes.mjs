// Simple geometric shapes as SVG fragments, each evoking part of a category's scene.
import { between, n, pick } from "./random.mjs";

export function waves(r, w, h, color, count, opacity) {
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

export function hills(r, w, h, color, count) {
  let out = "";
  for (let i = 0; i < count; i++) {
    const base = h * (0.7 + i * 0.08);
    const peak = base - between(r, 90, 200);
    const px = between(r, 0.1, 0.9) * w;
    out += `<path d="M${n(px - 420)} ${h} L${n(px)} ${n(peak)} L${n(px + 420)} ${h} Z" fill="${color}" opacity="${(0.25 + i * 0.15).toFixed(2)}"/>`;
  }
  return out;
}

export function sun(r, x, y, radius, color) {
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

export function plate(x, y, radius, rim, inner, food) {
  return (
    `<circle cx="${n(x)}" cy="${n(y + radius * 0.08)}" r="${n(radius)}" fill="#000" opacity="0.15"/>` +
    `<circle cx="${n(x)}" cy="${n(y)}" r="${n(radius)}" fill="${rim}"/>` +
    `<circle cx="${n(x)}" cy="${n(y)}" r="${n(radius * 0.72)}" fill="${inner}" opacity="0.9"/>` +
    `<circle cx="${n(x - radius * 0.18)}" cy="${n(y - radius * 0.1)}" r="${n(radius * 0.28)}" fill="${food}" opacity="0.85"/>` +
    `<circle cx="${n(x + radius * 0.22)}" cy="${n(y + radius * 0.14)}" r="${n(radius * 0.2)}" fill="${food}" opacity="0.6"/>`
  );
}

export function cutlery(x, y, height, color) {
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

export function stones(x, y, size, color) {
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

export function leaf(x, y, size, angle, color) {
  return `<path transform="translate(${n(x)} ${n(y)}) rotate(${n(angle)})" d="M0 0 C${n(size * 0.5)} ${n(-size * 0.5)} ${n(size * 1.2)} ${n(-size * 0.3)} ${n(size * 1.5)} 0 C${n(size * 1.2)} ${n(size * 0.3)} ${n(size * 0.5)} ${n(size * 0.5)} 0 0 Z" fill="${color}" opacity="0.8"/>`;
}

export function star(x, y, radius, color, opacity = 1) {
  let d = "";
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 === 0 ? radius : radius * 0.45;
    d += `${i === 0 ? "M" : "L"}${n(x + Math.cos(a) * rr)} ${n(y + Math.sin(a) * rr)} `;
  }
  return `<path d="${d}Z" fill="${color}" opacity="${opacity}"/>`;
}

export function gear(x, y, radius, color, hole) {
  let teeth = "";
  for (let i = 0; i < 8; i++) {
    teeth += `<rect x="${n(x - radius * 0.16)}" y="${n(y - radius * 1.22)}" width="${n(radius * 0.32)}" height="${n(radius * 0.4)}" rx="${n(radius * 0.05)}" fill="${color}" transform="rotate(${i * 45} ${n(x)} ${n(y)})"/>`;
  }
  return `${teeth}<circle cx="${n(x)}" cy="${n(y)}" r="${n(radius)}" fill="${color}"/><circle cx="${n(x)}" cy="${n(y)}" r="${n(radius * 0.4)}" fill="${hole}"/>`;
}

export function balloon(x, y, size, color, string) {
  return (
    `<path d="M${n(x)} ${n(y + size * 1.2)} q${n(size * 0.3)} ${n(size * 0.8)} ${n(-size * 0.1)} ${n(size * 1.8)}" stroke="${string}" stroke-width="3" fill="none" opacity="0.8"/>` +
    `<ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(size)}" ry="${n(size * 1.2)}" fill="${color}"/>` +
    `<ellipse cx="${n(x - size * 0.35)}" cy="${n(y - size * 0.45)}" rx="${n(size * 0.2)}" ry="${n(size * 0.32)}" fill="#fff" opacity="0.45"/>`
  );
}

export function house(x, y, size, wall, roof) {
  return (
    `<rect x="${n(x - size / 2)}" y="${n(y - size * 0.7)}" width="${n(size)}" height="${n(size * 0.7)}" fill="${wall}"/>` +
    `<path d="M${n(x - size * 0.62)} ${n(y - size * 0.66)} L${n(x)} ${n(y - size * 1.2)} L${n(x + size * 0.62)} ${n(y - size * 0.66)} Z" fill="${roof}"/>` +
    `<rect x="${n(x - size * 0.12)}" y="${n(y - size * 0.38)}" width="${n(size * 0.24)}" height="${n(size * 0.38)}" fill="${roof}" opacity="0.8"/>`
  );
}

export function plane(x, y, size, angle, color) {
  return `<path transform="translate(${n(x)} ${n(y)}) rotate(${n(angle)}) scale(${n(size / 100)})" d="M-50 -6 L30 -6 Q50 0 30 6 L-50 6 Z M-10 -6 L-30 -48 L-16 -48 L14 -6 Z M-10 6 L-30 48 L-16 48 L14 6 Z M-44 -5 L-54 -24 L-46 -24 L-34 -5 Z M-44 5 L-54 24 L-46 24 L-34 5 Z" fill="${color}"/>`;
}

export function sail(x, y, size, color, hull) {
  return (
    `<path d="M${n(x)} ${n(y - size)} L${n(x)} ${n(y)} L${n(x + size * 0.6)} ${n(y)} Z" fill="${color}"/>` +
    `<path d="M${n(x - 6)} ${n(y - size * 0.8)} L${n(x - 6)} ${n(y)} L${n(x - size * 0.4)} ${n(y)} Z" fill="${color}" opacity="0.8"/>` +
    `<path d="M${n(x - size * 0.5)} ${n(y + 8)} L${n(x + size * 0.7)} ${n(y + 8)} L${n(x + size * 0.55)} ${n(y + size * 0.2)} L${n(x - size * 0.38)} ${n(y + size * 0.2)} Z" fill="${hull}"/>`
  );
}

export function box(x, y, size, front, side, ribbon) {
  const d = size * 0.35;
  return (
    `<path d="M${n(x)} ${n(y)} h${n(size)} l${n(d)} ${n(-d)} h${n(-size)} Z" fill="${side}" opacity="0.75"/>` +
    `<path d="M${n(x + size)} ${n(y)} l${n(d)} ${n(-d)} v${n(size)} l${n(-d)} ${n(d)} Z" fill="${side}"/>` +
    `<rect x="${n(x)}" y="${n(y)}" width="${n(size)}" height="${n(size)}" fill="${front}"/>` +
    `<rect x="${n(x + size * 0.44)}" y="${n(y)}" width="${n(size * 0.12)}" height="${n(size)}" fill="${ribbon}"/>` +
    `<path d="M${n(x + size * 0.5)} ${n(y)} l${n(-size * 0.2)} ${n(-size * 0.22)} l${n(size * 0.04)} ${n(size * 0.22)} Z M${n(x + size * 0.5)} ${n(y)} l${n(size * 0.2)} ${n(-size * 0.22)} l${n(-size * 0.04)} ${n(size * 0.22)} Z" fill="${ribbon}"/>`
  );
}

export function books(x, y, size, colors) {
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

export function cap(x, y, size, color, tassel) {
  return (
    `<path d="M${n(x - size * 0.3)} ${n(y + size * 0.05)} v${n(size * 0.22)} q${n(size * 0.3)} ${n(size * 0.16)} ${n(size * 0.6)} 0 v${n(-size * 0.22)} Z" fill="${color}" opacity="0.85"/>` +
    `<path d="M${n(x - size * 0.6)} ${n(y)} L${n(x)} ${n(y - size * 0.25)} L${n(x + size * 0.6)} ${n(y)} L${n(x)} ${n(y + size * 0.25)} Z" fill="${color}"/>` +
    `<path d="M${n(x)} ${n(y)} L${n(x + size * 0.45)} ${n(y + size * 0.08)} v${n(size * 0.3)}" stroke="${tassel}" stroke-width="5" fill="none"/>` +
    `<circle cx="${n(x + size * 0.45)}" cy="${n(y + size * 0.4)}" r="${n(size * 0.05)}" fill="${tassel}"/>`
  );
}

export function spotlight(x, y, w, h, color, opacity) {
  return `<path d="M${n(x - 14)} 0 L${n(x + 14)} 0 L${n(x + w / 2)} ${n(y)} L${n(x - w / 2)} ${n(y)} Z" fill="${color}" opacity="${opacity}"/><ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(w / 2)}" ry="${n(h)}" fill="${color}" opacity="${Math.min(1, opacity * 1.6).toFixed(2)}"/>`;
}

export function confetti(r, w, h, colors, count) {
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
