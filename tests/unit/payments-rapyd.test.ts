// @vitest-environment node
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRapydProvider } from "#api/payments/rapyd";
import { PaymentProviderError, type CreatePaymentInput, type PaymentProvider } from "#api/payments/types";
import { paymentInput } from "#tests/support/payment-input";
import {
  createRapydMockState,
  rapydHandlers,
  rapydSignature,
  setRapydPayment,
  signRapydWebhook,
  type RapydMockState,
} from "#tests/mocks/rapyd";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const NOW = Date.UTC(2025, 2, 1, 10, 0, 0);
const WEBHOOK_URL = "https://ofertas.test/api/v0/webhooks/rapyd";

let state: RapydMockState;
let clock: number;
let provider: PaymentProvider;

beforeEach(() => {
  clock = NOW;
  state = createRapydMockState({ now: () => clock });
  server.use(...rapydHandlers(state));
  provider = createRapydProvider({
    accessKey: state.accessKey,
    secretKey: state.secretKey,
    apiBase: state.apiBase,
    now: () => clock,
  });
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

describe("Rapyd signature (mock reference)", () => {
  it("matches a vector computed outside JavaScript: base64 of the hex HMAC-SHA256", () => {
    // python3: base64.b64encode(hmac.new(b"rsk_secret", b"post/v1/checkoutabcdefgh121700000000rak_accessrsk_secret{\"amount\":12.5}", sha256).hexdigest().encode())
    expect(
      rapydSignature({
        method: "post",
        path: "/v1/checkout",
        salt: "abcdefgh12",
        timestamp: "1700000000",
        accessKey: "rak_access",
        secretKey: "rsk_secret",
        body: '{"amount":12.5}',
      }),
    ).toBe("NmJlYWI0MGRjMDEwZjkyZTI4MjZkOTljZGI0Yzc5N2IzNTJkM2VkZmM3Zjg1NmFmZTM4YTJhOGZmZmM3ZjlhMQ==");
  });
});

describe("Rapyd createPayment", () => {
  it("creates a signed checkout page and returns its redirect_url", async () => {
    const payment = input();
    const result = await provider.createPayment(payment);

    expect(provider.name).toBe("rapyd");
    expect(provider.flow).toBe("hosted");
    const checkout = state.checkouts.get(result.providerRef)!;
    expect(result).toEqual({ flow: "hosted", redirectUrl: checkout.redirectUrl, providerRef: checkout.id });
    expect(checkout.body).toEqual({
      amount: 12.5,
      currency: "EUR",
      country: "ES",
      language: "es",
      description: "Cena para dos en La Bodega",
      merchant_reference_id: payment.transactionId,
      complete_checkout_url: payment.returnUrl,
      cancel_checkout_url: payment.cancelUrl,
      metadata: { sale_id: "sale_123" },
    });

    // The mock recomputed the signature from the docs and accepted it.
    const request = state.requests[0];
    expect(request.rejected).toBeNull();
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/checkout");
    expect(request.headers.access_key).toBe(state.accessKey);
    expect(request.headers.salt).toMatch(/^[A-Za-z0-9]{8,16}$/);
    expect(request.headers.timestamp).toBe(String(NOW / 1000));
    expect(request.headers.idempotency).toBe(payment.transactionId);
    expect(request.headers["content-type"]).toBe("application/json");
  });

  it("uses a fresh salt for every request", async () => {
    await provider.createPayment(input());
    await provider.createPayment(input({ transactionId: "another" }));
    expect(state.requests[0].headers.salt).not.toBe(state.requests[1].headers.salt);
  });

  it("is idempotent per transaction", async () => {
    const first = await provider.createPayment(input());
    const second = await provider.createPayment(input());
    expect(second.providerRef).toBe(first.providerRef);
    expect(state.checkouts.size).toBe(1);
  });

  it.each([
    [1250, 12.5, '"amount":12.5,'],
    [1, 0.01, '"amount":0.01,'],
    [1000, 10, '"amount":10,'],
    [1999, 19.99, '"amount":19.99,'],
    [110, 1.1, '"amount":1.1,'],
    [123456789, 1234567.89, '"amount":1234567.89,'],
  ])("sends %i cents as the number %d", async (amountCents, amount, text) => {
    const result = await provider.createPayment(input({ amountCents }));
    expect(state.checkouts.get(result.providerRef)!.body.amount).toBe(amount);
    expect(state.requests[0].body).toContain(text);
  });

  it("throws a Spanish PaymentProviderError when Rapyd rejects the signature", async () => {
    provider = createRapydProvider({ accessKey: state.accessKey, secretKey: "rsk_wrong", apiBase: state.apiBase, now: () => clock });
    const error = await provider.createPayment(input()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect((error as PaymentProviderError).provider).toBe("rapyd");
    expect((error as PaymentProviderError).status).toBe(401);
    expect((error as Error).message).toBe("Rapyd no pudo crear el pago (UNAUTHENTICATED_API_CALL).");
    expect(state.requests[0].rejected).toBe("signature");
  });

  it("is rejected by the mock when the clock is off by more than a minute", async () => {
    provider = createRapydProvider({
      accessKey: state.accessKey,
      secretKey: state.secretKey,
      apiBase: state.apiBase,
      now: () => clock - 120_000,
    });
    await expect(provider.createPayment(input())).rejects.toBeInstanceOf(PaymentProviderError);
    expect(state.requests[0].rejected).toBe("timestamp");
  });

  it("throws a PaymentProviderError when Rapyd cannot be reached", async () => {
    server.use(http.post(`${state.apiBase}/v1/checkout`, () => HttpResponse.error()));
    await expect(provider.createPayment(input())).rejects.toThrow(/No se pudo conectar con Rapyd/);
  });
});

describe("Rapyd capturePayment", () => {
  it("is captured when the checkout's payment is closed (CLO), with Rapyd's amount", async () => {
    const { providerRef } = await provider.createPayment(input({ amountCents: 1999 }));
    setRapydPayment(state, providerRef, "CLO");
    await expect(capture(providerRef, input({ amountCents: 1999 }))).resolves.toEqual({
      status: "captured",
      amountCents: 1999,
      currency: "EUR",
      providerRef,
    });
    const request = state.requests.at(-1)!;
    expect(request.method).toBe("GET");
    expect(request.path).toBe(`/v1/checkout/${providerRef}`);
    expect(request.body).toBe("");
    expect(request.rejected).toBeNull();
  });

  it("is pending before any payment and while it is active", async () => {
    const { providerRef } = await provider.createPayment(input());
    await expect(capture(providerRef)).resolves.toEqual({ status: "pending", amountCents: 1250, currency: "EUR", providerRef });
    setRapydPayment(state, providerRef, "ACT");
    await expect(capture(providerRef)).resolves.toMatchObject({ status: "pending" });
  });

  it.each(["CAN", "ERR", "EXP"] as const)("is declined when the payment is %s", async (status) => {
    const { providerRef } = await provider.createPayment(input());
    setRapydPayment(state, providerRef, status);
    await expect(capture(providerRef)).resolves.toMatchObject({ status: "declined", providerRef });
  });

  it("is safe to call repeatedly", async () => {
    const { providerRef } = await provider.createPayment(input());
    setRapydPayment(state, providerRef, "CLO");
    const states = await Promise.all([capture(providerRef), capture(providerRef), capture(providerRef)]);
    expect(states.map((s) => s.status)).toEqual(["captured", "captured", "captured"]);
    // Only reads: no second checkout, no payment created by us.
    expect(state.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("converts Rapyd's decimal amounts without float drift", async () => {
    const { providerRef } = await provider.createPayment(input({ amountCents: 29 }));
    // 0.29 * 100 is 28.999999999999996 in floating point; the conversion must still give 29.
    setRapydPayment(state, providerRef, "CLO", 0.29);
    await expect(capture(providerRef, input({ amountCents: 29 }))).resolves.toMatchObject({ amountCents: 29 });
    setRapydPayment(state, providerRef, "CLO", 1234567.89);
    await expect(capture(providerRef)).resolves.toMatchObject({ amountCents: 123456789 });
  });

  it("throws a PaymentProviderError for an unknown checkout", async () => {
    const error = await capture("checkout_missing").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect((error as PaymentProviderError).status).toBe(404);
    expect((error as Error).message).toMatch(/Rapyd no pudo consultar el pago/);
  });
});

describe("Rapyd verifyWebhook", () => {
  function paymentEvent(type: string, overrides: Record<string, unknown> = {}) {
    return {
      id: "wh_0d6cd4b41a4bd1c2ac8a4a8f1a9e5c3f",
      type,
      data: {
        id: "payment_3d157f3424f1aeca3608153ae4d243fe",
        amount: 12.5,
        currency_code: "EUR",
        status: type === "PAYMENT_COMPLETED" ? "CLO" : "ERR",
        merchant_reference_id: "tx-1",
        ...overrides,
      },
      trigger_operation_id: "0f0ab0a4-cbd4-4e1a-9a7a-0b1a3f6d1e11",
      status: "NEW",
      created_at: NOW / 1000,
    };
  }

  it("returns the event for a correctly signed delivery", async () => {
    const delivery = signRapydWebhook(state, {
      url: WEBHOOK_URL,
      body: paymentEvent("PAYMENT_COMPLETED", { checkout_id: "checkout_abc" }),
    });
    await expect(provider.verifyWebhook({ ...delivery, url: WEBHOOK_URL })).resolves.toEqual({
      eventId: "wh_0d6cd4b41a4bd1c2ac8a4a8f1a9e5c3f",
      kind: "payment.completed",
      transactionId: "tx-1",
      providerRef: "checkout_abc",
    });
  });

  it("falls back to the payment id when the event has no checkout id", async () => {
    const delivery = signRapydWebhook(state, { url: WEBHOOK_URL, body: paymentEvent("PAYMENT_COMPLETED") });
    await expect(provider.verifyWebhook({ ...delivery, url: WEBHOOK_URL })).resolves.toMatchObject({
      providerRef: "payment_3d157f3424f1aeca3608153ae4d243fe",
    });
  });

  it.each([
    ["PAYMENT_FAILED", "payment.failed"],
    ["PAYMENT_EXPIRED", "payment.failed"],
    ["PAYMENT_CANCELED", "payment.failed"],
    ["PAYMENT_UPDATED", "other"],
  ])("maps %s to %s", async (type, kind) => {
    const delivery = signRapydWebhook(state, { url: WEBHOOK_URL, body: paymentEvent(type) });
    await expect(provider.verifyWebhook({ ...delivery, url: WEBHOOK_URL })).resolves.toMatchObject({ kind });
  });

  it("returns null when the signature is wrong or the body was changed", async () => {
    const delivery = signRapydWebhook(state, { url: WEBHOOK_URL, body: paymentEvent("PAYMENT_COMPLETED") });
    const tampered = delivery.rawBody.replace('"tx-1"', '"tx-2"');
    await expect(provider.verifyWebhook({ headers: delivery.headers, rawBody: tampered, url: WEBHOOK_URL })).resolves.toBeNull();
    await expect(
      provider.verifyWebhook({ headers: { ...delivery.headers, signature: "bm9wZQ==" }, rawBody: delivery.rawBody, url: WEBHOOK_URL }),
    ).resolves.toBeNull();
  });

  it("returns null when the delivery was signed for another URL", async () => {
    const delivery = signRapydWebhook(state, { url: "https://elsewhere.test/hook", body: paymentEvent("PAYMENT_COMPLETED") });
    await expect(provider.verifyWebhook({ ...delivery, url: WEBHOOK_URL })).resolves.toBeNull();
  });

  it("returns null when a header is missing", async () => {
    const delivery = signRapydWebhook(state, { url: WEBHOOK_URL, body: paymentEvent("PAYMENT_COMPLETED") });
    for (const name of ["salt", "timestamp", "signature"]) {
      const headers = { ...delivery.headers };
      delete headers[name];
      await expect(provider.verifyWebhook({ headers, rawBody: delivery.rawBody, url: WEBHOOK_URL })).resolves.toBeNull();
    }
  });

  it("rejects a replay: a valid signature with a timestamp more than 5 minutes old", async () => {
    const old = signRapydWebhook(state, { url: WEBHOOK_URL, body: paymentEvent("PAYMENT_COMPLETED"), timestamp: NOW / 1000 - 301 });
    await expect(provider.verifyWebhook({ ...old, url: WEBHOOK_URL })).resolves.toBeNull();

    const future = signRapydWebhook(state, { url: WEBHOOK_URL, body: paymentEvent("PAYMENT_COMPLETED"), timestamp: NOW / 1000 + 301 });
    await expect(provider.verifyWebhook({ ...future, url: WEBHOOK_URL })).resolves.toBeNull();

    const recent = signRapydWebhook(state, { url: WEBHOOK_URL, body: paymentEvent("PAYMENT_COMPLETED"), timestamp: NOW / 1000 - 299 });
    await expect(provider.verifyWebhook({ ...recent, url: WEBHOOK_URL })).resolves.not.toBeNull();

    // The same delivery accepted now is refused once the clock has moved on.
    const delivery = signRapydWebhook(state, { url: WEBHOOK_URL, body: paymentEvent("PAYMENT_COMPLETED") });
    await expect(provider.verifyWebhook({ ...delivery, url: WEBHOOK_URL })).resolves.not.toBeNull();
    clock += 6 * 60_000;
    await expect(provider.verifyWebhook({ ...delivery, url: WEBHOOK_URL })).resolves.toBeNull();
  });

  it("returns null for an unparsable (but signed) body", async () => {
    const delivery = signRapydWebhook(state, { url: WEBHOOK_URL, body: "{not json" });
    await expect(provider.verifyWebhook({ ...delivery, url: WEBHOOK_URL })).resolves.toBeNull();
    const noId = signRapydWebhook(state, { url: WEBHOOK_URL, body: { type: "PAYMENT_COMPLETED", data: {} } });
    await expect(provider.verifyWebhook({ ...noId, url: WEBHOOK_URL })).resolves.toBeNull();
  });
});
