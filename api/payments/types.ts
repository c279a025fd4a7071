/**
 * One interface for every payment provider. The sale service only talks to this; adapters speak
 * their provider's real HTTP API. Amounts are whole cents, currency ISO 4217 ("EUR").
 */
import type { PaymentFlow, PaymentProviderName } from "#rules/payments";

export { PAYMENT_PROVIDERS, type PaymentFlow, type PaymentProviderName } from "#rules/payments";

export type CreatePaymentInput = {
  saleId: string;
  /** Our own transaction id (uuid); also in returnUrl as ?transaction_id=… */
  transactionId: string;
  amountCents: number;
  currency: string;
  description: string;
  email: string;
  fullName?: string;
  /** Absolute URL of /order/success?transaction_id=… */
  returnUrl: string;
  /** Absolute URL the buyer lands on when they cancel. */
  cancelUrl: string;
  /** Absolute URL of this provider's webhook under /api/v0. */
  webhookUrl: string;
};

export type CreatePaymentResult = {
  flow: PaymentFlow;
  /** Where the buyer's browser goes to pay. */
  redirectUrl: string;
  /** The provider's id for this payment (PayPal order id, Rapyd checkout id, …). */
  providerRef: string;
};

export type PaymentState = {
  /**
   * captured: money taken; approved: buyer approved, not yet captured; pending: nothing yet.
   * "captured" is only ever reported with the amount and currency the provider itself stated;
   * when it states none, or one that cannot be read exactly, the adapter answers "pending" with
   * `unreadable` saying why (see capturedOrNot in money.ts): an unknown amount is never a payment.
   */
  status: "captured" | "approved" | "pending" | "declined";
  amountCents: number;
  currency: string;
  providerRef: string;
  /** Why a payment the provider calls done is not taken as paid (logged by the sale service). */
  unreadable?: string;
};

export type WebhookEvent = {
  /** The provider's event id, used to make redelivery a no-op. */
  eventId: string;
  kind: "payment.completed" | "payment.failed" | "other";
  /** Our transaction id when the provider echoes it back, else null. */
  transactionId: string | null;
  providerRef: string | null;
};

export type WebhookRequest = {
  headers: Record<string, string | undefined>;
  rawBody: string;
  /** Absolute URL the webhook was delivered to (Rapyd signs it). */
  url: string;
};

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  readonly flow: PaymentFlow;
  createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult>;
  /**
   * Asks the provider for the payment's state and captures it when it is approved but not yet
   * captured. Must be safe to call any number of times for the same payment.
   */
  capturePayment(payment: { providerRef: string; transactionId: string; amountCents: number; currency: string }): Promise<PaymentState>;
  /** The event, or null when the signature is missing or wrong. Never throws on bad input. */
  verifyWebhook(request: WebhookRequest): Promise<WebhookEvent | null>;
}

export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly provider: PaymentProviderName,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * The provider did not answer in time ("timeout") or could not be reached ("network"): nothing it
 * said was read, so a payment it may have opened is unknown to us.
 */
export class PaymentProviderUnreachable extends PaymentProviderError {
  constructor(
    message: string,
    provider: PaymentProviderName,
    readonly reason: "timeout" | "network",
  ) {
    super(message, provider);
  }
}
