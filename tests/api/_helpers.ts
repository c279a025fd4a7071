/**
 * Shared fixtures for the /api/v0 suite: crafted price options and promo codes, and the buyer's
 * whole payment journey (validate → create → sandbox page → capture) in one call each.
 */
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { query } from "#api/db/client";
import { offers, paymentTransactions, priceOptions, promoCodes, sales } from "#api/db/schema";
import { call, type TestApi } from "#tests/support/api-server";

export type Option = { uuid: string; offerId: string; price: string };

/** An active seeded offer; `skip` picks a different one so fixtures do not share an offer. */
export async function someOffer(api: TestApi, skip = 0): Promise<string> {
  const rows = await api.db
    .select({ id: offers.id })
    .from(offers)
    .where(sql`${offers.status} = 'active' AND (${offers.validUntil} IS NULL OR ${offers.validUntil} >= current_date)`)
    .orderBy(offers.rank, offers.id)
    .limit(1)
    .offset(skip);
  return rows[0].id;
}

/** A new price option on an active offer, with exactly the stock and per-customer limit asked. */
export async function makeOption(
  api: TestApi,
  {
    available,
    perCustomer = null,
    price = "20.00",
    offerId,
  }: { available: number; perCustomer?: number | null; price?: string; offerId?: string },
): Promise<Option> {
  const offer = offerId ?? (await someOffer(api, 10));
  const [row] = await api.db
    .insert(priceOptions)
    .values({
      offerId: offer,
      title: `Opción de prueba ${randomUUID().slice(0, 8)}`,
      actualPrice: price,
      regularPrice: "99.00",
      available,
      perCustomer,
      position: 50,
    })
    .returning();
  return { uuid: row.id, offerId: offer, price: row.actualPrice };
}

export async function makePromo(
  api: TestApi,
  values: {
    code: string;
    discountType?: string;
    discountValue?: string;
    maxUses?: number | null;
    perCustomerLimit?: number | null;
    offerId?: string | null;
  },
) {
  const [row] = await api.db
    .insert(promoCodes)
    .values({
      code: values.code,
      discountType: values.discountType ?? "percent",
      discountValue: values.discountValue ?? "10",
      maxUses: values.maxUses ?? null,
      perCustomerLimit: values.perCustomerLimit ?? null,
      offerId: values.offerId ?? null,
    })
    .returning();
  return row;
}

export async function available(api: TestApi, optionId: string): Promise<number> {
  const [row] = await api.db.select({ available: priceOptions.available }).from(priceOptions).where(eq(priceOptions.id, optionId));
  return row.available;
}

export async function promoRow(api: TestApi, code: string) {
  const [row] = await api.db.select().from(promoCodes).where(eq(promoCodes.code, code));
  return row;
}

export async function saleStatus(api: TestApi, saleId: string): Promise<string> {
  const [row] = await api.db.select({ status: sales.status }).from(sales).where(eq(sales.id, saleId));
  return row.status;
}

export async function couponCount(api: TestApi, saleId: string): Promise<number> {
  const rows = await query<{ n: number }>(
    api.db,
    sql`SELECT count(*)::int AS n FROM coupons c JOIN sale_items si ON si.id = c.sale_item_id WHERE si.sale_id = ${saleId}`,
  );
  return Number(rows[0].n);
}

let buyerSeq = 0;
export const newEmail = (tag = "comprador") => `${tag}.${process.pid}.${++buyerSeq}.${randomUUID().slice(0, 6)}@correo.es`;

export type Line = { option: Pick<Option, "uuid" | "price">; quantity?: number; promo?: string[]; savedPrice?: string };

export function orderBody(lines: Line[], email: string, checkout: Record<string, unknown> = {}) {
  return {
    items: lines.map((l) => ({
      offer_price_uuid: l.option.uuid,
      quantity: l.quantity ?? 1,
      saved_price: l.savedPrice ?? l.option.price,
      slot_id: null,
      promo_codes: l.promo ?? [],
    })),
    checkout_data: { subs_agreement: true, email, need_receipt: false, for_present: [], ...checkout },
  };
}

export function validate(api: TestApi, lines: Line[], email: string, checkout?: Record<string, unknown>) {
  return call(api, "/sales/validate/", { body: orderBody(lines, email, checkout) });
}

/** A validated session token; fails the test when validation does not pass. */
export async function sessionFor(api: TestApi, lines: Line[], email: string): Promise<string> {
  const { status, body } = await validate(api, lines, email);
  expect(body.errors, JSON.stringify(body.errors)).toEqual([]);
  expect(status).toBe(200);
  return body.checkout_data.session_token;
}

export type Payment = { sale_id: string; transaction_id: string; provider: string; flow: string; redirect_url: string };

export async function startSale(api: TestApi, lines: Line[], email: string): Promise<Payment> {
  const token = await sessionFor(api, lines, email);
  const { status, body } = await call(api, "/sales/create/", { body: { session_token: token } });
  expect(status, JSON.stringify(body)).toBe(201);
  return body.payment;
}

/** The buyer presses a button on the sandbox's hosted page. */
export async function sandboxAction(payment: Payment, action: "pay" | "decline" | "cancel" | string) {
  const response = await fetch(payment.redirect_url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ action }).toString(),
    redirect: "manual",
  });
  await response.text();
  return { status: response.status, location: response.headers.get("location") };
}

export function capture(api: TestApi, payment: Pick<Payment, "sale_id" | "transaction_id">) {
  return call(api, `/sales/capture/${payment.sale_id}/`, { body: { transaction_id: payment.transaction_id } });
}

/** The full journey: validate, create, pay on the sandbox page, capture. Returns the purchase. */
export async function buy(api: TestApi, lines: Line[], email: string) {
  const payment = await startSale(api, lines, email);
  const paid = await sandboxAction(payment, "pay");
  expect(paid.status).toBe(303);
  const { status, body } = await capture(api, payment);
  expect(status, JSON.stringify(body)).toBe(200);
  expect(body.status).toBe("paid");
  return { payment, purchase: body };
}

/** What the sandbox's "Pagar" button does, minus the webhook: the buyer approved, nobody captured yet. */
export async function approveWithoutWebhook(api: TestApi, transactionId: string) {
  await api.db.update(paymentTransactions).set({ status: "approved" }).where(eq(paymentTransactions.id, transactionId));
}

/** Loose check that an error message is meant for a Spanish reader, not a library default. */
export function expectSpanish(text: unknown) {
  expect(typeof text).toBe("string");
  const value = text as string;
  expect(value.length).toBeGreaterThan(5);
  expect(value).not.toMatch(/\b(Expected|Required|Invalid|received|must|Number must|String must|Not found|Internal Server Error)\b/);
}

/**
 * Links in mail carry a token, never the recipient's address: not in clear, not URL-encoded, not
 * in base64, not as an `email=` parameter.
 */
export function expectNoAddress(links: string[], email: string) {
  const forms = [
    email,
    encodeURIComponent(email),
    Buffer.from(email).toString("base64url"),
    Buffer.from(email).toString("base64"),
    email.split("@")[0],
  ];
  for (const link of links) {
    expect(link).not.toMatch(/@|%40/i);
    for (const form of forms) expect(link.toLowerCase(), link).not.toContain(form.toLowerCase());
    expect(new URL(link).searchParams.has("email"), link).toBe(false);
  }
}
