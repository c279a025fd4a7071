// Deterministic randomness: the same file name always draws the same picture.

export function hash(text) {
  // FNV-1a, 32 bits.
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function rng(seed) {
  // mulberry32
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const between = (r, min, max) => min + r() * (max - min);
export const pick = (r, list) => list[Math.floor(r() * list.length)];
export const n = (v) => Math.round(v * 10) / 10;

/** Shift a #rrggbb colour's hue-ish by mixing towards another channel order; small, deterministic. */
export function tint(hex, amount) {
  const v = parseInt(hex.slice(1), 16);
  const ch = [(v >> 16) & 255, (v >> 8) & 255, v & 255].map((c) => Math.max(0, Math.min(255, Math.round(c + amount))));
  return `#${ch.map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}
