import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SEED_OFFERS, SEED_PROMO_CODES } from "#api/db/seed-data";
import { CATEGORY_IDS, OFFER_TYPES } from "#rules/categories";
import { POPULAR_PROVINCE_RANK, isProvince } from "#rules/regions";

const PUBLIC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../public");

/** Width and height from a WebP file's first chunk (VP8 lossy, VP8L lossless or VP8X extended). */
function webpSize(bytes: Buffer): { width: number; height: number } {
  if (bytes.toString("ascii", 0, 4) !== "RIFF" || bytes.toString("ascii", 8, 12) !== "WEBP") {
    throw new Error("not a WebP file");
  }
  const chunk = bytes.toString("ascii", 12, 16);
  if (chunk === "VP8 ") {
    // 3-byte frame tag, then start code 9d 01 2a, then 14-bit width and height.
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) throw new Error("bad VP8 start code");
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === "VP8L") {
    if (bytes[20] !== 0x2f) throw new Error("bad VP8L signature");
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  }
  throw new Error(`unknown WebP chunk ${chunk}`);
}

/** Same folding as the offers.search_text column: lower case, accents removed. */
function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");
}

function countBy<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

const PRICE = /^\d+\.\d{2}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

describe("seed catalogue", () => {
  it("has at least 54 offers with unique kebab-case keys", () => {
    expect(SEED_OFFERS.length).toBeGreaterThanOrEqual(54);
    const keys = SEED_OFFERS.map((o) => o.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it("has ranks 1..N, each used once", () => {
    const ranks = SEED_OFFERS.map((o) => o.rank).sort((a, b) => a - b);
    expect(ranks).toEqual(SEED_OFFERS.map((_, i) => i + 1));
  });

  it("covers every category at least 4 times", () => {
    const counts = countBy(SEED_OFFERS, (o) => o.category);
    for (const category of CATEGORY_IDS) expect(counts.get(category) ?? 0, category).toBeGreaterThanOrEqual(4);
    for (const offer of SEED_OFFERS) expect(CATEGORY_IDS).toContain(offer.category);
  });

  it("covers at least 14 provinces, all ten popular ones, with Madrid and Barcelona the biggest", () => {
    for (const offer of SEED_OFFERS) expect(isProvince(offer.province), offer.province).toBe(true);
    const counts = countBy(SEED_OFFERS, (o) => o.province);
    expect(counts.size).toBeGreaterThanOrEqual(14);
    for (const province of Object.keys(POPULAR_PROVINCE_RANK)) {
      expect(counts.get(province) ?? 0, province).toBeGreaterThan(0);
    }
    const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1]);
    expect(sorted[0][0]).toBe("Madrid");
    expect(sorted[1][0]).toBe("Barcelona");
    expect(sorted[1][1]).toBeGreaterThan(sorted[2][1]);
  });

  it("uses mostly regular offers and a few of every other type", () => {
    const counts = countBy(SEED_OFFERS, (o) => o.offer_type);
    for (const offer of SEED_OFFERS) expect(OFFER_TYPES).toContain(offer.offer_type);
    expect(counts.get("regular") ?? 0).toBeGreaterThan(SEED_OFFERS.length / 2);
    expect(counts.get("promo") ?? 0).toBeGreaterThanOrEqual(2);
    expect(counts.get("subscription") ?? 0).toBeGreaterThanOrEqual(1);
    expect(counts.get("direct") ?? 0).toBeGreaterThanOrEqual(1);
  });

  it("has complete Spanish texts", () => {
    for (const offer of SEED_OFFERS) {
      expect(offer.title.trim(), offer.key).not.toBe("");
      expect(offer.summary.trim(), offer.key).not.toBe("");
      const paragraphs = offer.description.split("\n\n");
      expect(paragraphs.length, offer.key).toBeGreaterThanOrEqual(2);
      expect(paragraphs.length, offer.key).toBeLessThanOrEqual(4);
      for (const p of paragraphs) expect(p.trim(), offer.key).toBe(p);
      const lines = offer.conditions.split("\n");
      expect(lines.length, offer.key).toBeGreaterThanOrEqual(3);
      expect(lines.length, offer.key).toBeLessThanOrEqual(6);
      for (const line of lines) expect(line.trim().length, offer.key).toBeGreaterThan(0);
      expect(offer.address, offer.key).toMatch(/\d{5}/);
    }
  });

  it("contains the accented search fixtures exactly once each", () => {
    for (const word of ["cafe", "paella", "masaje"]) {
      const hits = SEED_OFFERS.filter((o) => fold(`${o.title} ${o.summary}`).includes(word));
      expect(
        hits.map((o) => o.key),
        word,
      ).toHaveLength(1);
    }
    expect(SEED_OFFERS.some((o) => o.title.includes("Café"))).toBe(true);
    expect(SEED_OFFERS.some((o) => o.title.includes("Paella"))).toBe(true);
    expect(SEED_OFFERS.some((o) => o.title.includes("masaje"))).toBe(true);
  });

  it("has plausible organizations, consistent when shared", () => {
    const byKey = new Map<string, (typeof SEED_OFFERS)[number]["organization"]>();
    for (const { organization: org, key } of SEED_OFFERS) {
      expect(org.email, key).toMatch(/^[a-z0-9._-]+@[a-z0-9-]+\.es$/);
      expect(org.phone, key).toMatch(/^\+34 9\d{2} \d{3} \d{3}$/);
      expect(org.website, key).toMatch(/^https:\/\/www\.[a-z0-9-]+\.es$/);
      const seen = byKey.get(org.key);
      if (seen) expect(org, org.key).toEqual(seen);
      else byKey.set(org.key, org);
    }
  });

  it("places offers inside Spain", () => {
    for (const offer of SEED_OFFERS) {
      expect(offer.latitude, offer.key).toBeGreaterThan(27.5);
      expect(offer.latitude, offer.key).toBeLessThan(43.9);
      expect(offer.longitude, offer.key).toBeGreaterThan(-18.2);
      expect(offer.longitude, offer.key).toBeLessThan(4.4);
      const canary = offer.province === "Las Palmas" || offer.province === "Santa Cruz de Tenerife";
      expect(offer.latitude < 29.5, offer.key).toBe(canary);
    }
  });

  it("has validity dates in the agreed windows", () => {
    for (const offer of SEED_OFFERS) {
      expect(offer.valid_from, offer.key).toMatch(DATE);
      expect(offer.valid_until, offer.key).toMatch(DATE);
      expect(Number.isNaN(Date.parse(offer.valid_from)), offer.key).toBe(false);
      expect(Number.isNaN(Date.parse(offer.valid_until)), offer.key).toBe(false);
      expect(offer.valid_from >= "2026-09-01" && offer.valid_from <= "2026-11-15", offer.key).toBe(true);
      expect(offer.valid_until >= "2027-01-31" && offer.valid_until <= "2027-12-31", offer.key).toBe(true);
    }
  });

  it("has 1 to 3 price options with 2-decimal prices discounted 20-70%", () => {
    for (const offer of SEED_OFFERS) {
      expect(offer.price_options.length, offer.key).toBeGreaterThanOrEqual(1);
      expect(offer.price_options.length, offer.key).toBeLessThanOrEqual(3);
      for (const option of offer.price_options) {
        const label = `${offer.key} / ${option.title}`;
        expect(option.title.trim(), label).not.toBe("");
        expect(option.actual_price, label).toMatch(PRICE);
        expect(option.regular_price, label).toMatch(PRICE);
        const actual = Number(option.actual_price);
        const regular = Number(option.regular_price);
        expect(actual, label).toBeGreaterThan(0);
        expect(actual, label).toBeLessThan(regular);
        const discount = 1 - actual / regular;
        expect(discount, label).toBeGreaterThanOrEqual(0.2 - 1e-9);
        expect(discount, label).toBeLessThanOrEqual(0.7 + 1e-9);
        expect(Number.isInteger(option.available) && option.available >= 0, label).toBe(true);
        if (option.per_customer !== null) {
          expect(Number.isInteger(option.per_customer) && option.per_customer >= 1, label).toBe(true);
        }
      }
    }
  });

  it("has exactly 4 sold-out offers and 5 with a low-stock option", () => {
    const soldOut = SEED_OFFERS.filter((o) => o.price_options.every((p) => p.available === 0));
    expect(soldOut).toHaveLength(4);
    const lowStock = SEED_OFFERS.filter((o) => o.price_options.some((p) => p.available >= 1 && p.available <= 5));
    expect(lowStock).toHaveLength(5);
    // Partially sold-out offers would blur both groups; keep them apart.
    const partial = SEED_OFFERS.filter(
      (o) => o.price_options.some((p) => p.available === 0) && !o.price_options.every((p) => p.available === 0),
    );
    expect(partial).toHaveLength(0);
  });

  it("has one 800x500 cover per offer and square logos", () => {
    for (const offer of SEED_OFFERS) {
      const covers = offer.images.filter((i) => i.cover);
      expect(covers, offer.key).toHaveLength(1);
      expect([covers[0].width, covers[0].height], offer.key).toEqual([800, 500]);
      for (const image of offer.images) {
        expect(image.cover && image.logo, image.file).toBe(false);
        expect(image.alt.trim(), image.file).not.toBe("");
        if (image.logo) expect([image.width, image.height], image.file).toEqual([160, 160]);
        // Every photo also at 400x250, as an upload is rendered; a logo has no smaller size.
        expect(image.small, image.file).toEqual(
          image.logo ? null : { file: image.file.replace("/images/demo/", "/images/demo/400/"), width: 400, height: 250 },
        );
      }
      expect(offer.images.filter((i) => i.logo).length, offer.key).toBeLessThanOrEqual(1);
    }
  });

  it("has every image on disk as WebP with the declared size, under 2 MB in total", () => {
    const files = new Map<string, { width: number; height: number }>();
    for (const offer of SEED_OFFERS) {
      for (const image of offer.images) {
        expect(image.file).toMatch(/^\/images\/demo\/[a-z0-9-]+\.webp$/);
        for (const { file, width, height } of image.small ? [image, image.small] : [image]) {
          const known = files.get(file);
          if (known) expect({ width, height }, file).toEqual(known);
          files.set(file, { width, height });
        }
      }
    }
    let total = 0;
    for (const [file, declared] of files) {
      const onDisk = path.join(PUBLIC_DIR, file);
      expect(existsSync(onDisk), file).toBe(true);
      expect(webpSize(readFileSync(onDisk)), file).toEqual(declared);
      total += statSync(onDisk).size;
    }
    expect(total).toBeLessThan(2 * 1024 * 1024);
  });
});

describe("seed promo codes", () => {
  const offerKeys = new Set(SEED_OFFERS.map((o) => o.key));
  const isGlobalAndOpen = (c: (typeof SEED_PROMO_CODES)[number]) =>
    c.offer_key === null && c.valid_until === null && c.max_uses === null && c.per_customer_limit === null;

  it("has at least 6 unique upper-case ASCII codes with numeric values", () => {
    expect(SEED_PROMO_CODES.length).toBeGreaterThanOrEqual(6);
    const codes = SEED_PROMO_CODES.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const c of SEED_PROMO_CODES) {
      expect(c.code).toMatch(/^[A-Z0-9]+$/);
      expect(c.discount_value, c.code).toMatch(/^\d+(\.\d{2})?$/);
      expect(Number(c.discount_value), c.code).toBeGreaterThan(0);
      if (c.discount_type === "percent") expect(Number(c.discount_value), c.code).toBeLessThan(100);
      expect(c.note.trim(), c.code).not.toBe("");
      if (c.valid_from !== null) expect(c.valid_from, c.code).toMatch(DATE);
      if (c.valid_until !== null) expect(c.valid_until, c.code).toMatch(DATE);
      if (c.offer_key !== null) expect(offerKeys.has(c.offer_key), c.code).toBe(true);
    }
  });

  it("covers all three discount kinds with codes valid on every offer", () => {
    for (const kind of ["percent", "amount", "fixed_price"] as const) {
      expect(
        SEED_PROMO_CODES.some((c) => c.discount_type === kind && isGlobalAndOpen(c)),
        kind,
      ).toBe(true);
    }
  });

  it("includes the expired, single-use, once-per-customer and single-offer cases", () => {
    const byCode = new Map(SEED_PROMO_CODES.map((c) => [c.code, c]));
    expect(byCode.get("BIENVENIDA10")).toMatchObject({ discount_type: "percent", discount_value: "10" });
    expect(byCode.get("AHORRA5")).toMatchObject({ discount_type: "amount", discount_value: "5.00" });
    expect(byCode.get("PRECIO9")).toMatchObject({ discount_type: "fixed_price", discount_value: "9.00" });
    expect(byCode.get("VERANO2025")?.valid_until).toBe("2025-09-30");
    expect(byCode.get("UNICO")?.max_uses).toBe(1);
    expect(byCode.get("UNAVEZ")?.per_customer_limit).toBe(1);
    expect(SEED_PROMO_CODES.filter((c) => c.offer_key !== null).length).toBeGreaterThanOrEqual(1);
  });
});
