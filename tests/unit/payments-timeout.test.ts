// @vitest-environment node
/**
 * Every adapter's calls have a deadline (PAYMENT_TIMEOUT_MS): a provider that never answers is
 * abandoned after it with a typed error, which the sale service tells from a refusal.
 */
import { delay, http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAllpayProvider } from "#api/payments/allpay";
import { createPaypalProvider } from "#api/payments/paypal";
import { createRapydProvider } from "#api/payments/rapyd";
import { PaymentProviderUnreachable, type PaymentProvider } from "#api/payments/types";
import { allpayHandlers, createAllpayMockState } from "#tests/mocks/allpay";
import { createPaypalMockState, paypalHandlers } from "#tests/mocks/paypal";
import { createRapydMockState, rapydHandlers } from "#tests/mocks/rapyd";
import { paymentInput } from "#tests/support/payment-input";

const TIMEOUT_MS = 200;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const never = () => new Promise<never>(() => {});

/** Each adapter against its msw stand-in, with the call that opens a payment never answered. */
const adapters: { name: string; setUp: () => PaymentProvider }[] = [
  {
    name: "PayPal",
    setUp: () => {
      const state = createPaypalMockState();
      server.use(http.post(`${state.apiBase}/v2/checkout/orders`, never), ...paypalHandlers(state));
      const { clientId, clientSecret, webhookId, apiBase } = state;
      return createPaypalProvider({ clientId, clientSecret, webhookId, apiBase, timeoutMs: TIMEOUT_MS });
    },
  },
  {
    name: "Rapyd",
    setUp: () => {
      const state = createRapydMockState();
      server.use(http.post(`${state.apiBase}/v1/checkout`, never), ...rapydHandlers(state));
      return createRapydProvider({ accessKey: state.accessKey, secretKey: state.secretKey, apiBase: state.apiBase, timeoutMs: TIMEOUT_MS });
    },
  },
  {
    name: "Allpay",
    setUp: () => {
      const state = createAllpayMockState();
      server.use(http.post(state.apiBase, never), ...allpayHandlers(state));
      return createAllpayProvider({ login: state.login, apiKey: state.apiKey, apiBase: state.apiBase, timeoutMs: TIMEOUT_MS });
    },
  },
];

describe.each(adapters)("$name that never answers", ({ name, setUp }) => {
  it("is abandoned after the timeout with a PaymentProviderUnreachable", async () => {
    const provider = setUp();
    const started = Date.now();
    const error = await provider.createPayment(paymentInput("https://ofertas.test/api/v0/webhooks/provider")).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(PaymentProviderUnreachable);
    expect((error as PaymentProviderUnreachable).reason).toBe("timeout");
    expect((error as Error).message).toBe(`${name} no ha respondido en ${TIMEOUT_MS} ms.`);
  });
});

describe("PayPal, whose payment is two calls (its token, then the order)", () => {
  it("has one deadline for both: a slow token leaves the order call only what remains", async () => {
    const state = createPaypalMockState();
    server.use(
      http.post(`${state.apiBase}/v1/oauth2/token`, async () => {
        await delay(TIMEOUT_MS * 0.75);
        return HttpResponse.json({ access_token: "token-lento", expires_in: 3600 });
      }),
      http.post(`${state.apiBase}/v2/checkout/orders`, never),
    );
    const { clientId, clientSecret, webhookId, apiBase } = state;
    const provider = createPaypalProvider({ clientId, clientSecret, webhookId, apiBase, timeoutMs: TIMEOUT_MS });
    const started = Date.now();
    const error = await provider.createPayment(paymentInput("https://ofertas.test/api/v0/webhooks/provider")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentProviderUnreachable);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 1.5);
  });
});
