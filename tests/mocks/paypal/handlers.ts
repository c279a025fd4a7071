/** The msw handlers of the mock PayPal's endpoints: OAuth2 token, Orders v2 and webhook verification. */
import { randomUUID } from "node:crypto";
import { http, HttpResponse, type HttpHandler } from "msw";
import { checkBearer, debugId, invalidRequest, notFound, orderBody, unprocessable, validateCreate } from "./responses";
import { newId, unitAmount, type PaypalMockOrder, type PaypalMockState } from "./state";
import { verifyTransmission } from "./webhooks";

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
