/** The mock PayPal's memory: its orders and tokens, and what a test does to an order behind our back. */
import { generateKeyPairSync, randomUUID, type KeyObject } from "node:crypto";
import type { JsonBodyType } from "msw";

export type PaypalOrderStatus = "CREATED" | "SAVED" | "PAYER_ACTION_REQUIRED" | "APPROVED" | "VOIDED" | "COMPLETED";

export type PaypalMockCapture = {
  id: string;
  status: "COMPLETED" | "PENDING" | "DECLINED";
  amount: { currency_code: string; value: string };
  /** The PayPal-Request-Id the capture came with (null when captured outside our adapter). */
  requestId: string | null;
};

export type PaypalMockOrder = {
  id: string;
  status: PaypalOrderStatus;
  /** The create request exactly as received. */
  request: { headers: Record<string, string>; body: Record<string, unknown> };
  captures: PaypalMockCapture[];
  /** When set, the next capture attempt fails with this 422 issue (e.g. "INSTRUMENT_DECLINED"). */
  failNextCaptureWith?: string;
};

export type PaypalMockState = {
  apiBase: string;
  clientId: string;
  clientSecret: string;
  webhookId: string;
  /** Tokens handed out and still valid. Clear it to simulate expiry/revocation. */
  accessTokens: Set<string>;
  tokenExpiresIn: number;
  tokenRequests: number;
  orders: Map<string, PaypalMockOrder>;
  /** Successful responses keyed by `${operation}|${PayPal-Request-Id}`, replayed on a retry. */
  idempotent: Map<string, { status: number; body: JsonBodyType }>;
  /** Every POST …/capture that reached the mock (including replays and failures). */
  captureRequests: Array<{ orderId: string; requestId: string | null }>;
  verifyRequests: Array<Record<string, unknown>>;
  /** PayPal's signing key for webhook transmissions; tests sign with signPaypalWebhook. */
  keys: { privateKey: KeyObject; publicKey: KeyObject };
  certUrl: string;
};

export function createPaypalMockState(
  init: Partial<Pick<PaypalMockState, "apiBase" | "clientId" | "clientSecret" | "webhookId">> = {},
): PaypalMockState {
  const apiBase = (init.apiBase ?? "https://api-m.sandbox.paypal.com").replace(/\/+$/, "");
  return {
    apiBase,
    clientId: init.clientId ?? "client-id-test",
    clientSecret: init.clientSecret ?? "client-secret-test",
    webhookId: init.webhookId ?? "WH-TEST-1234567890",
    accessTokens: new Set(),
    tokenExpiresIn: 32_400,
    tokenRequests: 0,
    orders: new Map(),
    idempotent: new Map(),
    captureRequests: [],
    verifyRequests: [],
    keys: signingKeys(),
    certUrl: `${apiBase}/v1/notifications/certs/CERT-360caa42-fca2a594-test`,
  };
}

let cachedKeys: PaypalMockState["keys"] | null = null;
/** One RSA key pair per test run: generating one per test is slow and proves nothing more. */
function signingKeys(): PaypalMockState["keys"] {
  cachedKeys ??= generateKeyPairSync("rsa", { modulusLength: 2048 });
  return cachedKeys;
}

/** The buyer approved the order at PayPal. */
export function approvePaypalOrder(state: PaypalMockState, orderId: string): void {
  requireOrder(state, orderId).status = "APPROVED";
}

/** The order was captured by someone else (another request id, the dashboard…). */
export function capturePaypalOrderElsewhere(state: PaypalMockState, orderId: string): void {
  const order = requireOrder(state, orderId);
  order.captures.push({ id: newId("CAP"), status: "COMPLETED", amount: unitAmount(order), requestId: null });
  order.status = "COMPLETED";
}

export function capturedCount(state: PaypalMockState, orderId: string): number {
  return requireOrder(state, orderId).captures.filter((c) => c.status === "COMPLETED").length;
}

export function requireOrder(state: PaypalMockState, orderId: string): PaypalMockOrder {
  const order = state.orders.get(orderId);
  if (!order) throw new Error(`No PayPal mock order ${orderId}`);
  return order;
}

export function unitAmount(order: PaypalMockOrder): { currency_code: string; value: string } {
  const unit = (order.request.body.purchase_units as Array<Record<string, any>>)[0];
  return { currency_code: unit.amount.currency_code, value: unit.amount.value };
}

export function newId(prefix: string): string {
  return `${prefix}${randomUUID().replace(/-/g, "").slice(0, 15).toUpperCase()}`;
}
