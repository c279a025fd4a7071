// The SVG documents: a cover (gradient, glow, confetti and the category's scene) and a square logo.
import { between, hash, n, pick, rng, tint } from "./random.mjs";
import { confetti, leaf, star } from "./shapes.mjs";
import { SCENES } from "./scenes.mjs";

/** Gradient start, gradient end, and two accent colours per category. */
export const PALETTES = {
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

export function gradientDefs(r, [from, to], seedShift) {
  const angle = between(r, 0, 360);
  const x2 = 50 + Math.cos((angle * Math.PI) / 180) * 50;
  const y2 = 50 + Math.sin((angle * Math.PI) / 180) * 50;
  return (
    `<defs><linearGradient id="bg" x1="${n(100 - x2)}%" y1="${n(100 - y2)}%" x2="${n(x2)}%" y2="${n(y2)}%">` +
    `<stop offset="0" stop-color="${tint(from, seedShift)}"/><stop offset="1" stop-color="${tint(to, -seedShift)}"/></linearGradient>` +
    `<radialGradient id="glow" cx="50%" cy="50%" r="50%"><stop offset="0" stop-color="#fff" stop-opacity="0.35"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs>`
  );
}

export function sceneSvg(seedText, category, width, height) {
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
export function logoSvg(seedText, category, size) {
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
