/**
 * An in-memory PayPal (REST: OAuth2 token, Orders v2, webhook signature verification) for msw.
 * Shapes follow developer.paypal.com: error bodies `{ name, message, debug_id, details: [{ issue,
 * description }] }`, 401 on a missing/unknown bearer token, PayPal-Request-Id idempotency, and a
 * real RSA check of webhook transmissions (`<id>|<time>|<webhook_id>|<crc32(body)>`).
 */
import { createSign, createVerify, generateKeyPairSync, randomUUID, type KeyObject } from "node:crypto";
import { http, HttpResponse, type HttpHandler, type JsonBodyType } from "msw";

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

/**
 * Builds a webhook delivery the way PayPal signs it: SHA256withRSA over
 * `transmission_id|transmission_time|webhook_id|crc32(raw body)`.
 */
export function signPaypalWebhook(
  state: PaypalMockState,
  event: Record<string, unknown>,
  opts: { webhookId?: string; transmissionTime?: string } = {},
): { rawBody: string; headers: Record<string, string> } {
  const rawBody = JSON.stringify(event);
  const transmissionId = randomUUID();
  const transmissionTime = opts.transmissionTime ?? new Date().toISOString();
  const message = `${transmissionId}|${transmissionTime}|${opts.webhookId ?? state.webhookId}|${crc32(rawBody)}`;
  const signer = createSign("RSA-SHA256");
  signer.update(message);
  return {
    rawBody,
    headers: {
      "content-type": "application/json",
      "paypal-auth-algo": "SHA256withRSA",
      "paypal-cert-url": state.certUrl,
      "paypal-transmission-id": transmissionId,
      "paypal-transmission-sig": signer.sign(state.keys.privateKey, "base64"),
      "paypal-transmission-time": transmissionTime,
    },
  };
}

/** A buyer whose address contains this finds PayPal never answering the creation of their order. */
export const PAYPAL_HANGS_FOR = "paypal-no-responde";

/** Put before paypalHandlers: orders of those buyers hang, every other request goes on to them. */
export function paypalHangsForSomeBuyers(state: PaypalMockState): HttpHandler {
  return http.post(`${state.apiBase}/v2/checkout/orders`, async ({ request }) => {
    const body = (await request.clone().json()) as { payment_source?: { paypal?: { email_address?: string } } };
    if (body.payment_source?.paypal?.email_address?.includes(PAYPAL_HANGS_FOR)) return new Promise<never>(() => {});
    return undefined;
  });
}

export function paypalHandlers(state: PaypalMockState): HttpHandler[] {
  const base = state.apiBase;
  return [
    http.post(`${base}/v1/oauth2/token`, async ({ request }) => {
      state.tokenRequests++;
      const expected = `Basic ${Buffer.from(`${state.clientId}:${state.clientSecret}`).toString("base64")}`;
      const form = new URLSearchParams(await request.text());
      if (request.headers.get("authorization") !== expected) {
        return HttpResponse.json({ error: "invalid_client", error_description: "Client Authentication failed" }, { status: 401 });
      }
      if (
        !request.headers.get("content-type")?.includes("application/x-www-form-urlencoded") ||
        form.get("grant_type") !== "client_credentials"
      ) {
        return HttpResponse.json({ error: "unsupported_grant_type", error_description: "Grant Type is NULL" }, { status: 400 });
      }
      const token = `A21AA${randomUUID().replace(/-/g, "")}`;
      state.accessTokens.add(token);
      return HttpResponse.json({
        scope: "https://uri.paypal.com/services/payments/payment",
        access_token: token,
        token_type: "Bearer",
        app_id: "APP-80W284485P519543T",
        expires_in: state.tokenExpiresIn,
        nonce: `${new Date().toISOString()}${randomUUID()}`,
      });
    }),

    http.post(`${base}/v2/checkout/orders`, async ({ request }) => {
      const denied = checkBearer(state, request);
      if (denied) return denied;
      const requestId = request.headers.get("paypal-request-id");
      if (requestId) {
        const replay = state.idempotent.get(`create|${requestId}`);
        if (replay) return HttpResponse.json(replay.body, { status: 200 });
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(await request.text());
      } catch {
        return invalidRequest("MALFORMED_REQUEST_JSON", "", "body", "The request JSON is not well formed.");
      }
      const problem = validateCreate(body);
      if (problem) return invalidRequest(problem.issue, problem.field, "body", problem.description);

      const order: PaypalMockOrder = {
        id: newId("5O"),
        status: "PAYER_ACTION_REQUIRED",
        request: { headers: Object.fromEntries(request.headers), body },
        captures: [],
      };
      state.orders.set(order.id, order);
      const response = {
        id: order.id,
        status: order.status,
        payment_source: { paypal: {} },
        links: [
          { href: `${base}/v2/checkout/orders/${order.id}`, rel: "self", method: "GET" },
          { href: `https://www.sandbox.paypal.com/checkoutnow?token=${order.id}`, rel: "payer-action", method: "GET" },
        ],
      };
      if (requestId) state.idempotent.set(`create|${requestId}`, { status: 200, body: response });
      return HttpResponse.json(response, { status: 200 });
    }),

    http.get(`${base}/v2/checkout/orders/:id`, ({ request, params }) => {
      const denied = checkBearer(state, request);
      if (denied) return denied;
      const order = state.orders.get(String(params.id));
      if (!order) return notFound();
      return HttpResponse.json(orderBody(state, order));
    }),

    http.post(`${base}/v2/checkout/orders/:id/capture`, ({ request, params }) => {
      const denied = checkBearer(state, request);
      if (denied) return denied;
      const orderId = String(params.id);
      const requestId = request.headers.get("paypal-request-id");
      state.captureRequests.push({ orderId, requestId });
      if (!request.headers.get("content-type")?.includes("application/json")) {
        return HttpResponse.json(
          { name: "UNSUPPORTED_MEDIA_TYPE", message: "The request payload is not supported.", debug_id: debugId() },
          { status: 415 },
        );
      }
      if (requestId) {
        const replay = state.idempotent.get(`capture|${orderId}|${requestId}`);
        if (replay) return HttpResponse.json(replay.body, { status: replay.status });
      }
      const order = state.orders.get(orderId);
      if (!order) return notFound();
      if (order.status === "COMPLETED") {
        return unprocessable("ORDER_ALREADY_CAPTURED", "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.");
      }
      if (order.status !== "APPROVED") {
        return unprocessable(
          "ORDER_NOT_APPROVED",
          "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.",
        );
      }
      if (order.failNextCaptureWith) {
        const issue = order.failNextCaptureWith;
        order.failNextCaptureWith = undefined;
        return unprocessable(
          issue,
          "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.",
        );
      }
      order.captures.push({ id: newId("CAP"), status: "COMPLETED", amount: unitAmount(order), requestId });
      order.status = "COMPLETED";
      const response = orderBody(state, order);
      if (requestId) state.idempotent.set(`capture|${orderId}|${requestId}`, { status: 201, body: response });
      return HttpResponse.json(response, { status: 201 });
    }),

    http.post(`${base}/v1/notifications/verify-webhook-signature`, async ({ request }) => {
      const denied = checkBearer(state, request);
      if (denied) return denied;
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(await request.text());
      } catch {
        return invalidRequest("MALFORMED_REQUEST_JSON", "", "body", "The request JSON is not well formed.");
      }
      state.verifyRequests.push(body);
      for (const field of ["auth_algo", "cert_url", "transmission_id", "transmission_sig", "transmission_time", "webhook_id"]) {
        if (typeof body[field] !== "string" || body[field] === "") {
          return invalidRequest("MISSING_REQUIRED_PARAMETER", `/${field}`, "body", "A required field / parameter is missing.");
        }
      }
      if (typeof body.webhook_event !== "object" || body.webhook_event === null) {
        return invalidRequest("MISSING_REQUIRED_PARAMETER", "/webhook_event", "body", "A required field / parameter is missing.");
      }
      const ok =
        body.webhook_id === state.webhookId &&
        body.auth_algo === "SHA256withRSA" &&
        body.cert_url === state.certUrl &&
        verifyTransmission(state, body);
      return HttpResponse.json({ verification_status: ok ? "SUCCESS" : "FAILURE" });
    }),
  ];
}

function verifyTransmission(state: PaypalMockState, body: Record<string, unknown>): boolean {
  // The event as PayPal sent it; tests build rawBody with JSON.stringify, so this is the same text.
  const rawEvent = JSON.stringify(body.webhook_event);
  const message = `${body.transmission_id}|${body.transmission_time}|${body.webhook_id}|${crc32(rawEvent)}`;
  const verifier = createVerify("RSA-SHA256");
  verifier.update(message);
  try {
    return verifier.verify(state.keys.publicKey, String(body.transmission_sig), "base64");
  } catch {
    return false;
  }
}

function validateCreate(body: Record<string, unknown>): { issue: string; field: string; description: string } | null {
  if (body.intent !== "CAPTURE" && body.intent !== "AUTHORIZE") {
    return { issue: "INVALID_PARAMETER_VALUE", field: "/intent", description: "The value of a field is invalid." };
  }
  const units = body.purchase_units;
  if (!Array.isArray(units) || units.length === 0) {
    return { issue: "MISSING_REQUIRED_PARAMETER", field: "/purchase_units", description: "A required field / parameter is missing." };
  }
  const unit = units[0] as Record<string, any>;
  const amount = unit?.amount;
  if (typeof amount?.currency_code !== "string" || !/^[A-Z]{3}$/.test(amount.currency_code)) {
    return {
      issue: "INVALID_PARAMETER_VALUE",
      field: "/purchase_units/@reference_id=='default'/amount/currency_code",
      description: "Currency code is invalid or is not currently supported.",
    };
  }
  if (typeof amount?.value !== "string" || !/^\d{1,10}(\.\d{2})?$/.test(amount.value)) {
    return {
      issue: "DECIMAL_PRECISION",
      field: "/purchase_units/@reference_id=='default'/amount/value",
      description: "If the currency supports decimals, only two decimal place precision is supported.",
    };
  }
  for (const field of ["custom_id", "description"] as const) {
    if (unit[field] !== undefined && (typeof unit[field] !== "string" || unit[field].length > 127)) {
      return {
        issue: "INVALID_STRING_LENGTH",
        field: `/purchase_units/@reference_id=='default'/${field}`,
        description: "The value of a field is either too short or too long.",
      };
    }
  }
  const paypal = (body.payment_source as any)?.paypal;
  const context = paypal?.experience_context ?? (body.application_context as any);
  if (typeof context?.return_url !== "string" || typeof context?.cancel_url !== "string") {
    return {
      issue: "MISSING_REQUIRED_PARAMETER",
      field: "/payment_source/paypal/experience_context/return_url",
      description: "A required field / parameter is missing.",
    };
  }
  return null;
}

function orderBody(state: PaypalMockState, order: PaypalMockOrder): Record<string, unknown> {
  const unit = (order.request.body.purchase_units as Array<Record<string, unknown>>)[0];
  const purchaseUnit: Record<string, unknown> = {
    reference_id: unit.reference_id ?? "default",
    amount: unit.amount,
    custom_id: unit.custom_id,
    description: unit.description,
  };
  if (order.captures.length > 0) {
    purchaseUnit.payments = {
      captures: order.captures.map((capture) => ({
        id: capture.id,
        status: capture.status,
        amount: capture.amount,
        final_capture: true,
        custom_id: unit.custom_id,
        seller_protection: { status: "ELIGIBLE", dispute_categories: ["ITEM_NOT_RECEIVED", "UNAUTHORIZED_TRANSACTION"] },
        links: [{ href: `${state.apiBase}/v2/payments/captures/${capture.id}`, rel: "self", method: "GET" }],
      })),
    };
  }
  return {
    id: order.id,
    intent: order.request.body.intent,
    status: order.status,
    payment_source: { paypal: { email_address: "comprador@example.com", account_status: "VERIFIED" } },
    purchase_units: [purchaseUnit],
    links: [{ href: `${state.apiBase}/v2/checkout/orders/${order.id}`, rel: "self", method: "GET" }],
  };
}

function checkBearer(state: PaypalMockState, request: Request): Response | null {
  const auth = request.headers.get("authorization") ?? "";
  const token = auth.startsWith("Bearer ") ? auth.slice("Bearer ".length) : "";
  if (token && state.accessTokens.has(token)) return null;
  return HttpResponse.json(
    {
      name: "AUTHENTICATION_FAILURE",
      message: "Authentication failed due to invalid authentication credentials or a missing Authorization header.",
      links: [{ href: "https://developer.paypal.com/docs/api/overview/#error", rel: "information_link" }],
    },
    { status: 401 },
  );
}

function invalidRequest(issue: string, field: string, location: string, description: string): Response {
  return HttpResponse.json(
    {
      name: "INVALID_REQUEST",
      message: "Request is not well-formed, syntactically incorrect, or violates schema.",
      debug_id: debugId(),
      details: [{ field, location, issue, description }],
    },
    { status: 400 },
  );
}

function unprocessable(issue: string, description: string): Response {
  return HttpResponse.json(
    {
      name: "UNPROCESSABLE_ENTITY",
      details: [{ issue, description }],
      message: "The requested action could not be performed, semantically incorrect, or failed business validation.",
      debug_id: debugId(),
    },
    { status: 422 },
  );
}

function notFound(): Response {
  return HttpResponse.json(
    {
      name: "RESOURCE_NOT_FOUND",
      details: [
        { issue: "INVALID_RESOURCE_ID", description: "Specified resource ID does not exist. Please check the resource ID and try again." },
      ],
      message: "The specified resource does not exist.",
      debug_id: debugId(),
    },
    { status: 404 },
  );
}

function requireOrder(state: PaypalMockState, orderId: string): PaypalMockOrder {
  const order = state.orders.get(orderId);
  if (!order) throw new Error(`No PayPal mock order ${orderId}`);
  return order;
}

function unitAmount(order: PaypalMockOrder): { currency_code: string; value: string } {
  const unit = (order.request.body.purchase_units as Array<Record<string, any>>)[0];
  return { currency_code: unit.amount.currency_code, value: unit.amount.value };
}

function newId(prefix: string): string {
  return `${prefix}${randomUUID().replace(/-/g, "").slice(0, 15).toUpperCase()}`;
}

function debugId(): string {
  return randomUUID().replace(/-/g, "").slice(0, 13);
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE) of the UTF-8 bytes, as the unsigned decimal PayPal signs. */
function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, "utf8")) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
