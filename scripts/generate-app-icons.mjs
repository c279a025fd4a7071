// The installed shop's icons (public/icons/, named in public/manifest.webmanifest), drawn from the
// logo's mark (app/components/logo.tsx): npx tsx scripts/generate-app-icons.mjs
//   icon-192.png, icon-512.png: the mark as it is, rounded corners on transparency ("any");
//   maskable-512.png: the brand colour to the edges and the mark inside the central 80 % a launcher
//   may crop to a circle or a squircle ("maskable").
//   apple-touch-icon.png (180): iOS's home screen, which rounds the corners itself.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, "public", "icons");
const BRAND = "#e4572e";

/** The mark on a 32-unit grid, as the logo draws it. */
const MARK = `<path d="M10 20.5a6 6 0 1 1 12 0 6 6 0 0 1-12 0zm3 0a3 3 0 1 0 6 0 3 3 0 0 0-6 0z" fill="#fff" transform="translate(0 -4.5)"/>
  <path d="M20 7l4 4" stroke="#fff" stroke-width="2.4" stroke-linecap="round"/>`;

const rounded = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="${BRAND}"/>${MARK}</svg>`;
const square = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${BRAND}"/>${MARK}</svg>`;
// The mark at 90 % about the centre: all of it inside the maskable safe zone (a circle of 80 %).
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${BRAND}"/><g transform="translate(1.6 1.6) scale(0.9)">${MARK}</g></svg>`;

await mkdir(OUT, { recursive: true });
const draw = (svg, size, file) =>
  sharp(Buffer.from(svg), { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true })
    .toFile(path.join(OUT, file));
await draw(rounded, 192, "icon-192.png");
await draw(rounded, 512, "icon-512.png");
await draw(maskable, 512, "maskable-512.png");
await draw(square, 180, "apple-touch-icon.png");
console.log(`Iconos en ${path.relative(ROOT, OUT)}/`);
