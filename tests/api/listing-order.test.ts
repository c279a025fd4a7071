/**
 * «Ordenar» and the price range of listings (rules/listing-order.ts): each order holds over the
 * whole list, pages continue one another, and what cannot be used is refused in Spanish.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "#api/db/client";
import { toCents } from "#rules/prices";
import { distanceKm, PROVINCE_CENTRES } from "#rules/places";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { expectSpanish } from "./_helpers";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

type Card = {
  uuid: string;
  latitude: number | null;
  longitude: number | null;
  rating: { average: number } | null;
  price_options: { actual_price: string; regular_price: string; available: number }[];
};

/** The option a card shows: the cheapest on sale, else the cheapest (app/components/offer-card-data.ts). */
function shown(card: Card) {
  const onSale = card.price_options.filter((o) => o.available > 0);
  const pool = onSale.length ? onSale : card.price_options;
  return pool.reduce((a, b) => (toCents(b.actual_price) < toCents(a.actual_price) ? b : a));
}
const price = (c: Card) => toCents(shown(c).actual_price);
const discount = (c: Card) => {
  const o = shown(c);
  return toCents(o.regular_price) > toCents(o.actual_price) ? 1 - toCents(o.actual_price) / toCents(o.regular_price) : -1;
};

async function list(params: string): Promise<{ count: number; results: Card[] }> {
  const { status, body } = await call(api, `/public/offers/?page_size=100&${params}`);
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
}

const ordered = (values: number[], direction: 1 | -1) => values.every((v, i) => i === 0 || (v - values[i - 1]) * direction >= -1e-9);

describe("Ordenar", () => {
  it("Precio: cheapest first, over the whole list", async () => {
    const r = await list("sort=price");
    expect(r.results.length).toBeGreaterThan(5);
    const prices = r.results.map(price);
    expect(ordered(prices, 1)).toBe(true);
    // Not the recommended order already: the test would pass without the sort.
    const recommended = (await list("")).results.map(price);
    expect(ordered(recommended, 1)).toBe(false);
  });

  it("Descuento: largest first", async () => {
    const r = await list("sort=discount");
    expect(ordered(r.results.map(discount), -1)).toBe(true);
  });

  it("Valoración: rated offers first, best first", async () => {
    // Two offers far down the recommended order, given the ratings cards show (offer_card_heads).
    const recommended = (await list("")).results;
    const [good, fair] = [recommended[recommended.length - 1].uuid, recommended[recommended.length - 2].uuid];
    await query(api.db, sql`UPDATE offer_card_heads SET rating_count = 5, rating_average = 4.8 WHERE offer_id = ${good}`);
    await query(api.db, sql`UPDATE offer_card_heads SET rating_count = 5, rating_average = 3.1 WHERE offer_id = ${fair}`);
    const r = await list("sort=rating");
    const ratings = r.results.map((c) => c.rating?.average ?? -1);
    expect(ratings[0]).toBeGreaterThan(0);
    expect(ordered(ratings, -1)).toBe(true);
    expect(r.results.findIndex((c) => c.uuid === good)).toBeLessThan(r.results.findIndex((c) => c.uuid === fair));
  });

  it("Cerca de mí: nearest to the place sent first, offers without a place last", async () => {
    const madrid = PROVINCE_CENTRES.Madrid;
    const r = await list(`sort=nearby&lat=${madrid.latitude}&lng=${madrid.longitude}`);
    const placed = r.results.filter((c) => c.latitude !== null && c.longitude !== null);
    const km = placed.map((c) => distanceKm(madrid, { latitude: c.latitude!, longitude: c.longitude! }));
    expect(ordered(km, 1)).toBe(true);
    expect(km[0]).toBeLessThan(50);
    const firstUnplaced = r.results.findIndex((c) => c.latitude === null);
    if (firstUnplaced >= 0) expect(r.results.slice(firstUnplaced).every((c) => c.latitude === null)).toBe(true);
    // From Barcelona, another offer comes first.
    const bcn = PROVINCE_CENTRES.Barcelona;
    const fromBarcelona = await list(`sort=nearby&lat=${bcn.latitude}&lng=${bcn.longitude}`);
    expect(fromBarcelona.results[0].uuid).not.toBe(r.results[0].uuid);
  });

  it("pages continue one another in an order", async () => {
    const whole = await list("sort=price");
    const first = await call(api, "/public/offers/?sort=price&page_size=3");
    const second = await call(api, "/public/offers/?sort=price&page_size=3&page=2");
    expect(first.body.count).toBe(whole.count);
    expect(second.body.count).toBe(whole.count);
    expect([...first.body.results, ...second.body.results].map((c: Card) => c.uuid)).toEqual(whole.results.slice(0, 6).map((c) => c.uuid));
    const past = await call(api, `/public/offers/?sort=price&page_size=3&page=${Math.ceil(whole.count / 3) + 1}`);
    expect(past.status).toBe(200);
    expect(past.body.count).toBe(whole.count);
    expect(past.body.results).toEqual([]);
  });

  it("with a category, a region and a search", async () => {
    const r = await list("sort=price&category=restaurants&region=Madrid");
    expect(r.results.length).toBeGreaterThan(0);
    for (const c of r.results as unknown as { category: string; region: string }[]) {
      expect(c.category).toBe("restaurants");
      expect(c.region).toBe("Madrid");
    }
    const searched = await list("sort=price&search=cena");
    expect(searched.count).toBeGreaterThan(0);
    expect(ordered(searched.results.map(price), 1)).toBe(true);
  });
});

describe("price range", () => {
  it("keeps the offers whose card price is within it, bounds included", async () => {
    const all = (await list("sort=price")).results.map(price);
    const min = all[Math.floor(all.length / 4)];
    const max = all[Math.floor((all.length * 3) / 4)];
    const [lo, hi] = [Math.ceil(min / 100), Math.floor(max / 100)];
    const r = await list(`price_min=${lo}&price_max=${hi}`);
    expect(r.count).toBe(r.results.length);
    expect(r.count).toBe(all.filter((p) => p >= lo * 100 && p <= hi * 100).length);
    for (const c of r.results) {
      expect(price(c)).toBeGreaterThanOrEqual(lo * 100);
      expect(price(c)).toBeLessThanOrEqual(hi * 100);
    }
  });

  it.each([
    ["price_min=50&price_max=10", "El precio mínimo es mayor que el máximo."],
    ["price_min=diez", "El precio debe ser un número entero de euros."],
    ["price_max=12.5", "El precio debe ser un número entero de euros."],
    ["price_max=1000000", "El precio debe estar entre 0 y 100000 €."],
    ["sort=cheapest", "Orden desconocido."],
    ["sort=nearby", "Para ordenar por cercanía, indica tu ubicación, tu código postal o tu provincia."],
  ])("refuses %s in Spanish", async (params, message) => {
    const { status, body } = await call(api, `/public/offers/?${params}`);
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain(message);
    expectSpanish(message);
  });
});
