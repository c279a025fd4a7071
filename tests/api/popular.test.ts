/**
 * «Populares ahora»: /public/offers/popular/ ranks active offers by tickets
 * sold in sales paid in the last POPULAR_DAYS days.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POPULAR_DAYS } from "#rules/constants";
import type { OfferList } from "#contract/offers";
import { offers, sales } from "#api/db/schema";
import { query } from "#api/db/client";
import { seedDemoRecentSales } from "#api/db/seed-ratings";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { buy, makeOption, newEmail, someOffer, startSale } from "./_helpers";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const popular = async (params = "") => {
  const { status, body } = await call<OfferList>(api, `/public/offers/popular/${params}`);
  expect(status, JSON.stringify(body)).toBe(200);
  return body.results.map((o) => o.uuid);
};

describe("GET /public/offers/popular/", () => {
  it("ranks by tickets paid in the last days; old, unpaid and inactive sales do not count", async () => {
    expect(await popular()).toEqual([]);
    const [a, b, c, d, e] = await Promise.all([20, 21, 22, 23, 24].map((skip) => someOffer(api, skip)));
    const option = async (offerId: string) => makeOption(api, { available: 50, offerId });
    const [oa, ob, oc, od, oe] = await Promise.all([a, b, c, d, e].map(option));

    await buy(api, [{ option: ob, quantity: 1 }], newEmail("popular"));
    await buy(api, [{ option: oa, quantity: 3 }], newEmail("popular"));
    // Bought more than anything, but before the window.
    const old = await buy(api, [{ option: oc, quantity: 9 }], newEmail("popular"));
    await api.db
      .update(sales)
      .set({ paidAt: sql`now() - make_interval(days => ${POPULAR_DAYS + 1})` })
      .where(eq(sales.id, old.payment.sale_id));
    // Reserved, never paid.
    await startSale(api, [{ option: od, quantity: 5 }], newEmail("popular"));
    // Paid, then the offer was taken off sale.
    await buy(api, [{ option: oe, quantity: 7 }], newEmail("popular"));
    await api.db.update(offers).set({ status: "archived" }).where(eq(offers.id, e));

    expect(await popular()).toEqual([a, b]);
    expect(await popular("?page_size=1")).toEqual([a]);
  });

  it("takes the listing's region and category filters, and refuses unknown ones in Spanish", async () => {
    const ranked = await popular();
    const [first] = await query<{ province: string; category: string }>(
      api.db,
      sql`SELECT province, category FROM offers WHERE id = ${ranked[0]}`,
    );
    expect(await popular(`?region=${encodeURIComponent(first.province)}&category=${first.category}`)).toContain(ranked[0]);
    const other = first.province === "Madrid" ? "Barcelona" : "Madrid";
    expect(await popular(`?region=${other}`)).not.toContain(ranked[0]);
    const bad = await call(api, "/public/offers/popular/?region=Atlantida");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("Región desconocida.");
  });

  it("the demo shop's recent sales make a list of its own, not the home page's order", async () => {
    expect(await seedDemoRecentSales(api.db)).toBeGreaterThan(3);
    const { body: main } = await call(api, "/public/offers/mainpage/?page_size=6");
    const ranked = await popular();
    expect(ranked.length).toBeGreaterThan(3);
    expect(ranked.slice(0, 4)).not.toEqual(main.results.slice(0, 4).map((o: { uuid: string }) => o.uuid));
  });
});
