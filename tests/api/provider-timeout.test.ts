/**
 * A payment provider that does not answer: «Pagar» is answered within PAYMENT_TIMEOUT_MS, the sale
 * is cancelled with its tickets and promo-code uses back on sale, and a payment the provider
 * reports later is still taken (or owed back when the tickets are gone). PayPal's API is the msw
 * stand-in of tests/mocks/paypal.ts; its create call never answers, or fails at the network.
 */
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { query } from "#api/db/client";
import { paymentTransactions, sales } from "#api/db/schema";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { approvePaypalOrder, createPaypalMockState, paypalHandlers, signPaypalWebhook } from "#tests/mocks/paypal";
import { available, capture, couponCount, makeOption, makePromo, newEmail, promoRow, saleStatus, validate, type Line } from "./_helpers";

const TIMEOUT_MS = 400;
const NOT_ANSWERING = "El proveedor de pago no responde. No se te ha cobrado nada. Inténtalo de nuevo.";

const paypal = createPaypalMockState();
const mock = setupServer(...paypalHandlers(paypal));
let api: TestApi;

beforeAll(async () => {
  // The suite's own calls to the API pass through; only PayPal's host is answered by the stand-in.
  mock.listen({ onUnhandledRequest: "bypass" });
  api = await startTestApi({
    env: {
      PAYMENT_PROVIDER: "paypal",
      PAYPAL_CLIENT_ID: paypal.clientId,
      PAYPAL_CLIENT_SECRET: paypal.clientSecret,
      PAYPAL_WEBHOOK_ID: paypal.webhookId,
      PAYPAL_API_BASE: paypal.apiBase,
      PAYMENT_TIMEOUT_MS: String(TIMEOUT_MS),
    },
  });
});
afterEach(() => mock.resetHandlers());
afterAll(async () => {
  mock.close();
  await api.close();
});

/** The order bodies PayPal received but never answered. */
const unanswered: Record<string, unknown>[] = [];
function paypalHangs() {
  mock.use(
    http.post(`${paypal.apiBase}/v2/checkout/orders`, async ({ request }) => {
      unanswered.push(JSON.parse(await request.text()));
      return new Promise<never>(() => {});
    }),
  );
}

async function sessionFor(lines: Line[], email: string): Promise<string> {
  const { status, body } = await validate(api, lines, email, { user_fullname: "Ana García" });
  expect(body.errors, JSON.stringify(body.errors)).toEqual([]);
  expect(status).toBe(200);
  return body.checkout_data.session_token;
}

async function saleOf(token: string) {
  const [row] = await api.db
    .select({ id: sales.id, status: sales.status, tx: paymentTransactions.id })
    .from(sales)
    .innerJoin(paymentTransactions, eq(paymentTransactions.saleId, sales.id))
    .where(eq(sales.sessionToken, token));
  return row;
}

/** «Pagar» while PayPal does not answer: the sale it made, cancelled. */
async function payWhileHanging(lines: Line[], email: string) {
  const token = await sessionFor(lines, email);
  paypalHangs();
  const started = Date.now();
  const { status, body } = await call(api, "/sales/create/", { body: { session_token: token } });
  const elapsed = Date.now() - started;
  mock.resetHandlers();
  expect(status, JSON.stringify(body)).toBe(504);
  expect(body.detail).toBe(NOT_ANSWERING);
  expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
  expect(elapsed).toBeLessThan(TIMEOUT_MS + 3_000);
  const sale = await saleOf(token);
  expect(sale.status).toBe("cancelled");
  return sale;
}

/** PayPal, later: the buyer did pay the order it never told us about, and its webhook says so. */
async function paypalReportsPayment(transactionId: string) {
  const request = unanswered.find((body) => (body.purchase_units as { custom_id: string }[])[0].custom_id === transactionId);
  expect(request).toBeDefined();
  const orderId = `5O${randomUUID().slice(0, 15).replace(/-/g, "").toUpperCase()}`;
  paypal.orders.set(orderId, { id: orderId, status: "APPROVED", request: { headers: {}, body: request! }, captures: [] });
  const event = {
    id: `WH-${randomUUID()}`,
    event_type: "CHECKOUT.ORDER.APPROVED",
    resource: { id: orderId, status: "APPROVED", purchase_units: [{ custom_id: transactionId }] },
  };
  const { rawBody, headers } = signPaypalWebhook(paypal, event);
  return call(api, "/paypal/webhook/", { method: "POST", body: rawBody, headers });
}

describe("a payment provider that does not answer", () => {
  it("answers «Pagar» within the timeout and puts the tickets and the promo-code use back on sale at once", async () => {
    const option = await makeOption(api, { available: 3 });
    const code = `CUELGA${randomUUID().slice(0, 6).toUpperCase()}`;
    await makePromo(api, { code, maxUses: 5 });
    const sale = await payWhileHanging([{ option, quantity: 2, promo: [code] }], newEmail("cuelga"));

    expect(await available(api, option.uuid)).toBe(3);
    expect((await promoRow(api, code)).usedCount).toBe(0);
    const uses = await query<{ n: number }>(api.db, sql`SELECT count(*)::int AS n FROM promo_code_uses WHERE sale_id = ${sale.id}`);
    expect(Number(uses[0].n)).toBe(0);
  });

  it("says the same when PayPal cannot be reached at all", async () => {
    const option = await makeOption(api, { available: 2 });
    const token = await sessionFor([{ option, quantity: 1 }], newEmail("sin-red"));
    mock.use(http.post(`${paypal.apiBase}/v2/checkout/orders`, () => HttpResponse.error()));
    const { status, body } = await call(api, "/sales/create/", { body: { session_token: token } });
    expect(status).toBe(502);
    expect(body.detail).toBe(NOT_ANSWERING);
    expect((await saleOf(token)).status).toBe("cancelled");
    expect(await available(api, option.uuid)).toBe(2);
  });

  it("still takes a payment PayPal reports later, with the tickets taken again", async () => {
    const option = await makeOption(api, { available: 3 });
    const sale = await payWhileHanging([{ option, quantity: 2 }], newEmail("tarde"));
    expect(await available(api, option.uuid)).toBe(3);

    const { status, body } = await paypalReportsPayment(sale.tx);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toEqual({ received: true });
    expect(await saleStatus(api, sale.id)).toBe("paid");
    expect(await available(api, option.uuid)).toBe(1);
    expect(await couponCount(api, sale.id)).toBe(2);
  });

  it("marks a payment reported after the tickets were sold to someone else as owing a refund", async () => {
    const option = await makeOption(api, { available: 1 });
    const sale = await payWhileHanging([{ option, quantity: 1 }], newEmail("agotada"));

    // Another buyer takes the last ticket, PayPal answering normally.
    const other = await sessionFor([{ option, quantity: 1 }], newEmail("otro"));
    const created = await call(api, "/sales/create/", { body: { session_token: other } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    approvePaypalOrder(paypal, created.body.payment.provider_ref);
    expect((await capture(api, created.body.payment)).body.status).toBe("paid");
    expect(await available(api, option.uuid)).toBe(0);

    const { status, body } = await paypalReportsPayment(sale.tx);
    expect(status).toBe(200);
    expect(body.detail).toMatch(/reembolsaremos/);
    expect(await saleStatus(api, sale.id)).toBe("refund_required");
    expect(await available(api, option.uuid)).toBe(0);
    expect(await couponCount(api, sale.id)).toBe(0);
  });
});
