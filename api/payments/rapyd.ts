/**
 * Rapyd adapter: Hosted Checkout Page (POST /v1/checkout), status via GET /v1/checkout/{id},
 * and webhook verification. Every REST call is signed as docs.rapyd.net/en/request-signatures:
 *
 *   signature = BASE64( HEX( HMAC-SHA256(secret_key,
 *     http_method(lower) + url_path + salt + timestamp + access_key + secret_key + body_string) ) )
 *
 * Rapyd's own examples base64-encode the *hex text* of the digest, not the raw digest bytes.
 * Webhooks (docs.rapyd.net/en/webhook-authentication) use the same formula without the method,
 * with url_path = the full webhook URL configured in the Client Portal.
 */
import { createHmac, randomInt } from "node:crypto";
import {
  PaymentProviderError,
  type CreatePaymentInput,
  type CreatePaymentResult,
  type PaymentProvider,
  type PaymentState,
  type WebhookEvent,
  type WebhookRequest,
} from "./types";
import { capturedOrNot, centsToDecimal } from "./money";
import { header, isObject, providerHttp, stringOrNull, type ApiResponse, type Json } from "./http";
import { sameSecret } from "#platform/same-secret.server";

export type RapydProviderOptions = {
  accessKey: string;
  secretKey: string;
  /** https://sandboxapi.rapyd.net or https://api.rapyd.net */
  apiBase: string;
  fetch?: typeof fetch;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
  /** Each call's deadline (PAYMENT_TIMEOUT_MS). */
  timeoutMs?: number;
};

/** Webhooks whose timestamp is further than this from now are refused (replay protection). */
export const RAPYD_WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

const SALT_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const SALT_LENGTH = 12;

export function createRapydProvider(opts: RapydProviderOptions): PaymentProvider {
  const base = opts.apiBase.replace(/\/+$/, "");
  const call = providerHttp({ provider: "rapyd", fetch: opts.fetch, timeoutMs: opts.timeoutMs });
  const now = opts.now ?? Date.now;

  function sign(parts: string[]): string {
    const hex = createHmac("sha256", opts.secretKey).update(parts.join(""), "utf8").digest("hex");
    return Buffer.from(hex, "utf8").toString("base64");
  }

  /** `path` is what Rapyd signs: starts with /v1 and includes any query string. */
  async function api(method: "GET" | "POST", path: string, body?: Json, extraHeaders: Record<string, string> = {}): Promise<ApiResponse> {
    const bodyString = body === undefined ? "" : JSON.stringify(body);
    const salt = randomSalt();
    const timestamp = String(Math.floor(now() / 1000));
    const signature = sign([method.toLowerCase(), path, salt, timestamp, opts.accessKey, opts.secretKey, bodyString]);
    return call(`${base}${path}`, {
      method,
      headers: {
        "Content-Type": "application/json",
        access_key: opts.accessKey,
        salt,
        timestamp,
        signature,
        ...extraHeaders,
      },
      // Exactly the string that was signed.
      body: body === undefined ? undefined : bodyString,
    });
  }

  return {
    name: "rapyd",
    flow: "hosted",

    async createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult> {
      const body: Json = {
        // A JSON number built from the exact decimal text: 1250 → 12.5, 1999 → 19.99. Rapyd's docs
        // warn that trailing zeros in numbers break the signature, and JSON.stringify never emits them.
        amount: Number(centsToDecimal(input.amountCents, "rapyd")),
        currency: input.currency,
        country: "ES",
        language: "es",
        description: input.description,
        merchant_reference_id: input.transactionId,
        complete_checkout_url: input.returnUrl,
        cancel_checkout_url: input.cancelUrl,
        metadata: { sale_id: input.saleId },
      };
      const res = await api("POST", "/v1/checkout", body, { idempotency: input.transactionId });
      const data = isObject(res.json?.data) ? res.json.data : null;
      if (!res.ok || !isSuccess(res.json) || !data) {
        throw new PaymentProviderError(`Rapyd no pudo crear el pago${errorSuffix(res.json)}.`, "rapyd", res.status);
      }
      if (typeof data.id !== "string" || typeof data.redirect_url !== "string" || data.redirect_url === "") {
        throw new PaymentProviderError("Rapyd respondió sin página de pago.", "rapyd", res.status);
      }
      return { flow: "hosted", redirectUrl: data.redirect_url, providerRef: data.id };
    },

    async capturePayment(payment): Promise<PaymentState> {
      const fallback = { amountCents: payment.amountCents, currency: payment.currency, providerRef: payment.providerRef };
      const res = await api("GET", `/v1/checkout/${encodeURIComponent(payment.providerRef)}`);
      const data = isObject(res.json?.data) ? res.json.data : null;
      if (!res.ok || !isSuccess(res.json) || !data) {
        throw new PaymentProviderError(`Rapyd no pudo consultar el pago${errorSuffix(res.json)}.`, "rapyd", res.status);
      }
      // The checkout page captures by itself (capture defaults to true): nothing to capture here.
      const paid = isObject(data.payment) ? data.payment : null;
      switch (paid?.status) {
        case "CLO":
          return capturedOrNot("rapyd", paid.amount, paid.currency_code, fallback);
        case "CAN":
        case "ERR":
        case "EXP":
          return { status: "declined", ...fallback };
        default:
          // "ACT" (awaiting the buyer or a 3DS/redirect step), "NEW", or no payment yet.
          return { status: "pending", ...fallback };
      }
    },

    async verifyWebhook(request: WebhookRequest): Promise<WebhookEvent | null> {
      try {
        const salt = header(request, "salt");
        const timestamp = header(request, "timestamp");
        const received = header(request, "signature");
        if (!salt || !timestamp || !received || !/^\d{1,12}$/.test(timestamp)) return null;
        if (Math.abs(now() / 1000 - Number(timestamp)) > RAPYD_WEBHOOK_TOLERANCE_SECONDS) return null;

        const expected = sign([request.url, salt, timestamp, opts.accessKey, opts.secretKey, request.rawBody]);
        if (!sameSecret(received, expected)) return null;

        let body: unknown;
        try {
          body = JSON.parse(request.rawBody);
        } catch {
          return null;
        }
        if (!isObject(body) || typeof body.id !== "string" || body.id === "") return null;
        return eventFromBody(body.id, body);
      } catch {
        return null;
      }
    },
  };
}

function eventFromBody(eventId: string, body: Json): WebhookEvent {
  const type = typeof body.type === "string" ? body.type : "";
  let kind: WebhookEvent["kind"] = "other";
  if (type === "PAYMENT_COMPLETED") kind = "payment.completed";
  else if (type === "PAYMENT_FAILED" || type === "PAYMENT_EXPIRED" || type === "PAYMENT_CANCELED") kind = "payment.failed";

  const data = isObject(body.data) ? body.data : {};
  // Payment webhooks carry the payment object (id "payment_…"); the checkout id we keep as
  // providerRef is only there when Rapyd includes it, so prefer it and fall back to data.id.
  // The sale service should match on transactionId (merchant_reference_id) first.
  const providerRef =
    stringOrNull(data.checkout_id) ?? stringOrNull(isObject(data.checkout) ? data.checkout.id : null) ?? stringOrNull(data.id);
  return {
    eventId,
    kind,
    transactionId: stringOrNull(data.merchant_reference_id),
    providerRef,
  };
}

function isSuccess(body: Json | null): boolean {
  return isObject(body?.status) && body.status.status === "SUCCESS";
}

function errorSuffix(body: Json | null): string {
  const status = isObject(body?.status) ? body.status : null;
  const code = typeof status?.error_code === "string" && status.error_code ? status.error_code : null;
  return code ? ` (${code})` : "";
}

function randomSalt(): string {
  let salt = "";
  for (let i = 0; i < SALT_LENGTH; i++) salt += SALT_ALPHABET[randomInt(SALT_ALPHABET.length)];
  return salt;
}
