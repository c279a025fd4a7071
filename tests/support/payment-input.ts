import type { CreatePaymentInput } from "#api/payments/types";

/** What the sale service asks an adapter to open, as the adapters' unit tests send it. */
export function paymentInput(webhookUrl: string, overrides: Partial<CreatePaymentInput> = {}): CreatePaymentInput {
  return {
    saleId: "sale_123",
    transactionId: "8d7e1c52-0f6a-4e1b-9a43-3c1b2f6f1a10",
    amountCents: 1250,
    currency: "EUR",
    description: "Cena para dos en La Bodega",
    email: "ana@example.es",
    fullName: "Ana García",
    returnUrl: "https://ofertas.test/order/success?transaction_id=8d7e1c52-0f6a-4e1b-9a43-3c1b2f6f1a10",
    cancelUrl: "https://ofertas.test/order/cancel",
    webhookUrl,
    ...overrides,
  };
}
