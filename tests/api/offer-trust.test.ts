import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { query } from "#api/db/client";
import { offers, organizations, priceOptions } from "#api/db/schema";
import { OFFER_REVIEWS_SHOWN } from "#contract/offers";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ seed: false });
});
afterAll(() => api.close());

async function newOffer(organizationId: string, title: string): Promise<{ id: string; option: string }> {
  const [row] = await api.db
    .insert(offers)
    .values({ organizationId, title, summary: title, category: "restaurants", province: "Madrid", address: "Calle Mayor 1" })
    .returning({ id: offers.id });
  const [option] = await api.db
    .insert(priceOptions)
    .values({ offerId: row.id, title: "Para dos", actualPrice: "20.00", regularPrice: "40.00", available: 100 })
    .returning({ id: priceOptions.id });
  return { id: row.id, option: option.id };
}

/** A sale of `quantity` coupons of one offer by `email`, in the given status; its coupons once it was paid, as capture makes them. */
async function sell(offer: { id: string; option: string }, email: string, quantity: number, status = "paid") {
  const wasPaid = status !== "pending";
  await query(
    api.db,
    sql`WITH s AS (
          INSERT INTO sales (session_token, email, status, provider, total_cents, checkout_data, expires_at, paid_at)
          VALUES (${randomUUID()}, ${email}, ${status}, 'sandbox', 2000, '{}'::jsonb, now(), ${wasPaid ? sql`now()` : sql`NULL`}) RETURNING id),
        i AS (
          INSERT INTO sale_items (sale_id, offer_id, price_option_id, quantity, unit_price_cents, paid_unit_cents)
          SELECT id, ${offer.id}, ${offer.option}, ${quantity}, 2000, 2000 FROM s RETURNING id)
        INSERT INTO coupons (sale_item_id, code)
        SELECT i.id, 'T' || substr(md5(random()::text), 1, 11) FROM i, generate_series(1, ${quantity}) WHERE ${wasPaid}`,
  );
}

async function rate(offerId: string, email: string, stars: number, comment: string, daysAgo: number) {
  await query(
    api.db,
    sql`INSERT INTO offer_feedback (offer_id, email, stars, comment, created_at, updated_at)
        VALUES (${offerId}, ${email}, ${stars}, ${comment}, now() - ${daysAgo} * interval '1 day', now() - ${daysAgo} * interval '1 day')`,
  );
}

it("an offer's page counts the coupons of paid sales only", async () => {
  const [org] = await api.db.insert(organizations).values({ name: "Casa contada" }).returning({ id: organizations.id });
  const offer = await newOffer(org.id, "Cena contada");
  expect((await call(api, `/public/offers/${offer.id}/`)).body.sold_count).toBe(0);
  await sell(offer, "ana@example.es", 2);
  await sell(offer, "luis@example.es", 3);
  await sell(offer, "nadie@example.es", 7, "pending");
  await sell(offer, "otra@example.es", 4, "refund_required");
  const res = await call(api, `/public/offers/${offer.id}/`);
  expect(res.status).toBe(200);
  expect(res.body.sold_count).toBe(5);
});

it("reviews: the newest buyers' comments with stars and date; no address, no empty comment, no stranger", async () => {
  const [org] = await api.db.insert(organizations).values({ name: "Casa opinada" }).returning({ id: organizations.id });
  const offer = await newOffer(org.id, "Menú opinado");
  const buyers = Array.from({ length: OFFER_REVIEWS_SHOWN + 2 }, (_, i) => `comprador${i}@example.es`);
  for (const email of buyers) await sell(offer, email, 1);
  for (const [i, email] of buyers.entries()) await rate(offer.id, email, 1 + (i % 5), i === 1 ? "  " : `Opinión ${i}`, i);
  await rate(offer.id, "extrano@example.es", 1, "Nunca vine", 0);
  const { body } = await call(api, `/public/offers/${offer.id}/`);
  expect(body.reviews).toHaveLength(OFFER_REVIEWS_SHOWN);
  expect(body.reviews.map((r: { comment: string }) => r.comment)).toEqual([
    "Opinión 0",
    "Opinión 2",
    "Opinión 3",
    "Opinión 4",
    "Opinión 5",
  ]);
  expect(body.reviews[1]).toEqual({ stars: 3, comment: "Opinión 2", date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
  expect(JSON.stringify(body.reviews)).not.toContain("@");
});

it("the partner's rating: verified buyers' stars over all its offers, shown from MIN_RATINGS_SHOWN", async () => {
  const [org] = await api.db.insert(organizations).values({ name: "Casa valorada" }).returning({ id: organizations.id });
  const a = await newOffer(org.id, "Oferta A");
  const b = await newOffer(org.id, "Oferta B");
  await sell(a, "uno@example.es", 1);
  await sell(b, "dos@example.es", 1);
  await rate(a.id, "uno@example.es", 5, "", 1);
  await rate(b.id, "dos@example.es", 4, "", 1);
  await rate(b.id, "intruso@example.es", 1, "", 1); // never bought: does not count
  expect((await call(api, `/public/offers/${a.id}/`)).body.organization.rating).toBeNull();
  await sell(b, "tres@example.es", 1);
  await rate(b.id, "tres@example.es", 3, "", 1);
  const { body } = await call(api, `/public/offers/${a.id}/`);
  expect(body.organization.rating).toEqual({ average: 4, count: 3 });
  expect((await call(api, `/public/offers/${b.id}/`)).body.organization.rating).toEqual({ average: 4, count: 3 });
});
