// @vitest-environment node
import { createHash } from "node:crypto";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAllpayProvider } from "#api/payments/allpay";
import { PaymentProviderError, type CreatePaymentInput, type PaymentProvider } from "#api/payments/types";
import { paymentInput } from "#tests/support/payment-input";
import {
  allpayHandlers,
  allpayNotification,
  allpayReferenceSignature,
  createAllpayMockState,
  setAllpayStatus,
  type AllpayMockState,
} from "#tests/mocks/allpay";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const WEBHOOK_URL = "https://ofertas.test/api/v0/webhooks/allpay";

let state: AllpayMockState;
let provider: PaymentProvider;

beforeEach(() => {
  state = createAllpayMockState();
  server.use(...allpayHandlers(state));
  provider = createAllpayProvider({ login: state.login, apiKey: state.apiKey, apiBase: state.apiBase });
});

const input = (overrides: Partial<CreatePaymentInput> = {}) => paymentInput(WEBHOOK_URL, overrides);

function capture(providerRef: string, payment = input()) {
  return provider.capturePayment({
    providerRef,
    transactionId: payment.transactionId,
    amountCents: payment.amountCents,
    currency: payment.currency,
  });
}

describe("Allpay signature (mock reference)", () => {
  it("matches the documented algorithm on a worked example", () => {
    // Sorted keys: amount, currency, items (each item's keys sorted: name, price, qty), login, order_id.
    // Empty values and `sign` are skipped.
    const params = {
      login: "pp1",
      order_id: "42",
      currency: "EUR",
      amount: "",
      items: [{ qty: 1, price: "12.50", name: "Cena" }],
      sign: "ignored",
    };
    const expected = createHash("sha256").update("EUR:Cena:12.50:1:pp1:42:KEY").digest("hex");
    expect(allpayReferenceSignature(params, "KEY")).toBe(expected);
  });
});

describe("Allpay createPayment", () => {
  it("posts a signed getpayment request (api10) and returns payment_url", async () => {
    const payment = input();
    const result = await provider.createPayment(payment);

    expect(provider.name).toBe("allpay");
    expect(provider.flow).toBe("hosted");
    const created = state.payments.get(payment.transactionId)!;
    expect(result).toEqual({ flow: "hosted", redirectUrl: created.paymentUrl, providerRef: payment.transactionId });

    const request = state.requests[0];
    expect(request).toMatchObject({ show: "getpayment", mode: "api10", rejected: null });
    const { sign, ...params } = created.request;
    expect(params).toEqual({
      login: state.login,
      order_id: payment.transactionId,
      items: [{ name: "Cena para dos en La Bodega", qty: 1, price: "12.50", vat: 0 }],
      currency: "EUR",
      lang: "ES",
      webhook_url: WEBHOOK_URL,
      success_url: payment.returnUrl,
      backlink_url: payment.cancelUrl,
      client_email: "ana@example.es",
      client_name: "Ana García",
      add_field_1: "sale_123",
    });
    expect(sign).toBe(allpayReferenceSignature(params, state.apiKey));
  });

  it("leaves client_name out when there is no name", async () => {
    await provider.createPayment(input({ fullName: undefined }));
    expect(state.requests[0].rejected).toBeNull();
    expect(state.payments.get(input().transactionId)!.request).not.toHaveProperty("client_name");
  });

  it.each([
    [1250, "12.50"],
    [1, "0.01"],
    [10, "0.10"],
    [1999, "19.99"],
    [100000, "1000.00"],
  ])("sends %i cents as price %s", async (amountCents, price) => {
    await provider.createPayment(input({ amountCents }));
    expect(state.payments.get(input().transactionId)!.request.items[0].price).toBe(price);
  });

  it("throws a Spanish PaymentProviderError when Allpay rejects the signature", async () => {
    provider = createAllpayProvider({ login: state.login, apiKey: "wrong-key", apiBase: state.apiBase });
    const error = await provider.createPayment(input()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect((error as PaymentProviderError).provider).toBe("allpay");
    expect((error as Error).message).toBe("Allpay no pudo crear el pago (Wrong signature).");
    expect(state.requests[0].rejected).toBe("sign");
  });

  it("throws a PaymentProviderError on an HTTP failure", async () => {
    state.failNextWithStatus = 502;
    const error = await provider.createPayment(input()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect((error as PaymentProviderError).status).toBe(502);
  });

  it("throws a PaymentProviderError when Allpay cannot be reached", async () => {
    server.use(http.post(state.apiBase, () => HttpResponse.error()));
    await expect(provider.createPayment(input())).rejects.toThrow(/No se pudo conectar con Allpay/);
  });
});

describe("Allpay capturePayment", () => {
  it("is captured when paymentstatus says 1, with Allpay's amount", async () => {
    const { providerRef } = await provider.createPayment(input({ amountCents: 1999 }));
    setAllpayStatus(state, providerRef, 1);
    await expect(capture(providerRef, input({ amountCents: 1999 }))).resolves.toEqual({
      status: "captured",
      amountCents: 1999,
      currency: "EUR",
      providerRef,
    });
    const request = state.requests.at(-1)!;
    expect(request).toMatchObject({ show: "paymentstatus", mode: "api10", rejected: null });
    const body = JSON.parse(request.body);
    expect(Object.keys(body).sort()).toEqual(["login", "order_id", "sign"]);
    expect(body.order_id).toBe(providerRef);
  });

  it("is pending while the status is 0", async () => {
    const { providerRef } = await provider.createPayment(input());
    await expect(capture(providerRef)).resolves.toEqual({ status: "pending", amountCents: 1250, currency: "EUR", providerRef });
  });

  it.each([3, 4, 7])("is declined for status %i", async (status) => {
    const { providerRef } = await provider.createPayment(input());
    setAllpayStatus(state, providerRef, status);
    await expect(capture(providerRef)).resolves.toMatchObject({ status: "declined", providerRef });
  });

  it("is safe to call repeatedly", async () => {
    const { providerRef } = await provider.createPayment(input());
    setAllpayStatus(state, providerRef, 1);
    const states = await Promise.all([capture(providerRef), capture(providerRef)]);
    expect(states.map((s) => s.status)).toEqual(["captured", "captured"]);
    expect(state.requests.filter((r) => r.show === "getpayment")).toHaveLength(1);
  });

  it("throws a PaymentProviderError when Allpay does not know the order", async () => {
    const error = await capture("unknown-order").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect((error as Error).message).toMatch(/Allpay no pudo consultar el pago/);
  });

  it("throws a PaymentProviderError on an HTTP failure", async () => {
    const { providerRef } = await provider.createPayment(input());
    state.failNextWithStatus = 500;
    await expect(capture(providerRef)).rejects.toBeInstanceOf(PaymentProviderError);
  });
});

describe("Allpay verifyWebhook", () => {
  async function paidOrder() {
    const payment = input();
    await provider.createPayment(payment);
    return payment.transactionId;
  }

  it("returns the event for a correctly signed JSON notification", async () => {
    const orderId = await paidOrder();
    const delivery = allpayNotification(state, orderId, { status: 1 });
    await expect(provider.verifyWebhook({ ...delivery, url: WEBHOOK_URL })).resolves.toEqual({
      eventId: `allpay:${orderId}:1`,
      kind: "payment.completed",
      transactionId: orderId,
      providerRef: orderId,
    });
  });

  it("accepts the form-encoded notification (PHP-style items[0][name] keys)", async () => {
    const orderId = await paidOrder();
    const delivery = allpayNotification(state, orderId, { status: 1, format: "form" });
    expect(delivery.rawBody).toContain("items%5B0%5D%5Bname%5D=");
    await expect(provider.verifyWebhook({ ...delivery, url: WEBHOOK_URL })).resolves.toMatchObject({
      kind: "payment.completed",
      transactionId: orderId,
    });
  });

  it("treats a status other than 1 as informational", async () => {
    const orderId = await paidOrder();
    const delivery = allpayNotification(state, orderId, { status: 0 });
    await expect(provider.verifyWebhook({ ...delivery, url: WEBHOOK_URL })).resolves.toEqual({
      eventId: `allpay:${orderId}:0`,
      kind: "other",
      transactionId: orderId,
      providerRef: orderId,
    });
  });

  it("returns null for a bad signature or a changed field", async () => {
    const orderId = await paidOrder();
    const wrongKey = allpayNotification(state, orderId, { apiKey: "not-our-key" });
    await expect(provider.verifyWebhook({ ...wrongKey, url: WEBHOOK_URL })).resolves.toBeNull();

    const genuine = allpayNotification(state, orderId, { status: 0 });
    const tampered = genuine.rawBody.replace('"status":"0"', '"status":"1"');
    expect(tampered).not.toBe(genuine.rawBody);
    await expect(provider.verifyWebhook({ headers: genuine.headers, rawBody: tampered, url: WEBHOOK_URL })).resolves.toBeNull();

    const form = allpayNotification(state, orderId, { status: 1, format: "form" });
    const forgedAmount = form.rawBody.replace("amount=12.50", "amount=0.01");
    expect(forgedAmount).not.toBe(form.rawBody);
    await expect(provider.verifyWebhook({ headers: form.headers, rawBody: forgedAmount, url: WEBHOOK_URL })).resolves.toBeNull();
  });

  it("returns null when the sign is missing", async () => {
    const orderId = await paidOrder();
    const { params, headers } = allpayNotification(state, orderId);
    const { sign: _sign, ...unsigned } = params;
    await expect(provider.verifyWebhook({ headers, rawBody: JSON.stringify(unsigned), url: WEBHOOK_URL })).resolves.toBeNull();
  });

  it("returns null for an unparsable body", async () => {
    for (const rawBody of ["", "{not json", "[1,2]", "just text", "%%%"]) {
      await expect(
        provider.verifyWebhook({ headers: { "content-type": "application/json" }, rawBody, url: WEBHOOK_URL }),
      ).resolves.toBeNull();
    }
    await expect(provider.verifyWebhook({ headers: {}, rawBody: "__proto__[x]=1&sign=abc", url: WEBHOOK_URL })).resolves.toBeNull();
  });
});
