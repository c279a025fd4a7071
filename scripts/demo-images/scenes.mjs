// One scene per category, composed from the shapes.
import { between, n, pick } from "./random.mjs";
import {
  balloon,
  books,
  box,
  cap,
  cutlery,
  gear,
  hills,
  house,
  leaf,
  plane,
  plate,
  sail,
  spotlight,
  star,
  stones,
  sun,
  waves,
} from "./shapes.mjs";

export const SCENES = {
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
