// @vitest-environment node
/**
 * A payment is paid only when the provider says how much: a provider answer with no amount, or one
 * that cannot be read exactly ("1,00"), or no currency, is not a payment, for every adapter.
 */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAllpayProvider } from "#api/payments/allpay";
import { capturedOrNot } from "#api/payments/money";
import { createPaypalProvider } from "#api/payments/paypal";
import { createRapydProvider } from "#api/payments/rapyd";
import { allpayHandlers, createAllpayMockState, setAllpayStatus } from "#tests/mocks/allpay";
import { approvePaypalOrder, createPaypalMockState, paypalHandlers } from "#tests/mocks/paypal";
import { createRapydMockState, rapydHandlers, setRapydPayment } from "#tests/mocks/rapyd";
import type { CreatePaymentInput } from "#api/payments/types";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const input: CreatePaymentInput = {
  saleId: "sale_1",
  transactionId: "8d7e1c52-0f6a-4e1b-9a43-3c1b2f6f1a10",
  amountCents: 1250,
  currency: "EUR",
  description: "Cena para dos",
  email: "ana@example.es",
  fullName: "Ana García",
  returnUrl: "https://ofertas.test/order/success?transaction_id=8d7e1c52-0f6a-4e1b-9a43-3c1b2f6f1a10",
  cancelUrl: "https://ofertas.test/order/cancel",
  webhookUrl: "https://ofertas.test/api/v0/x/webhook/",
};
const asked = (providerRef: string) => ({ providerRef, transactionId: input.transactionId, amountCents: 1250, currency: "EUR" });

// [amount, currency] pairs a provider might send that are not a readable payment.
const UNREADABLE: [unknown, unknown][] = [
  [undefined, "EUR"],
  [null, "EUR"],
  ["1,00", "EUR"],
  ["", "EUR"],
  ["12.345", "EUR"],
  ["abc", "EUR"],
  [{}, "EUR"],
  ["12.50", undefined],
  ["12.50", ""],
  ["12.50", "€"],
  ["-12.50", "EUR"],
];

describe("capturedOrNot (the one rule every adapter uses)", () => {
  const fallback = { amountCents: 1250, currency: "EUR", providerRef: "ref" };
  it.each(UNREADABLE)("amount %j, currency %j → pending with a reason", (amount, currency) => {
    const state = capturedOrNot("rapyd", amount, currency, fallback);
    expect(state.status).toBe("pending");
    expect(state.unreadable).toMatch(/sin un importe y una moneda legibles/);
  });
  it("a readable amount is captured with the provider's own figures", () => {
    expect(capturedOrNot("paypal", "9.90", "eur", fallback)).toEqual({
      status: "captured",
      amountCents: 990,
      currency: "EUR",
      providerRef: "ref",
    });
    expect(capturedOrNot("rapyd", 12.5, "EUR", fallback)).toMatchObject({ status: "captured", amountCents: 1250 });
  });
});

describe("Rapyd: a closed payment without a readable amount is not paid", () => {
  it.each(UNREADABLE)("amount %j, currency %j", async (amount, currency) => {
    const state = createRapydMockState();
    server.use(...rapydHandlers(state));
    const provider = createRapydProvider({ accessKey: state.accessKey, secretKey: state.secretKey, apiBase: state.apiBase });
    const { providerRef } = await provider.createPayment(input);
    setRapydPayment(state, providerRef, "CLO");
    const payment = state.checkouts.get(providerRef)!.payment! as unknown as Record<string, unknown>;
    payment.amount = amount;
    payment.currency_code = currency;
    const result = await provider.capturePayment(asked(providerRef));
    expect(result.status).toBe("pending");
    expect(result.unreadable).toBeTruthy();
  });
});

describe("Allpay: status 1 without a readable amount is not paid", () => {
  it.each(UNREADABLE)("amount %j, currency %j", async (amount, currency) => {
    const state = createAllpayMockState();
    server.use(
      http.post(state.apiBase, ({ request }) =>
        new URL(request.url).searchParams.get("show") === "paymentstatus"
          ? HttpResponse.json({ status: 1, amount, currency } as Record<string, unknown>)
          : undefined,
      ),
      ...allpayHandlers(state),
    );
    const provider = createAllpayProvider({ login: state.login, apiKey: state.apiKey, apiBase: state.apiBase });
    const { providerRef } = await provider.createPayment(input);
    setAllpayStatus(state, providerRef, 1);
    const result = await provider.capturePayment(asked(providerRef));
    expect(result.status).toBe("pending");
    expect(result.unreadable).toBeTruthy();
  });
});

describe("PayPal: a completed capture without a readable amount is not paid", () => {
  it.each(UNREADABLE)("amount %j, currency %j", async (value, currencyCode) => {
    const state = createPaypalMockState();
    server.use(
      http.post(`${state.apiBase}/v2/checkout/orders/:id/capture`, ({ params }) =>
        HttpResponse.json({
          id: params.id,
          status: "COMPLETED",
          purchase_units: [
            {
              amount: { value: "12.50", currency_code: "EUR" },
              payments: { captures: [{ id: "CAP1", status: "COMPLETED", amount: { value, currency_code: currencyCode } }] },
            },
          ],
        } as Record<string, unknown>),
      ),
      ...paypalHandlers(state),
    );
    const provider = createPaypalProvider({
      clientId: state.clientId,
      clientSecret: state.clientSecret,
      webhookId: state.webhookId,
      apiBase: state.apiBase,
    });
    const created = await provider.createPayment(input);
    approvePaypalOrder(state, created.providerRef);
    const result = await provider.capturePayment(asked(created.providerRef));
    expect(result.status).toBe("pending");
    expect(result.unreadable).toBeTruthy();
  });
});
