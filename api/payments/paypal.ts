/**
 * PayPal adapter: Orders v2 (create + capture), OAuth2 client-credentials token, and webhook
 * verification through PayPal's own /v1/notifications/verify-webhook-signature endpoint.
 *
 * Everything goes through `fetch` (the global one unless injected) so tests can intercept it.
 */
import {
  PaymentProviderError,
  type CreatePaymentInput,
  type CreatePaymentResult,
  type PaymentProvider,
  type PaymentState,
  type WebhookEvent,
  type WebhookRequest,
} from "./types";
import { capturedOrNot, centsToDecimal, decimalToCents } from "./money";
import { DEFAULT_PAYMENT_TIMEOUT_MS, header, isObject, providerHttp, stringOrNull, type ApiResponse, type Json } from "./http";

export type PaypalProviderOptions = {
  clientId: string;
  clientSecret: string;
  webhookId: string;
  /** https://api-m.sandbox.paypal.com or https://api-m.paypal.com */
  apiBase: string;
  fetch?: typeof fetch;
  /** Each call's deadline (PAYMENT_TIMEOUT_MS). */
  timeoutMs?: number;
};

/** Renew the token this long before PayPal says it expires. */
const TOKEN_MARGIN_MS = 60_000;
/** PayPal limits description and custom_id to 127 characters. */
const MAX_TEXT = 127;

const WEBHOOK_HEADERS = {
  authAlgo: "paypal-auth-algo",
  certUrl: "paypal-cert-url",
  transmissionId: "paypal-transmission-id",
  transmissionSig: "paypal-transmission-sig",
  transmissionTime: "paypal-transmission-time",
} as const;

export function createPaypalProvider(opts: PaypalProviderOptions): PaymentProvider {
  const base = opts.apiBase.replace(/\/+$/, "");
  const call = providerHttp({ provider: "paypal", fetch: opts.fetch, timeoutMs: opts.timeoutMs });

  let token: { value: string; expiresAt: number } | null = null;
  let tokenInFlight: Promise<string> | null = null;

  async function fetchToken(deadline: number): Promise<string> {
    const basic = Buffer.from(`${opts.clientId}:${opts.clientSecret}`, "utf8").toString("base64");
    const res = await call(`${base}/v1/oauth2/token`, {
      method: "POST",
      headers: {
        Authorization: `Basic ${basic}`,
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
      },
      body: "grant_type=client_credentials",
      deadline,
    });
    const json = res.json;
    const accessToken = json?.access_token;
    if (!res.ok || typeof accessToken !== "string" || accessToken === "") {
      throw new PaymentProviderError("PayPal rechazó las credenciales de la tienda.", "paypal", res.status);
    }
    const expiresIn = typeof json?.expires_in === "number" ? json.expires_in : 0;
    token = { value: accessToken, expiresAt: Date.now() + expiresIn * 1000 - TOKEN_MARGIN_MS };
    return accessToken;
  }

  async function getToken(deadline: number): Promise<string> {
    if (token && token.expiresAt > Date.now()) return token.value;
    // Concurrent callers share one token request.
    tokenInFlight ??= fetchToken(deadline).finally(() => {
      tokenInFlight = null;
    });
    return tokenInFlight;
  }

  async function api(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<ApiResponse> {
    // One deadline for the whole operation (token, call and its retry), so a payment is answered
    // within PAYMENT_TIMEOUT_MS, before the storefront gives up on the API.
    const deadline = Date.now() + (opts.timeoutMs ?? DEFAULT_PAYMENT_TIMEOUT_MS);
    for (let attempt = 0; ; attempt++) {
      const accessToken = await getToken(deadline);
      const res = await call(`${base}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${accessToken}`,
          "Content-Type": "application/json",
          Accept: "application/json",
          ...init.headers,
        },
        body: init.body,
        deadline,
      });
      // A token revoked or expired early: forget it and try once more with a fresh one.
      if (res.status === 401 && attempt === 0) {
        token = null;
        continue;
      }
      return res;
    }
  }

  async function getOrder(orderId: string): Promise<Json> {
    const res = await api("GET", `/v2/checkout/orders/${encodeURIComponent(orderId)}`);
    if (!res.ok || !res.json) {
      throw new PaymentProviderError("No se pudo consultar el pedido en PayPal.", "paypal", res.status);
    }
    return res.json;
  }

  return {
    name: "paypal",
    flow: "redirect",

    async createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult> {
      const body = {
        intent: "CAPTURE",
        purchase_units: [
          {
            reference_id: input.saleId,
            custom_id: input.transactionId,
            description: truncate(input.description, MAX_TEXT),
            amount: { currency_code: input.currency, value: centsToDecimal(input.amountCents, "paypal") },
          },
        ],
        payment_source: {
          paypal: {
            email_address: input.email || undefined,
            experience_context: {
              return_url: input.returnUrl,
              cancel_url: input.cancelUrl,
              locale: "es-ES",
              user_action: "PAY_NOW",
              // Vouchers are delivered by email: nothing to ship.
              shipping_preference: "NO_SHIPPING",
            },
          },
        },
      };
      const res = await api("POST", "/v2/checkout/orders", {
        body: JSON.stringify(body),
        // PayPal's idempotency key: retrying the same transaction returns the same order.
        headers: { "PayPal-Request-Id": input.transactionId },
      });
      if (!res.ok || !res.json) {
        throw new PaymentProviderError(`PayPal no pudo crear el pago${issueSuffix(res.json)}.`, "paypal", res.status);
      }
      const orderId = res.json.id;
      const link = findLink(res.json, "payer-action") ?? findLink(res.json, "approve");
      if (typeof orderId !== "string" || !link) {
        throw new PaymentProviderError("PayPal respondió sin enlace de pago.", "paypal", res.status);
      }
      return { flow: "redirect", redirectUrl: link, providerRef: orderId };
    },

    async capturePayment(payment): Promise<PaymentState> {
      const fallback = { amountCents: payment.amountCents, currency: payment.currency, providerRef: payment.providerRef };
      const res = await api("POST", `/v2/checkout/orders/${encodeURIComponent(payment.providerRef)}/capture`, {
        body: "{}",
        // Same key on every retry: PayPal answers a repeated capture with the first result.
        headers: { "PayPal-Request-Id": `capture-${payment.transactionId}` },
      });

      if (res.ok && res.json) {
        const order = res.json;
        // A minimal representation may leave out the captures; ask for the full order then.
        if (order.status === "COMPLETED" && !firstCapture(order)) {
          return stateFromOrder(await getOrder(payment.providerRef), fallback);
        }
        return stateFromOrder(order, fallback);
      }

      if (res.status === 422) {
        const issue = firstIssue(res.json);
        if (issue === "ORDER_ALREADY_CAPTURED" || issue === "ORDER_NOT_APPROVED") {
          // Captured by an earlier call with another key, or not approved yet: the order says which.
          return stateFromOrder(await getOrder(payment.providerRef), fallback);
        }
        if (issue === "INSTRUMENT_DECLINED" || issue === "TRANSACTION_REFUSED") {
          return { status: "declined", ...fallback };
        }
        if (issue === "PAYER_ACTION_REQUIRED") {
          return { status: "pending", ...fallback };
        }
      }
      throw new PaymentProviderError(`PayPal no pudo cobrar el pago${issueSuffix(res.json)}.`, "paypal", res.status);
    },

    async verifyWebhook(request: WebhookRequest): Promise<WebhookEvent | null> {
      try {
        const authAlgo = header(request, WEBHOOK_HEADERS.authAlgo);
        const certUrl = header(request, WEBHOOK_HEADERS.certUrl);
        const transmissionId = header(request, WEBHOOK_HEADERS.transmissionId);
        const transmissionSig = header(request, WEBHOOK_HEADERS.transmissionSig);
        const transmissionTime = header(request, WEBHOOK_HEADERS.transmissionTime);
        if (!authAlgo || !certUrl || !transmissionId || !transmissionSig || !transmissionTime) return null;

        let event: unknown;
        try {
          event = JSON.parse(request.rawBody);
        } catch {
          return null;
        }
        if (!isObject(event)) return null;

        // The event goes in verbatim: PayPal checks a CRC32 of the bytes it sent, and a
        // re-serialised copy (other number formatting, escaping) can fail that check.
        const prefix = JSON.stringify({
          auth_algo: authAlgo,
          cert_url: certUrl,
          transmission_id: transmissionId,
          transmission_sig: transmissionSig,
          transmission_time: transmissionTime,
          webhook_id: opts.webhookId,
        });
        const body = `${prefix.slice(0, -1)},"webhook_event":${request.rawBody.trim()}}`;

        const res = await api("POST", "/v1/notifications/verify-webhook-signature", { body });
        if (!res.ok || res.json?.verification_status !== "SUCCESS") return null;
        return eventFromBody(event);
      } catch {
        return null;
      }
    },
  };
}

function eventFromBody(body: Json): WebhookEvent | null {
  if (typeof body.id !== "string" || body.id === "") return null;
  const type = typeof body.event_type === "string" ? body.event_type : "";
  const resource = isObject(body.resource) ? body.resource : {};

  let kind: WebhookEvent["kind"] = "other";
  if (type === "PAYMENT.CAPTURE.COMPLETED" || type === "CHECKOUT.ORDER.APPROVED" || type === "CHECKOUT.ORDER.COMPLETED") {
    kind = "payment.completed";
  } else if (type === "PAYMENT.CAPTURE.DENIED" || type === "PAYMENT.CAPTURE.DECLINED") {
    kind = "payment.failed";
  }

  const units = Array.isArray(resource.purchase_units) ? resource.purchase_units : [];
  const firstUnit = isObject(units[0]) ? units[0] : {};
  const transactionId = stringOrNull(resource.custom_id) ?? stringOrNull(firstUnit.custom_id);

  let providerRef: string | null = null;
  if (type.startsWith("PAYMENT.CAPTURE.")) {
    // A capture's own id is not the order id; the order is under supplementary_data.
    const supplementary = isObject(resource.supplementary_data) ? resource.supplementary_data : {};
    const related = isObject(supplementary.related_ids) ? supplementary.related_ids : {};
    providerRef = stringOrNull(related.order_id);
  } else if (type.startsWith("CHECKOUT.ORDER.")) {
    providerRef = stringOrNull(resource.id);
  }

  return { eventId: body.id, kind, transactionId, providerRef };
}

function stateFromOrder(order: Json, fallback: { amountCents: number; currency: string; providerRef: string }): PaymentState {
  const providerRef = typeof order.id === "string" ? order.id : fallback.providerRef;
  const unitAmount = moneyOf(firstUnit(order)?.amount);
  const base = {
    amountCents: unitAmount?.amountCents ?? fallback.amountCents,
    currency: unitAmount?.currency ?? fallback.currency,
    providerRef,
  };
  switch (order.status) {
    case "COMPLETED": {
      // What was captured, not what was ordered: only the capture's own amount counts as paid.
      const capture = firstCapture(order);
      if (!capture || capture.status === "COMPLETED") {
        const amount = isObject(capture?.amount) ? capture.amount : {};
        return capturedOrNot("paypal", amount.value, amount.currency_code, { ...base, providerRef });
      }
      if (capture.status === "PENDING") return { status: "pending", ...base };
      return { status: "declined", ...base };
    }
    case "APPROVED":
      return { status: "approved", ...base };
    case "VOIDED":
      return { status: "declined", ...base };
    default:
      // CREATED, SAVED, PAYER_ACTION_REQUIRED: the buyer has not finished at PayPal yet.
      return { status: "pending", ...base };
  }
}

function firstUnit(order: Json): Json | null {
  const units = order.purchase_units;
  return Array.isArray(units) && isObject(units[0]) ? units[0] : null;
}

function firstCapture(order: Json): Json | null {
  const payments = firstUnit(order)?.payments;
  if (!isObject(payments) || !Array.isArray(payments.captures)) return null;
  return isObject(payments.captures[0]) ? payments.captures[0] : null;
}

function moneyOf(value: unknown): { amountCents: number; currency: string } | null {
  if (!isObject(value) || typeof value.currency_code !== "string") return null;
  const cents = decimalToCents(value.value);
  return cents === null ? null : { amountCents: cents, currency: value.currency_code };
}

function findLink(body: Json, rel: string): string | null {
  if (!Array.isArray(body.links)) return null;
  for (const link of body.links) {
    if (isObject(link) && link.rel === rel && typeof link.href === "string") return link.href;
  }
  return null;
}

function firstIssue(body: Json | null): string | null {
  if (!body || !Array.isArray(body.details)) return null;
  const detail = body.details[0];
  return isObject(detail) && typeof detail.issue === "string" ? detail.issue : null;
}

function issueSuffix(body: Json | null): string {
  const issue = firstIssue(body) ?? (typeof body?.name === "string" ? body.name : null);
  return issue ? ` (${issue})` : "";
}

function truncate(text: string, max: number): string {
  const chars = Array.from(text.trim());
  return chars.length <= max ? chars.join("") : chars.slice(0, max).join("");
}
