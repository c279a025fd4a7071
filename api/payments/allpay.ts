/**
 * Allpay (allpay.co.il / allpay.to) adapter: hosted payment page, status check, and the signed
 * payment notification.
 *
 * What the docs say (allpay.co.il/en/api-reference, and Allpay's own WooCommerce plugin):
 * - Create: POST {apiBase}?show=getpayment&mode=apiN, answer `{ payment_url }` or
 *   `{ error_code, error_msg }`.
 * - Status: POST {apiBase}?show=paymentstatus&mode=apiN with login + order_id + sign; `status`
 *   is 0 (not paid / failed), 1 (paid), 3 (refunded); 4 is reported by integrators as a partial
 *   refund.
 * - Signature (both directions): drop `sign`, sort the parameters by key, take the values of the
 *   non-empty ones (for arrays such as `items`, each item's values sorted by their key), join
 *   them with ":", append ":" + API key, SHA-256, hex.
 *
 * Uncertain, noted where used:
 * - The public docs describe api1–api8, where the notification URL is `notifications_url`.
 *   Integrations on api10 all send `webhook_url` instead, so that is what we send.
 * - `lang`: the API lists AR/EN/HE/RU; the page itself has Spanish. We send "ES"; if Allpay
 *   ignores it the page falls back to the buyer's browser language.
 * - The notification has no event id and no timestamp: the event id is built from order_id and
 *   status, and there is no replay window to enforce (a replay only repeats the same fact).
 */
import { createHash } from "node:crypto";
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
import { header, parseJsonObject, providerHttp, type ApiResponse, type Json } from "./http";
import { sameSecret } from "#platform/same-secret.server";

export type AllpayProviderOptions = {
  login: string;
  apiKey: string;
  /** https://allpay.to/app/ */
  apiBase: string;
  fetch?: typeof fetch;
  /** Each call's deadline (PAYMENT_TIMEOUT_MS). */
  timeoutMs?: number;
};

const API_MODE = "api10";
/** See the note at the top: api10 integrations use `webhook_url` (older docs: `notifications_url`). */
const NOTIFICATION_URL_PARAM = "webhook_url";
const PAGE_LANGUAGE = "ES";
/** Item VAT code: 0 = no Israeli VAT (we are not an Israeli VAT dealer). Required since api7. */
const ITEM_VAT = 0;

export function createAllpayProvider(opts: AllpayProviderOptions): PaymentProvider {
  const call = providerHttp({ provider: "allpay", fetch: opts.fetch, timeoutMs: opts.timeoutMs });

  function endpoint(show: string): string {
    const url = new URL(opts.apiBase);
    url.searchParams.set("show", show);
    url.searchParams.set("mode", API_MODE);
    return url.toString();
  }

  async function post(show: string, params: Json): Promise<ApiResponse> {
    const body = { ...params, sign: allpaySign(params, opts.apiKey) };
    return call(endpoint(show), {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  }

  return {
    name: "allpay",
    flow: "hosted",

    async createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult> {
      const params: Json = {
        login: opts.login,
        order_id: input.transactionId,
        items: [
          {
            name: input.description.trim() || "Oferta",
            qty: 1,
            // A string keeps "12.50" exact in the JSON and in the signature.
            price: centsToDecimal(input.amountCents, "allpay"),
            vat: ITEM_VAT,
          },
        ],
        currency: input.currency,
        lang: PAGE_LANGUAGE,
        [NOTIFICATION_URL_PARAM]: input.webhookUrl,
        success_url: input.returnUrl,
        backlink_url: input.cancelUrl,
        client_email: input.email.trim(),
        add_field_1: input.saleId,
      };
      const fullName = input.fullName?.trim();
      if (fullName) params.client_name = fullName;

      const res = await post("getpayment", params);
      const paymentUrl = res.json?.payment_url;
      if (!res.ok || hasError(res.json) || typeof paymentUrl !== "string" || paymentUrl === "") {
        throw new PaymentProviderError(`Allpay no pudo crear el pago${errorSuffix(res.json)}.`, "allpay", res.status);
      }
      // Allpay identifies the payment by our order_id; it returns no id of its own here.
      return { flow: "hosted", redirectUrl: paymentUrl, providerRef: input.transactionId };
    },

    async capturePayment(payment): Promise<PaymentState> {
      // Allpay charges on its page; there is nothing to capture, only a status to read.
      const fallback = { amountCents: payment.amountCents, currency: payment.currency, providerRef: payment.providerRef };
      const res = await post("paymentstatus", { login: opts.login, order_id: payment.providerRef });
      const json = res.json;
      if (!res.ok || !json || hasError(json) || json.status === undefined || json.status === null) {
        throw new PaymentProviderError(`Allpay no pudo consultar el pago${errorSuffix(json)}.`, "allpay", res.status);
      }
      const status = String(json.status).trim();
      if (status === "1") return capturedOrNot("allpay", json.amount, json.currency, fallback);
      if (status === "0") return { status: "pending", ...fallback };
      // 3 refunded, 4 partially refunded, anything else: not a payment we can sell on.
      return { status: "declined", ...fallback };
    },

    async verifyWebhook(request: WebhookRequest): Promise<WebhookEvent | null> {
      try {
        const params = parseNotification(request);
        if (!params) return null;
        const received = params.sign;
        if (typeof received !== "string" || received === "") return null;
        const expected = allpaySign(params, opts.apiKey);
        if (!sameSecret(received.trim().toLowerCase(), expected)) return null;

        const orderId = scalarText(params.order_id);
        if (!orderId) return null;
        const status = scalarText(params.status);
        return {
          eventId: `allpay:${orderId}:${status || "?"}`,
          // Allpay notifies successful payments (status 1); anything else is informational and the
          // sale service can ask capturePayment for the real state.
          kind: status === "1" ? "payment.completed" : "other",
          transactionId: orderId,
          providerRef: orderId,
        };
      } catch {
        return null;
      }
    },
  };
}

/**
 * Allpay's signature. Mirrors the reference implementation in the docs: keys sorted (PHP ksort),
 * `sign` skipped, empty values skipped, nested arrays flattened one level with their own keys
 * sorted, values joined with ":" and followed by ":" + apiKey, SHA-256 hex.
 */
export function allpaySign(params: Json, apiKey: string): string {
  const chunks: string[] = [];
  for (const key of Object.keys(params).sort(phpKeyCompare)) {
    if (key === "sign") continue;
    const value = params[key];
    if (isContainer(value)) {
      for (const item of sortedValues(value)) {
        if (isContainer(item)) {
          for (const inner of sortedValues(item)) pushScalar(chunks, inner);
        } else {
          pushScalar(chunks, item);
        }
      }
    } else {
      pushScalar(chunks, value);
    }
  }
  return createHash("sha256")
    .update(`${chunks.join(":")}:${apiKey}`, "utf8")
    .digest("hex");
}

function pushScalar(chunks: string[], value: unknown): void {
  const text = scalarText(value);
  if (text !== "") chunks.push(text);
}

/** PHP's string conversion of a decoded JSON scalar (true → "1", false/null → ""), trimmed. */
function scalarText(value: unknown): string {
  if (value === null || value === undefined || value === false) return "";
  if (value === true) return "1";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "string") return value.trim();
  return "";
}

function isContainer(value: unknown): value is Json | unknown[] {
  return typeof value === "object" && value !== null;
}

function sortedValues(value: Json | unknown[]): unknown[] {
  if (Array.isArray(value)) return value;
  return Object.keys(value)
    .sort(phpKeyCompare)
    .map((key) => value[key]);
}

/** PHP 8 ksort: integer-like keys compare as numbers, others as byte strings. */
function phpKeyCompare(a: string, b: string): number {
  const intLike = /^(0|-?[1-9]\d*)$/;
  if (intLike.test(a) && intLike.test(b)) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The notification arrives as a form post (PHP-style `items[0][name]` keys) or as JSON. */
function parseNotification(request: WebhookRequest): Json | null {
  const raw = request.rawBody.trim();
  if (raw === "") return null;
  const contentType = header(request, "content-type") ?? "";
  if (contentType.includes("json") || raw.startsWith("{")) return parseJsonObject(raw);
  if (!/^[^=&]+=/.test(raw)) return null;
  const out: Json = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match) return null;
    const path = [match[1], ...Array.from(match[2].matchAll(/\[([^[\]]*)\]/g), (m) => m[1])];
    if (path.some((segment) => segment === "__proto__" || segment === "constructor" || segment === "prototype")) return null;
    let target = out;
    for (let i = 0; i < path.length - 1; i++) {
      const segment = path[i];
      const next = target[segment];
      if (typeof next !== "object" || next === null) target[segment] = {};
      target = target[segment] as Json;
    }
    target[path[path.length - 1]] = value;
  }
  return out;
}

function hasError(body: Json | null): boolean {
  if (!body) return false;
  const code = body.error_code;
  const message = body.error_msg ?? body.error;
  return (
    (code !== undefined && code !== null && code !== "" && code !== 0 && code !== "0") || (typeof message === "string" && message !== "")
  );
}

function errorSuffix(body: Json | null): string {
  const message = body?.error_msg ?? body?.error;
  return typeof message === "string" && message ? ` (${message})` : "";
}
