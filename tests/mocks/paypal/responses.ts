/** What the mock PayPal answers: an order as PayPal shows it, and its error bodies and statuses. */
import { randomUUID } from "node:crypto";
import { HttpResponse } from "msw";
import type { PaypalMockOrder, PaypalMockState } from "./state";

export function validateCreate(body: Record<string, unknown>): { issue: string; field: string; description: string } | null {
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

export function orderBody(state: PaypalMockState, order: PaypalMockOrder): Record<string, unknown> {
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

export function checkBearer(state: PaypalMockState, request: Request): Response | null {
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

export function invalidRequest(issue: string, field: string, location: string, description: string): Response {
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

export function unprocessable(issue: string, description: string): Response {
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

export function notFound(): Response {
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

export function debugId(): string {
  return randomUUID().replace(/-/g, "").slice(0, 13);
}
