import { describe, expect, it } from "vitest";
import { buy, expectSpanish, newEmail } from "./_helpers";
import { sql } from "drizzle-orm";
import { query } from "#api/db/client";
import { call, type TestApi } from "#tests/support/api-server";
import { ACTORS, callAs, newPartner, withPartnerWorld, type World } from "./_partner";

let api: TestApi;
let w: World;
withPartnerWorld((world) => ({ api, w } = world));

/** How far off the buyer's «¿Qué tal?» mail for offer B is, in hours. */
const feedbackHoursAway = async (buyer: string) => {
  const [mail] = await query<{ hours: number }>(
    api.db,
    sql`SELECT extract(epoch FROM send_after - now()) / 3600 AS hours FROM mail_outbox WHERE dedupe_key = ${`feedback:${w.offerB}:${buyer}`.toLowerCase()}`,
  );
  return Number(mail.hours);
};

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
    expect(JSON.stringify(today.body)).not.toContain('@correo.es","buyer');
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

  it("«Deshacer»: the member who redeemed may undo for 10 minutes, recorded; then only staff", async () => {
    const buyer = newEmail("deshacer");
    const { purchase } = await buy(api, [{ option: { uuid: w.optionB, price: await priceB() }, quantity: 1 }], buyer);
    const [code] = purchase.items[0].coupons as string[];
    const { body: coupon } = await callAs(api, "partnerB", "/verification/coupon/", { body: { code } });
    const undo = `/sales/redeem/${coupon.uuid}/undo/`;
    expect((await callAs(api, "partnerB", undo, { method: "POST" })).status).toBe(409);
    await callAs(api, "partnerB", `/sales/redeem/${coupon.uuid}/`, { method: "POST" });
    expect(await feedbackHoursAway(buyer)).toBeLessThan(3);
    // Another member of the same partner, and another partner, may not.
    const colleague = await newPartner(api, w.orgB);
    const byColleague = await call(api, undo, { method: "POST", headers: { authorization: `JWT ${colleague.token}` } });
    expect(byColleague.status).toBe(403);
    expectSpanish(byColleague.body.detail);
    expect((await callAs(api, "partnerA", undo, { method: "POST" })).status).toBe(404);
    const undone = await callAs(api, "partnerB", undo, { method: "POST" });
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ state: "valid", redeemed_at: null });
    const [record] = await query<{ redeemed_by: string; undone_by: string; undone_at: Date | string }>(
      api.db,
      sql`SELECT redeemed_by, undone_by, undone_at FROM redemption_undos WHERE coupon_id = ${coupon.uuid}`,
    );
    expect(record).toMatchObject({ redeemed_by: ACTORS.partnerB.id, undone_by: ACTORS.partnerB.id });
    expect(record.undone_at).toBeTruthy();
    // The rating the redemption asked for within hours waits again for the purchase's three days.
    expect(await feedbackHoursAway(buyer)).toBeGreaterThan(71);

    // Redeemed again, eleven minutes ago: only staff may undo now.
    await callAs(api, "partnerB", `/sales/redeem/${coupon.uuid}/`, { method: "POST" });
    await query(api.db, sql`UPDATE coupons SET redeemed_at = now() - interval '11 minutes' WHERE id = ${coupon.uuid}`);
    const late = await callAs(api, "partnerB", undo, { method: "POST" });
    expect(late.status).toBe(403);
    expect(late.body.detail).toMatch(/más de 10 minutos/);
    expect((await callAs(api, "staff", undo, { method: "POST" })).status).toBe(200);
    const [{ n }] = await query<{ n: number }>(
      api.db,
      sql`SELECT count(*)::int AS n FROM redemption_undos WHERE coupon_id = ${coupon.uuid}`,
    );
    expect(Number(n)).toBe(2);
  });
});
