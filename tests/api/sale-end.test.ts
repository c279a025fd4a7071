/**
 * An offer's sale end (offers.sale_until, rules/sale-end.ts): its partner sets it, the offer's
 * page is told it, and after that day (Madrid) neither a checkout nor a sale takes the offer.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offers } from "#api/db/schema";
import { addDays, madridDate } from "#rules/dates";
import { saleEndText } from "#rules/sale-end";
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
