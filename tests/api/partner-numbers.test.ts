/**
 * «Mis ofertas», «Ventas», the public «N compradas» and the statements count the same coupons
 * (api/services/coupon-facts.ts): after sales, a reservation still at the payment page, a refund
 * and redemptions, each says the same number, and «Ventas» names its buyers.
 */
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { query } from "#api/db/client";
import type { Scope } from "#api/services/access";
import { markCouponsRefunded } from "#api/services/coupon-facts";
import { previewStatement } from "#api/services/statements";
import { call, type TestApi } from "#tests/support/api-server";
import { buy, capture, newEmail, sandboxAction, startSale, validate } from "./_helpers";
import { ACTORS, callAs, withPartnerWorld, type World } from "./_partner";

let api: TestApi;
let w: World;
withPartnerWorld((world) => ({ api, w } = world), 60_000);

/** A paid purchase whose buyer asked for a receipt, so gave a full name at checkout. */
async function buyWithName(option: { uuid: string; price: string }, quantity: number, fullName: string) {
  const checkout = { need_receipt: true, user_fullname: fullName, user_tax_number: "12345678Z", user_address: "Calle Mayor 2, Madrid" };
  const validated = await validate(api, [{ option, quantity }], newEmail("nombre"), checkout);
  expect(validated.status, JSON.stringify(validated.body)).toBe(200);
  const created = await call(api, "/sales/create/", { body: { session_token: validated.body.checkout_data.session_token } });
  expect(created.status).toBe(201);
  await sandboxAction(created.body.payment, "pay");
  const captured = await capture(api, created.body.payment);
  expect(captured.status).toBe(200);
  return captured.body.items[0].coupons as string[];
}

it("sells, reserves, refunds and redeems, and all four read the same", async () => {
  const option = { uuid: w.optionA, price: "59.90" };
  const named = await buyWithName(option, 2, "Lucía Martín Pérez");
  const guest = (await buy(api, [{ option, quantity: 2 }], newEmail("invitado"))).purchase.items[0].coupons as string[];
  // A buyer at the payment page holds two tickets: reserved, not sold.
  await startSale(api, [{ option, quantity: 2 }], newEmail("pagando"));
  // One of the guest's coupons is refunded; one coupon of each buyer is redeemed.
  const [refund] = await query<{ id: string }>(api.db, sql`SELECT id FROM coupons WHERE code = ${guest[1]}`);
  expect(await markCouponsRefunded(api.db, [refund.id])).toEqual([refund.id]);
  for (const code of [named[0], guest[0]]) {
    const found = await callAs(api, "partnerA", "/verification/coupon/", { body: { code } });
    expect((await callAs(api, "partnerA", `/sales/redeem/${found.body.uuid}/`, { method: "POST" })).status).toBe(200);
  }
  const SOLD = 3;

  // «Mis ofertas»
  const mine = await callAs(api, "partnerA", `/offers/${w.offerA}/`);
  const sold = mine.body.price_options.reduce((n: number, p: { sold: number }) => n + p.sold, 0);
  const reserved = mine.body.price_options.reduce((n: number, p: { reserved: number }) => n + p.reserved, 0);
  expect({ sold, reserved }).toEqual({ sold: SOLD, reserved: 2 });

  // «Ventas»: every coupon listed (the refunded one marked), sold counted without it.
  const sales = await callAs(api, "partnerA", `/sales/partner/?offer=${w.offerA}`);
  expect(sales.body.count).toBe(4);
  expect(sales.body.totals).toEqual({ coupons: SOLD, refunded: 1, redeemed: 2, revenue: (SOLD * 59.9).toFixed(2) });
  expect(sales.body.results.find((r: { code: string }) => r.code === guest[1]).state).toBe("refunded");
  // «Cliente»: the name given at checkout, or a hint of the guest's address.
  for (const row of sales.body.results as { code: string; buyer_first_name: string | null; buyer_email_hint: string }[]) {
    if (named.includes(row.code)) expect(row.buyer_first_name).toBe("Lucía");
    else expect(row.buyer_email_hint).toMatch(/^in…@correo\.es$/);
  }
  // «Ventas»' chart, through the API the page reads: its days add up to the same totals.
  const perDay = await callAs(api, "partnerA", `/sales/partner/per_day/?offer=${w.offerA}`);
  expect(perDay.status).toBe(200);
  const days = perDay.body.results as { day: string; sold: number; redeemed: number }[];
  expect(days.reduce((n, d) => n + d.sold, 0)).toBe(SOLD);
  expect(days.reduce((n, d) => n + d.redeemed, 0)).toBe(2);

  // The public page.
  expect((await call(api, `/public/offers/${w.offerA}/`)).body.sold_count).toBe(SOLD);

  // The statement the organisation would get now: sold, less refunded.
  const staff: Scope = { actor: { ...ACTORS.staff, role: "staff" }, staff: true, orgs: null };
  const preview = await previewStatement(api.db, staff, w.orgA);
  expect(preview.counts.sold - preview.counts.refunded).toBe(SOLD);
  expect(preview.counts).toEqual({ sold: 4, refunded: 1, redeemed: 2, expired: 0 });
});
