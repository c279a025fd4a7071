// @vitest-environment node
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPaypalProvider } from "#api/payments/paypal";
import { PaymentProviderError, type CreatePaymentInput, type PaymentProvider } from "#api/payments/types";
import { paymentInput } from "#tests/support/payment-input";
import {
  approvePaypalOrder,
  capturedCount,
  capturePaypalOrderElsewhere,
  createPaypalMockState,
  paypalHandlers,
  signPaypalWebhook,
  type PaypalMockState,
} from "#tests/mocks/paypal";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

let state: PaypalMockState;
let provider: PaymentProvider;

beforeEach(() => {
  state = createPaypalMockState();
  server.use(...paypalHandlers(state));
  provider = createPaypalProvider({
    clientId: state.clientId,
    clientSecret: state.clientSecret,
    webhookId: state.webhookId,
    apiBase: state.apiBase,
  });
});

const input = (overrides: Partial<CreatePaymentInput> = {}) => paymentInput("https://ofertas.test/api/v0/webhooks/paypal", overrides);

async function createdOrder(overrides: Partial<CreatePaymentInput> = {}) {
  const payment = input(overrides);
  const result = await provider.createPayment(payment);
  return { payment, result, order: state.orders.get(result.providerRef)! };
}

describe("PayPal createPayment", () => {
  it("creates an Orders v2 order with the documented shape and returns the payer-action link", async () => {
    const { payment, result, order } = await createdOrder();

    expect(provider.name).toBe("paypal");
    expect(provider.flow).toBe("redirect");
    expect(result.flow).toBe("redirect");
    expect(result.providerRef).toBe(order.id);
    expect(result.redirectUrl).toBe(`https://www.sandbox.paypal.com/checkoutnow?token=${order.id}`);

    expect(order.request.headers["paypal-request-id"]).toBe(payment.transactionId);
    expect(order.request.headers["content-type"]).toContain("application/json");
    expect(order.request.body).toEqual({
      intent: "CAPTURE",
      purchase_units: [
        {
          reference_id: "sale_123",
          custom_id: payment.transactionId,
          description: "Cena para dos en La Bodega",
          amount: { currency_code: "EUR", value: "12.50" },
        },
      ],
      payment_source: {
        paypal: {
          email_address: "ana@example.es",
          experience_context: {
            return_url: payment.returnUrl,
            cancel_url: payment.cancelUrl,
            locale: "es-ES",
            user_action: "PAY_NOW",
            shipping_preference: "NO_SHIPPING",
          },
        },
      },
    });
  });

  it("gets one OAuth token with basic auth and reuses it until it expires", async () => {
    await createdOrder();
    await createdOrder({ transactionId: "second-transaction" });
    expect(state.tokenRequests).toBe(1);
  });

  it("fetches a new token when PayPal stops accepting the cached one", async () => {
    await createdOrder();
    state.accessTokens.clear();
    await createdOrder({ transactionId: "after-revocation" });
    expect(state.tokenRequests).toBe(2);
  });

  it("retrying with the same transaction id returns the same order (PayPal-Request-Id)", async () => {
    const first = await provider.createPayment(input());
    const second = await provider.createPayment(input());
    expect(second.providerRef).toBe(first.providerRef);
    expect(state.orders.size).toBe(1);
  });

  it.each([
    [1250, "12.50"],
    [1, "0.01"],
    [10, "0.10"],
    [100, "1.00"],
    [1999, "19.99"],
    [123456789, "1234567.89"],
  ])("sends %i cents as %s", async (amountCents, value) => {
    const { order } = await createdOrder({ amountCents, transactionId: `tx-${amountCents}` });
    expect((order.request.body.purchase_units as any)[0].amount.value).toBe(value);
  });

  it("keeps description within PayPal's 127 characters", async () => {
    const { order } = await createdOrder({ description: "Ñ".repeat(300) });
    expect((order.request.body.purchase_units as any)[0].description).toHaveLength(127);
  });

  it("throws a PaymentProviderError in Spanish when the credentials are wrong", async () => {
    provider = createPaypalProvider({ clientId: "x", clientSecret: "y", webhookId: state.webhookId, apiBase: state.apiBase });
    const error = await provider.createPayment(input()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect((error as PaymentProviderError).provider).toBe("paypal");
    expect((error as PaymentProviderError).status).toBe(401);
    expect((error as Error).message).toMatch(/PayPal rechazó/);
  });

  it("throws a PaymentProviderError when PayPal refuses the order", async () => {
    server.use(
      http.post(`${state.apiBase}/v2/checkout/orders`, () =>
        HttpResponse.json(
          { name: "INTERNAL_SERVER_ERROR", message: "An internal server error has occurred.", debug_id: "abc" },
          { status: 500 },
        ),
      ),
    );
    const error = await provider.createPayment(input()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect((error as PaymentProviderError).status).toBe(500);
    expect((error as Error).message).toMatch(/no pudo crear el pago/);
  });

  it("throws a PaymentProviderError when PayPal cannot be reached", async () => {
    server.use(http.post(`${state.apiBase}/v1/oauth2/token`, () => HttpResponse.error()));
    await expect(provider.createPayment(input())).rejects.toThrow(/No se pudo conectar con PayPal/);
  });
});

describe("PayPal capturePayment", () => {
  function capture(result: { providerRef: string }, payment = input()) {
    return provider.capturePayment({
      providerRef: result.providerRef,
      transactionId: payment.transactionId,
      amountCents: payment.amountCents,
      currency: payment.currency,
    });
  }

  it("captures an approved order and reports the captured amount", async () => {
    const { result, payment } = await createdOrder({ amountCents: 1999 });
    approvePaypalOrder(state, result.providerRef);

    await expect(capture(result, payment)).resolves.toEqual({
      status: "captured",
      amountCents: 1999,
      currency: "EUR",
      providerRef: result.providerRef,
    });
    expect(state.captureRequests).toEqual([{ orderId: result.providerRef, requestId: `capture-${payment.transactionId}` }]);
  });

  it("is pending while the buyer has not approved", async () => {
    const { result } = await createdOrder();
    await expect(capture(result)).resolves.toMatchObject({ status: "pending", amountCents: 1250, currency: "EUR" });
    expect(capturedCount(state, result.providerRef)).toBe(0);
  });

  it("is declined when PayPal refuses the buyer's instrument", async () => {
    const { result } = await createdOrder();
    approvePaypalOrder(state, result.providerRef);
    state.orders.get(result.providerRef)!.failNextCaptureWith = "INSTRUMENT_DECLINED";
    await expect(capture(result)).resolves.toMatchObject({ status: "declined", providerRef: result.providerRef });
    expect(capturedCount(state, result.providerRef)).toBe(0);
  });

  it("reports captured when PayPal answers 422 ORDER_ALREADY_CAPTURED", async () => {
    const { result } = await createdOrder();
    capturePaypalOrderElsewhere(state, result.providerRef);
    await expect(capture(result)).resolves.toEqual({
      status: "captured",
      amountCents: 1250,
      currency: "EUR",
      providerRef: result.providerRef,
    });
    expect(capturedCount(state, result.providerRef)).toBe(1);
  });

  it("capturing twice takes the money once", async () => {
    const { result } = await createdOrder();
    approvePaypalOrder(state, result.providerRef);
    const [first, second] = await Promise.all([capture(result), capture(result)]);
    const third = await capture(result);
    for (const result of [first, second, third]) expect(result.status).toBe("captured");
    expect(capturedCount(state, result.providerRef)).toBe(1);
    // Every attempt carried the same idempotency key.
    expect(new Set(state.captureRequests.map((r) => r.requestId))).toEqual(new Set(["capture-" + input().transactionId]));
  });

  it("throws a PaymentProviderError for an unknown order", async () => {
    const error = await capture({ providerRef: "NOPE" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect((error as PaymentProviderError).status).toBe(404);
  });
});

describe("PayPal verifyWebhook", () => {
  function captureCompleted(orderId: string, transactionId: string) {
    return {
      id: "WH-58D329510W468432D-8HN650336L201105X",
      create_time: "2025-03-01T10:00:00.000Z",
      resource_type: "capture",
      event_type: "PAYMENT.CAPTURE.COMPLETED",
      summary: "Payment completed for EUR 12.5 EUR",
      resource: {
        id: "42311647XV020574X",
        status: "COMPLETED",
        amount: { currency_code: "EUR", value: "12.50" },
        custom_id: transactionId,
        supplementary_data: { related_ids: { order_id: orderId } },
      },
    };
  }

  const url = "https://ofertas.test/api/v0/webhooks/paypal";

  it("returns the event for a genuine capture-completed delivery", async () => {
    const { rawBody, headers } = signPaypalWebhook(state, captureCompleted("5O190127TN364715T", "tx-1"));
    await expect(provider.verifyWebhook({ headers, rawBody, url })).resolves.toEqual({
      eventId: "WH-58D329510W468432D-8HN650336L201105X",
      kind: "payment.completed",
      transactionId: "tx-1",
      providerRef: "5O190127TN364715T",
    });
    expect(state.verifyRequests).toHaveLength(1);
    expect(state.verifyRequests[0]).toMatchObject({
      auth_algo: "SHA256withRSA",
      cert_url: state.certUrl,
      transmission_id: headers["paypal-transmission-id"],
      transmission_sig: headers["paypal-transmission-sig"],
      transmission_time: headers["paypal-transmission-time"],
      webhook_id: state.webhookId,
      webhook_event: JSON.parse(rawBody),
    });
  });

  it("maps order-approved and capture-denied events", async () => {
    const approved = signPaypalWebhook(state, {
      id: "WH-APPROVED",
      event_type: "CHECKOUT.ORDER.APPROVED",
      resource_type: "checkout-order",
      resource: { id: "ORDER-1", status: "APPROVED", purchase_units: [{ reference_id: "sale_123", custom_id: "tx-2" }] },
    });
    await expect(provider.verifyWebhook({ ...approved, url })).resolves.toEqual({
      eventId: "WH-APPROVED",
      kind: "payment.completed",
      transactionId: "tx-2",
      providerRef: "ORDER-1",
    });

    const denied = signPaypalWebhook(state, {
      ...captureCompleted("ORDER-2", "tx-3"),
      id: "WH-DENIED",
      event_type: "PAYMENT.CAPTURE.DENIED",
    });
    await expect(provider.verifyWebhook({ ...denied, url })).resolves.toMatchObject({ kind: "payment.failed", providerRef: "ORDER-2" });

    const other = signPaypalWebhook(state, { id: "WH-OTHER", event_type: "CUSTOMER.DISPUTE.CREATED", resource: {} });
    await expect(provider.verifyWebhook({ ...other, url })).resolves.toEqual({
      eventId: "WH-OTHER",
      kind: "other",
      transactionId: null,
      providerRef: null,
    });
  });

  it("returns null when the signature does not match the body", async () => {
    const { headers } = signPaypalWebhook(state, captureCompleted("ORDER-1", "tx-1"));
    const forged = JSON.stringify(captureCompleted("ORDER-1", "tx-someone-else"));
    await expect(provider.verifyWebhook({ headers, rawBody: forged, url })).resolves.toBeNull();
  });

  it("returns null when the delivery was signed for another webhook", async () => {
    const delivery = signPaypalWebhook(state, captureCompleted("ORDER-1", "tx-1"), { webhookId: "WH-SOMEONE-ELSE" });
    await expect(provider.verifyWebhook({ ...delivery, url })).resolves.toBeNull();
  });

  it("returns null without asking PayPal when a header is missing", async () => {
    const { rawBody, headers } = signPaypalWebhook(state, captureCompleted("ORDER-1", "tx-1"));
    const { ["paypal-transmission-sig"]: _dropped, ...rest } = headers;
    await expect(provider.verifyWebhook({ headers: rest, rawBody, url })).resolves.toBeNull();
    expect(state.verifyRequests).toHaveLength(0);
  });

  it("accepts headers in any case", async () => {
    const { rawBody, headers } = signPaypalWebhook(state, captureCompleted("ORDER-1", "tx-1"));
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    await expect(provider.verifyWebhook({ headers: upper, rawBody, url })).resolves.toMatchObject({ transactionId: "tx-1" });
  });

  it("returns null for an unparsable body", async () => {
    const { headers } = signPaypalWebhook(state, captureCompleted("ORDER-1", "tx-1"));
    await expect(provider.verifyWebhook({ headers, rawBody: "{not json", url })).resolves.toBeNull();
    await expect(provider.verifyWebhook({ headers, rawBody: "[1,2]", url })).resolves.toBeNull();
    expect(state.verifyRequests).toHaveLength(0);
  });

  it("returns null (never throws) when PayPal cannot be reached", async () => {
    const delivery = signPaypalWebhook(state, captureCompleted("ORDER-1", "tx-1"));
    server.use(http.post(`${state.apiBase}/v1/notifications/verify-webhook-signature`, () => HttpResponse.error()));
    await expect(provider.verifyWebhook({ ...delivery, url })).resolves.toBeNull();
  });

  it("returns null when PayPal rejects the verification call", async () => {
    const delivery = signPaypalWebhook(state, captureCompleted("ORDER-1", "tx-1"));
    provider = createPaypalProvider({ clientId: "x", clientSecret: "y", webhookId: state.webhookId, apiBase: state.apiBase });
    await expect(provider.verifyWebhook({ ...delivery, url })).resolves.toBeNull();
  });
});
