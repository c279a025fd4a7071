/**
 * An offer's sale end (offers.sale_until, rules/sale-end.ts): its partner sets it, the offer's
 * page is told it, and after that day (Madrid) neither a checkout nor a sale takes the offer.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offers } from "#api/db/schema";
import { addDays, madridDate } from "#rules/dates";
import { saleEndText, statusForSaleEnd } from "#rules/sale-end";
import { endPastSales } from "#api/services/offers/sale-end";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { available, expectSpanish, makeOption, newEmail, sessionFor, validate, type Option } from "./_helpers";
import { activeOffer, callAs, makeWorld, type World } from "./_partner";

let api: TestApi;
let world: World;
beforeAll(async () => {
  api = await startTestApi();
  world = await makeWorld(api);
});
afterAll(() => api.close());

const today = () => madridDate(new Date());
const setSaleUntil = (offerId: string, day: string | null) => api.db.update(offers).set({ saleUntil: day }).where(eq(offers.id, offerId));

describe("a partner sets the sale end", () => {
  it("is saved with the offer, shown to the partner and on the public offer", async () => {
    const until = addDays(today(), 3);
    const offer = await activeOffer(api, "partnerA", world.orgA, { sale_until: until });
    const mine = await callAs(api, "partnerA", `/offers/${offer.uuid}/`);
    expect(mine.body.sale_until).toBe(until);
    const pub = await call(api, `/public/offers/${offer.uuid}/`);
    expect(pub.status).toBe(200);
    expect(pub.body.sale_until).toBe(until);
    expect(pub.body.on_sale).toBe(true);
    // Cleared with a blank field, as the form sends it.
    const cleared = await callAs(api, "partnerA", `/offers/${offer.uuid}/`, { method: "PATCH", body: { sale_until: "" } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.sale_until).toBeNull();
  });

  it("refuses a sale end after the coupons' validity, in Spanish", async () => {
    const { status, body } = await callAs(api, "partnerA", `/offers/${world.offerA}/`, {
      method: "PATCH",
      body: { valid_until: "2027-12-31", sale_until: "2028-01-15" },
    });
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain("La venta no puede terminar después de la validez del cupón.");
  });
});

describe("after the sale end, the offer cannot be bought", () => {
  let option: Option;
  beforeAll(async () => {
    option = await makeOption(api, { available: 20, offerId: world.offerB });
  });

  it("on its last day (Madrid) it is still on sale, until 23:59", async () => {
    await setSaleUntil(world.offerB, today());
    const pub = await call(api, `/public/offers/${world.offerB}/`);
    expect(pub.body.on_sale).toBe(true);
    const { status, body } = await validate(api, [{ option, quantity: 1 }], newEmail());
    expect(body.errors).toEqual([]);
    expect(status).toBe(200);
  });

  it("the day after, the checkout refuses it with a Spanish message", async () => {
    await setSaleUntil(world.offerB, addDays(today(), -1));
    const pub = await call(api, `/public/offers/${world.offerB}/`);
    expect(pub.status).toBe(200);
    expect(pub.body.on_sale).toBe(false);
    const { status, body } = await validate(api, [{ option, quantity: 1 }], newEmail());
    expect(status).toBe(400);
    const texts = body.errors.map((e: { error_text: string }) => e.error_text);
    expect(texts).toEqual([expect.stringContaining("ya no está a la venta")]);
    for (const t of texts) expectSpanish(t);
  });

  it("a checkout validated before the end cannot become a sale after it", async () => {
    await setSaleUntil(world.offerB, today());
    const token = await sessionFor(api, [{ option, quantity: 1 }], newEmail());
    await setSaleUntil(world.offerB, addDays(today(), -1));
    const stock = await available(api, option.uuid);
    const { status, body } = await call(api, "/sales/create/", { body: { session_token: token } });
    expect(status).toBe(409);
    expect(JSON.stringify(body)).toContain("ya no está a la venta");
    expect(await available(api, option.uuid)).toBe(stock);
    await setSaleUntil(world.offerB, null);
  });
});

describe("past its sale end, the offer leaves the shop until its partner sets a later one", () => {
  const listing = () => call(api, "/public/offers/?category=restaurants&region=Madrid&page_size=1");
  const found = async () =>
    (await call(api, "/public/offers/?search=ortzadar&page_size=10")).body.results.map((o: { uuid: string }) => o.uuid);
  const status = async (id: string) => (await callAs(api, "partnerA", `/offers/${id}/`)).body.status;

  it("a past end set by its partner ends it at once: off the listings, their count and search; its page stays", async () => {
    const offer = await activeOffer(api, "partnerA", world.orgA, { title: "Menú Ortzadar para dos" });
    const before = (await listing()).body.count;
    expect(await found()).toContain(offer.uuid);

    const ended = await callAs(api, "partnerA", `/offers/${offer.uuid}/`, { method: "PATCH", body: { sale_until: addDays(today(), -1) } });
    expect(ended.status).toBe(200);
    expect(ended.body.status).toBe("ended");
    expect((await listing()).body.count).toBe(before - 1);
    expect(await found()).not.toContain(offer.uuid);
    const page = await call(api, `/public/offers/${offer.uuid}/`);
    expect(page.status).toBe(200);
    expect(page.body.on_sale).toBe(false);
    const option = { uuid: offer.price_options[0].uuid, price: offer.price_options[0].actual_price };
    const { body } = await validate(api, [{ option, quantity: 1 }], newEmail());
    expect(body.errors.map((e: { error_text: string }) => e.error_text)).toEqual([
      `La oferta «${offer.title}» ya no está a la venta: terminó su plazo de venta.`,
    ]);

    // A later end, or none, puts it back on sale.
    const again = await callAs(api, "partnerA", `/offers/${offer.uuid}/`, { method: "PATCH", body: { sale_until: addDays(today(), 5) } });
    expect(again.body.status).toBe("active");
    expect((await listing()).body.count).toBe(before);
    expect(await found()).toContain(offer.uuid);
    // Ended, it can be archived like any approved offer.
    await callAs(api, "partnerA", `/offers/${offer.uuid}/`, { method: "PATCH", body: { sale_until: addDays(today(), -2) } });
    expect((await callAs(api, "partnerA", `/offers/${offer.uuid}/`, { method: "PATCH", body: { status: "archived" } })).body.status).toBe(
      "archived",
    );
  });

  it("the sale-end job ends those whose last day has gone, once", async () => {
    const offer = await activeOffer(api, "partnerA", world.orgA);
    await setSaleUntil(offer.uuid, today());
    await endPastSales(api.db);
    expect(await status(offer.uuid)).toBe("active");
    await setSaleUntil(offer.uuid, addDays(today(), -1));
    expect(await endPastSales(api.db)).toBeGreaterThanOrEqual(1);
    expect(await status(offer.uuid)).toBe("ended");
    expect(await endPastSales(api.db)).toBe(0);
  });

  it("only an offer on sale ends, and only an ended one comes back", () => {
    const [yesterday, today, tomorrow] = ["2026-11-28", "2026-11-29", "2026-11-30"];
    expect(statusForSaleEnd("active", yesterday, today)).toBe("ended");
    expect(statusForSaleEnd("active", today, today)).toBe("active");
    expect(statusForSaleEnd("ended", tomorrow, today)).toBe("active");
    expect(statusForSaleEnd("ended", null, today)).toBe("active");
    expect(statusForSaleEnd("ended", yesterday, today)).toBe("ended");
    for (const other of ["draft", "pending_review", "paused", "archived"] as const)
      expect(statusForSaleEnd(other, yesterday, today)).toBe(other);
  });
});

describe("the words on the offer's page", () => {
  it("says the day by name within a week, and the date beyond", () => {
    // 2026-11-28 is a Saturday.
    expect(saleEndText("2026-11-29", "2026-11-28")).toBe("A la venta hasta mañana, 23:59");
    expect(saleEndText("2026-11-28", "2026-11-28")).toBe("A la venta hasta hoy, 23:59");
    expect(saleEndText("2026-11-30", "2026-11-28")).toBe("A la venta hasta el lunes, 23:59");
    expect(saleEndText("2026-12-06", "2026-11-30")).toBe("A la venta hasta el domingo, 23:59");
    expect(saleEndText("2026-12-23", "2026-11-28")).toBe("A la venta hasta el 23 de diciembre, 23:59");
    expect(saleEndText("2026-11-27", "2026-11-28")).toBe("Ya no está a la venta: terminó el 27 de noviembre.");
  });
});
