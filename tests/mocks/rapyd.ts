/**
 * An in-memory Rapyd Collect (checkout pages) for msw. Every request is authenticated the way
 * Rapyd does it (docs.rapyd.net/en/request-signatures), with the signature recomputed here from
 * the docs — independently of the adapter — so a green test proves our signing is right:
 *
 *   signature = BASE64( HEX( HMAC-SHA256(secret_key,
 *     http_method(lower) + url_path + salt + timestamp + access_key + secret_key + body_string) ) )
 *
 * Failures answer with Rapyd's envelope `{ status: { error_code, status: "ERROR", message,
 * response_code, operation_id } }`.
 */
import { createHmac, randomUUID } from "node:crypto";
import { http, HttpResponse, type HttpHandler } from "msw";

/** Rapyd payment statuses: ACT active/awaiting, CLO closed (paid), CAN canceled, ERR error, EXP expired. */
export type RapydPaymentStatus = "ACT" | "CLO" | "CAN" | "ERR" | "EXP";

export type RapydMockCheckout = {
  id: string;
  /** The create body exactly as received (parsed). */
  body: Record<string, any>;
  redirectUrl: string;
  payment: null | { id: string; status: RapydPaymentStatus; amount: number; currency_code: string };
};

export type RapydMockRequest = {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Why the mock refused it, or null when it was authenticated. */
  rejected: string | null;
};

export type RapydMockState = {
  apiBase: string;
  accessKey: string;
  secretKey: string;
  checkouts: Map<string, RapydMockCheckout>;
  /** idempotency header → checkout id */
  idempotency: Map<string, string>;
  requests: RapydMockRequest[];
  /** Clock used to check request timestamps (ms). */
  now: () => number;
};

export function createRapydMockState(
  init: Partial<Pick<RapydMockState, "apiBase" | "accessKey" | "secretKey" | "now">> = {},
): RapydMockState {
  return {
    apiBase: (init.apiBase ?? "https://sandboxapi.rapyd.net").replace(/\/+$/, ""),
    accessKey: init.accessKey ?? "rak_TESTACCESSKEY0000001",
    secretKey: init.secretKey ?? "rsk_testsecretkey0000000000000000000000000000000000000000000000000000000",
    checkouts: new Map(),
    idempotency: new Map(),
    requests: [],
    now: init.now ?? Date.now,
  };
}

/** The buyer finished (or abandoned) the checkout page with this payment status. */
export function setRapydPayment(state: RapydMockState, checkoutId: string, status: RapydPaymentStatus, amount?: number): void {
  const checkout = state.checkouts.get(checkoutId);
  if (!checkout) throw new Error(`No Rapyd mock checkout ${checkoutId}`);
  checkout.payment = {
    id: checkout.payment?.id ?? `payment_${hex(32)}`,
    status,
    amount: amount ?? Number(checkout.body.amount),
    currency_code: String(checkout.body.currency),
  };
}

/**
 * Rapyd's signature, written from the docs. For requests pass the lower-case method and the path
 * (from /v1, with query); for webhooks pass method "" and the full webhook URL as the path.
 */
export function rapydSignature(parts: {
  method: string;
  path: string;
  salt: string;
  timestamp: string;
  accessKey: string;
  secretKey: string;
  body: string;
}): string {
  const toSign = `${parts.method}${parts.path}${parts.salt}${parts.timestamp}${parts.accessKey}${parts.secretKey}${parts.body}`;
  const hexDigest = createHmac("sha256", parts.secretKey).update(toSign, "utf8").digest("hex");
  return Buffer.from(hexDigest, "utf8").toString("base64");
}

/** A webhook delivery as Rapyd sends it: headers salt, timestamp, signature over url + … + body. */
export function signRapydWebhook(
  state: RapydMockState,
  args: { url: string; body: Record<string, unknown> | string; timestamp?: number; salt?: string },
): { rawBody: string; headers: Record<string, string> } {
  const rawBody = typeof args.body === "string" ? args.body : JSON.stringify(args.body);
  const timestamp = String(args.timestamp ?? Math.floor(state.now() / 1000));
  const salt = args.salt ?? "Oac9iU3wivthSAIv";
  const signature = rapydSignature({
    method: "",
    path: args.url,
    salt,
    timestamp,
    accessKey: state.accessKey,
    secretKey: state.secretKey,
    body: rawBody,
  });
  return { rawBody, headers: { "content-type": "application/json", salt, timestamp, signature } };
}

export function rapydHandlers(state: RapydMockState): HttpHandler[] {
  const base = state.apiBase;
  const basePath = new URL(base).pathname.replace(/\/+$/, "");

  /** Checks Rapyd's authentication headers; returns the error response or the raw body. */
  async function authenticate(request: Request): Promise<{ error: Response } | { body: string }> {
    const url = new URL(request.url);
    const path = `${url.pathname.slice(basePath.length)}${url.search}`;
    const body = await request.text();
    const headers = Object.fromEntries(request.headers);
    const entry: RapydMockRequest = { method: request.method, path, headers, body, rejected: null };
    state.requests.push(entry);

    const accessKey = request.headers.get("access_key");
    const salt = request.headers.get("salt") ?? "";
    const timestamp = request.headers.get("timestamp") ?? "";
    const signature = request.headers.get("signature") ?? "";
    let reason: string | null = null;
    if (accessKey !== state.accessKey) reason = "access_key";
    else if (salt.length < 8 || salt.length > 16) reason = "salt";
    else if (!/^\d+$/.test(timestamp) || Math.abs(state.now() / 1000 - Number(timestamp)) > 60) reason = "timestamp";
    else if (!request.headers.get("content-type")?.includes("application/json")) reason = "content-type";
    else {
      const expected = rapydSignature({
        method: request.method.toLowerCase(),
        path,
        salt,
        timestamp,
        accessKey: state.accessKey,
        secretKey: state.secretKey,
        body,
      });
      if (expected !== signature) reason = "signature";
    }
    if (reason) {
      entry.rejected = reason;
      return {
        error: rapydError(
          401,
          "UNAUTHENTICATED_API_CALL",
          "The request attempted an operation that requires authentication, but the signature or one of the authentication headers was wrong. Corrective action: Check your access key, salt, timestamp and signature.",
        ),
      };
    }
    return { body };
  }

  return [
    http.post(`${base}/v1/checkout`, async ({ request }) => {
      const auth = await authenticate(request);
      if ("error" in auth) return auth.error;

      const idempotency = request.headers.get("idempotency");
      if (idempotency && state.idempotency.has(idempotency)) {
        const existing = state.checkouts.get(state.idempotency.get(idempotency)!)!;
        return rapydOk(checkoutBody(existing));
      }

      let body: Record<string, any>;
      try {
        body = JSON.parse(auth.body);
      } catch {
        return rapydError(400, "INVALID_FIELDS", "The request body is not valid JSON.");
      }
      if (typeof body.amount !== "number" || !(body.amount > 0)) {
        return rapydError(
          400,
          "ERROR_CREATE_CHECKOUT_INVALID_AMOUNT",
          "The request tried to create a checkout page, but the amount was missing or not a positive number.",
        );
      }
      if (typeof body.currency !== "string" || typeof body.country !== "string") {
        return rapydError(
          400,
          "ERROR_CREATE_CHECKOUT_INVALID_FIELDS",
          "The request tried to create a checkout page, but the country or currency was missing.",
        );
      }

      const id = `checkout_${hex(32)}`;
      const checkout: RapydMockCheckout = {
        id,
        body,
        redirectUrl: `https://sandboxcheckout.rapyd.net?token=${id}`,
        payment: null,
      };
      state.checkouts.set(id, checkout);
      if (idempotency) state.idempotency.set(idempotency, id);
      return rapydOk(checkoutBody(checkout));
    }),

    http.get(`${base}/v1/checkout/:id`, async ({ request, params }) => {
      const auth = await authenticate(request);
      if ("error" in auth) return auth.error;
      const checkout = state.checkouts.get(String(params.id));
      if (!checkout) {
        return rapydError(404, "ERROR_GET_CHECKOUT", "The request tried to retrieve a checkout page, but the checkout page was not found.");
      }
      return rapydOk(checkoutBody(checkout));
    }),
  ];
}

function checkoutBody(checkout: RapydMockCheckout): Record<string, unknown> {
  const body = checkout.body;
  return {
    id: checkout.id,
    status: checkout.payment ? "DON" : "NEW",
    language: body.language ?? null,
    amount: body.amount,
    currency: body.currency,
    country: body.country,
    description: body.description ?? "",
    merchant_reference_id: body.merchant_reference_id ?? "",
    complete_checkout_url: body.complete_checkout_url ?? "",
    cancel_checkout_url: body.cancel_checkout_url ?? "",
    metadata: body.metadata ?? null,
    redirect_url: checkout.redirectUrl,
    page_expiration: Math.floor(Date.now() / 1000) + 14 * 24 * 3600,
    timestamp: Math.floor(Date.now() / 1000),
    payment: checkout.payment
      ? {
          id: checkout.payment.id,
          amount: checkout.payment.amount,
          currency_code: checkout.payment.currency_code,
          status: checkout.payment.status,
          paid: checkout.payment.status === "CLO",
          captured: checkout.payment.status === "CLO",
          merchant_reference_id: body.merchant_reference_id ?? "",
        }
      : // Before the buyer pays, Rapyd returns an empty payment shell.
        { id: null, amount: 0, currency_code: null, status: null, paid: false, captured: false },
  };
}

function rapydOk(data: Record<string, unknown>): Response {
  return HttpResponse.json({
    status: { error_code: "", status: "SUCCESS", message: "", response_code: "", operation_id: randomUUID() },
    data,
  });
}

function rapydError(status: number, code: string, message: string): Response {
  return HttpResponse.json(
    { status: { error_code: code, status: "ERROR", message, response_code: code, operation_id: randomUUID() } },
    { status },
  );
}

function hex(length: number): string {
  return randomUUID().replace(/-/g, "").concat(randomUUID().replace(/-/g, "")).slice(0, length);
}
