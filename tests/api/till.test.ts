import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buy, expectSpanish, newEmail } from "./_helpers";
import { ACTORS, callAs, makeWorld, type World } from "./_partner";
import { startTestApi, type TestApi } from "#tests/support/api-server";

let api: TestApi;
let w: World;
beforeAll(async () => {
  api = await startTestApi();
  w = await makeWorld(api);
});
afterAll(() => api.close());

const priceB = async () => (await callAs(api, "partnerB", `/offers/${w.offerB}/`)).body.price_options[0].actual_price;

describe("the till's day", () => {
  it("«Hoy» lists today's redemptions of this partner only: time, code's last 4, offer, option, member", async () => {
    const before = (await callAs(api, "partnerB", "/sales/today/")).body.count as number;
    const { purchase } = await buy(api, [{ option: { uuid: w.optionB, price: await priceB() }, quantity: 2 }], newEmail("hoy"));
    const [code] = purchase.items[0].coupons as string[];
    const { body: coupon } = await callAs(api, "partnerB", "/verification/coupon/", { body: { code } });
    expect((await callAs(api, "partnerB", `/sales/redeem/${coupon.uuid}/`, { method: "POST" })).status).toBe(200);

    const today = await callAs(api, "partnerB", "/sales/today/");
    expect(today.status).toBe(200);
    expect(today.body.count).toBe(before + 1);
    expect(today.body.results[0]).toMatchObject({
      uuid: coupon.uuid,
      code_last4: code.slice(-4),
      offer_title: coupon.offer.title,
      option_title: "Menú para 2",
      member_email: ACTORS.partnerB.email,
    });
    // The whole code is not in the list, nor any buyer's data.
    expect(JSON.stringify(today.body)).not.toContain(code);
    expect(JSON.stringify(today.body)).not.toContain("@correo.es\",\"buyer");
    // Another partner's list does not show it.
    const other = await callAs(api, "partnerA", "/sales/today/");
    expect(other.body.results.map((r: { uuid: string }) => r.uuid)).not.toContain(coupon.uuid);
  });

  it("finds a buyer's unredeemed coupons by email or name, for this partner only", async () => {
    const email = newEmail("perdido");
    const { purchase } = await buy(api, [{ option: { uuid: w.optionB, price: await priceB() }, quantity: 2 }], email);
    const [first, second] = purchase.items[0].coupons as string[];
    const { body: coupon } = await callAs(api, "partnerB", "/verification/coupon/", { body: { code: first } });
    await callAs(api, "partnerB", `/sales/redeem/${coupon.uuid}/`, { method: "POST" });

    const mailbox = email.split("@")[0];
    const found = await callAs(api, "partnerB", `/sales/search/?q=${encodeURIComponent(mailbox.toUpperCase())}`);
    expect(found.status).toBe(200);
    // The redeemed one is not offered again; the other is.
    expect(found.body.results.map((r: { code: string }) => r.code)).toEqual([second]);
    // The other partner finds nothing of it.
    expect((await callAs(api, "partnerA", `/sales/search/?q=${encodeURIComponent(mailbox)}`)).body.results).toEqual([]);
    // A LIKE wildcard is text, not «everything».
    expect((await callAs(api, "partnerB", `/sales/search/?q=${encodeURIComponent("%%%")}`)).body.results).toEqual([]);
  });

  it("refuses a search too short, in Spanish, and strangers", async () => {
    const short = await callAs(api, "partnerB", "/sales/search/?q=ab");
    expect(short.status).toBe(400);
    expectSpanish(short.body.detail ?? JSON.stringify(short.body));
    expect((await callAs(api, "anonymous", "/sales/today/")).status).toBe(401);
    expect((await callAs(api, "customer", "/sales/today/")).status).toBe(403);
    expect((await callAs(api, "customer", "/sales/search/?q=correo")).status).toBe(403);
  });
});
