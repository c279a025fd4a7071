// Regenerate the demo catalogue images (public/images/demo/*.webp) from api/db/seed-data.ts:
//   npm install --no-save sharp && npx tsx scripts/generate-demo-images.mjs
//
// Every image is drawn from an SVG (composed in scripts/demo-images/): a gradient in the category's colours plus simple
// geometric shapes evoking the category (plates, waves, balloons, gears...). Layout and colours vary
// with a deterministic hash of the image's file name, so re-running produces the same pictures.
// sharp is deliberately not a project dependency; it is only needed to run this script.
import { mkdir, readdir, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { SEED_OFFERS } from "../api/db/seed-data.ts";
import { logoSvg, sceneSvg } from "./demo-images/svg.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PUBLIC_DIR = path.join(ROOT, "public");
const DEMO_DIR = path.join(PUBLIC_DIR, "images", "demo");
const QUALITY = 70;
const MAX_COVER_BYTES = 25 * 1024;

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
