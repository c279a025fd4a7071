/**
 * The money path's last step: a provider that does not say how much was paid has not been paid,
 * and a sale that owes a refund holds no tickets and is on the staff's list.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { PaymentProvider, PaymentState } from "#api/payments/types";
import { captureSale, refundRequiredSales } from "#api/services/sales";
import { startTestApi, type TestApi } from "#tests/support/api-server";
import { available, makeOption, newEmail, saleStatus, startSale } from "./_helpers";
import { logger } from "#platform/logger.server";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

/** The sandbox provider's name, answering whatever state the test sets. */
function providerSaying(state: Omit<PaymentState, "providerRef">): Map<string, PaymentProvider> {
  const fake: PaymentProvider = {
    name: "sandbox",
    flow: "hosted",
    createPayment: () => Promise.reject(new Error("not used")),
    capturePayment: async (p) => ({ ...state, providerRef: p.providerRef }),
    verifyWebhook: async () => null,
  };
  return new Map([["sandbox", fake]]);
}

describe("a payment without a readable amount", () => {
  it("leaves the sale pending with its tickets, answers 409 and logs why", async () => {
    const option = await makeOption(api, { available: 5 });
    const payment = await startSale(api, [{ option, quantity: 2 }], newEmail("sin-importe"));
    const warn = vi.spyOn(logger, "warn");
    try {
      const providers = providerSaying({
        status: "pending",
        amountCents: 0,
        currency: "EUR",
        unreadable: 'rapyd da el pago por hecho sin un importe y una moneda legibles (importe "1,00")',
      });
      await expect(captureSale(api.db, providers, payment.sale_id, payment.transaction_id)).rejects.toMatchObject({ status: 409 });
      expect(warn.mock.calls).toContainEqual([
        { saleId: payment.sale_id, reason: expect.stringContaining("rapyd da el pago por hecho") },
        "Venta sigue pendiente.",
      ]);
    } finally {
      warn.mockRestore();
    }
    expect(await saleStatus(api, payment.sale_id)).toBe("pending");
    expect(await available(api, option.uuid)).toBe(3);
  });
});

describe("refund_required", () => {
  it("a wrong amount owes a refund: the tickets go back on sale at once, and the sale is listed and logged", async () => {
    const option = await makeOption(api, { available: 5 });
    const email = newEmail("importe-distinto");
    const payment = await startSale(api, [{ option, quantity: 2 }], email);
    expect(await available(api, option.uuid)).toBe(3);
    const warn = vi.spyOn(logger, "warn");
    try {
      const providers = providerSaying({ status: "captured", amountCents: 100, currency: "EUR" });
      await expect(captureSale(api.db, providers, payment.sale_id, payment.transaction_id)).rejects.toMatchObject({ status: 409 });
      expect(warn.mock.calls).toContainEqual([{ saleId: payment.sale_id, reason: expect.any(String) }, "Reembolso pendiente."]);
    } finally {
      warn.mockRestore();
    }
    expect(await saleStatus(api, payment.sale_id)).toBe("refund_required");
    expect(await available(api, option.uuid)).toBe(5);
    const listed = await refundRequiredSales(api.db, { page: 1, pageSize: 100 });
    expect(listed.results.find((s) => s.sale_id === payment.sale_id)).toMatchObject({ email, currency: "EUR", provider: "sandbox" });
  });
});
