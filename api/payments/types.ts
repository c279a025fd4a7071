/**
 * One interface for every payment provider. The sale service only talks to this; adapters speak
 * their provider's real HTTP API. Amounts are whole cents, currency ISO 4217 ("EUR").
 */
import type { PaymentFlow, PaymentMethod, PaymentProviderName } from "#rules/payments";

export { PAYMENT_PROVIDERS, type PaymentFlow, type PaymentMethod, type PaymentProviderName } from "#rules/payments";

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
  /** The way of paying the buyer chose, one of the provider's `methods`; absent: its default. */
  paymentMethod?: PaymentMethod;
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
  /**
   * payment.completed: the event itself says the money is taken (a Redsys authorisation is a
   * charge), not only approved. A sale released meanwhile is then taken like a lapsed reservation
   * (tickets again if left, else owed back), never turned away with the buyer's money kept.
   */
  settled?: boolean;
  /** payment.failed: how the sale ends (default "declined"). */
  failure?: "declined" | "cancelled";
};

/** Money to give back on a captured payment. */
export type RefundInput = {
  providerRef: string;
  transactionId: string;
  /** Whole cents, at most what was captured less what was already given back; null: all of it. */
  amountCents: number | null;
  currency: string;
};

/** refunded: the provider gave the money back; refused: it said no, and why (its own words or code). */
export type RefundResult = { status: "refunded"; amountCents: number } | { status: "refused"; reason: string };

export type WebhookRequest = {
  headers: Record<string, string | undefined>;
  rawBody: string;
  /** Absolute URL the webhook was delivered to (Rapyd signs it). */
  url: string;
};

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  readonly flow: PaymentFlow;
  /** The ways of paying the buyer may choose between at checkout; none: the provider's page chooses. */
  readonly methods?: readonly PaymentMethod[];
  createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult>;
  /**
   * Asks the provider for the payment's state and captures it when it is approved but not yet
   * captured. Must be safe to call any number of times for the same payment.
   */
  capturePayment(payment: { providerRef: string; transactionId: string; amountCents: number; currency: string }): Promise<PaymentState>;
  /** The event, or null when the signature is missing or wrong. Never throws on bad input. */
  verifyWebhook(request: WebhookRequest): Promise<WebhookEvent | null>;
  /**
   * Gives money back through the provider. Absent: the provider's own panel does it by hand.
   * Throws PaymentProviderUnreachable when the provider's answer was not read (the outcome is then
   * unknown), PaymentProviderError when the answer made no sense.
   */
  refundPayment?(refund: RefundInput): Promise<RefundResult>;
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
