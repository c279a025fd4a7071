/**
 * An in-memory Allpay (allpay.to/app/) for msw: `?show=getpayment` and `?show=paymentstatus`
 * (mode api10), JSON bodies signed with Allpay's SHA-256 `sign`, plus a builder for the signed
 * payment notification Allpay posts to the shop.
 *
 * The signature is re-implemented here from Allpay's reference code (PHP `getApiSignature`:
 * ksort, skip `sign` and empty values, items flattened with their keys sorted, join ":", then
 * ":" + key, sha256) — not imported from the adapter — so a green test checks our signing.
 *
 * Assumption: Allpay reports API errors as `{ error_code, error_msg }` (that is what its own
 * WooCommerce plugin reads); the HTTP status of such answers is not documented, so the mock
 * answers 200 like a PHP endpoint would, and the adapter must read the body.
 */
import { createHash, randomUUID } from "node:crypto";
import { http, HttpResponse, type HttpHandler } from "msw";

export type AllpayMockPayment = {
  orderId: string;
  /** The getpayment body exactly as received (parsed JSON). */
  request: Record<string, any>;
  paymentUrl: string;
  /** 0 not paid, 1 paid, 3 refunded, 4 partially refunded */
  status: number;
};

export type AllpayMockState = {
  apiBase: string;
  login: string;
  apiKey: string;
  payments: Map<string, AllpayMockPayment>;
  requests: Array<{ show: string | null; mode: string | null; body: string; rejected: string | null }>;
  /** Answer the next call with this HTTP status (e.g. 500) instead of handling it. */
  failNextWithStatus: number | null;
};

export function createAllpayMockState(init: Partial<Pick<AllpayMockState, "apiBase" | "login" | "apiKey">> = {}): AllpayMockState {
  return {
    apiBase: init.apiBase ?? "https://allpay.to/app/",
    login: init.login ?? "pp1234567",
    apiKey: init.apiKey ?? "A1B2C3D4E5F60718293A4B5C6D7E8F90",
    payments: new Map(),
    requests: [],
    failNextWithStatus: null,
  };
}

export function setAllpayStatus(state: AllpayMockState, orderId: string, status: number): void {
  const payment = state.payments.get(orderId);
  if (!payment) throw new Error(`No Allpay mock payment ${orderId}`);
  payment.status = status;
}

/** PHP's (string) cast of a value json_decode / $_POST produced, trimmed as the docs' code does. */
function phpString(value: unknown): string {
  if (value === null || value === undefined || value === false) return "";
  if (value === true) return "1";
  return String(value).trim();
}

function ksortEntries(obj: Record<string, unknown> | unknown[]): Array<[string, unknown]> {
  const entries: Array<[string, unknown]> = Array.isArray(obj) ? obj.map((v, i) => [String(i), v]) : Object.entries(obj);
  return entries.sort(([a], [b]) => {
    const na = /^\d+$/.test(a);
    const nb = /^\d+$/.test(b);
    if (na && nb) return Number(a) - Number(b);
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

/** Allpay's `sign`, following the reference getApiSignature($params, $apikey). */
export function allpayReferenceSignature(params: Record<string, unknown>, apiKey: string): string {
  const chunks: string[] = [];
  for (const [key, value] of ksortEntries(params)) {
    if (typeof value === "object" && value !== null) {
      for (const [, item] of ksortEntries(value as Record<string, unknown>)) {
        if (typeof item === "object" && item !== null) {
          for (const [, val] of ksortEntries(item as Record<string, unknown>)) {
            const text = phpString(val);
            if (text !== "") chunks.push(text);
          }
        } else {
          const text = phpString(item);
          if (text !== "") chunks.push(text);
        }
      }
    } else {
      const text = phpString(value);
      if (text !== "" && key !== "sign") chunks.push(text);
    }
  }
  return createHash("sha256")
    .update(`${chunks.join(":")}:${apiKey}`)
    .digest("hex");
}

/**
 * The notification Allpay posts after a payment, signed over every field but `sign`.
 * `format: "form"` sends it urlencoded with PHP-style `items[0][name]` keys.
 */
export function allpayNotification(
  state: AllpayMockState,
  orderId: string,
  opts: { status?: number; format?: "json" | "form"; apiKey?: string; extra?: Record<string, unknown> } = {},
): { rawBody: string; headers: Record<string, string>; params: Record<string, unknown> } {
  const payment = state.payments.get(orderId);
  if (!payment) throw new Error(`No Allpay mock payment ${orderId}`);
  const item = payment.request.items[0];
  const params: Record<string, unknown> = {
    name: item.name,
    items: [{ name: item.name, qty: String(item.qty), price: String(item.price), vat: String(item.vat ?? "0") }],
    amount: String(item.price),
    order_id: orderId,
    currency: payment.request.currency ?? "ILS",
    status: String(opts.status ?? 1),
    client_name: payment.request.client_name ?? "",
    client_email: payment.request.client_email ?? "",
    client_tehudat: "",
    client_phone: "",
    card_mask: "458045******4580",
    card_brand: "visa",
    foreign_card: "1",
    add_field_1: payment.request.add_field_1 ?? "",
    add_field_2: "",
    receipt: "https://allpay.to/receipt/?uid=test",
    ...opts.extra,
  };
  params.sign = allpayReferenceSignature(params, opts.apiKey ?? state.apiKey);

  if (opts.format === "form") {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) {
      if (Array.isArray(value)) {
        value.forEach((entry, index) => {
          for (const [field, fieldValue] of Object.entries(entry as Record<string, unknown>)) {
            form.append(`${key}[${index}][${field}]`, String(fieldValue));
          }
        });
      } else {
        form.append(key, String(value));
      }
    }
    return { rawBody: form.toString(), headers: { "content-type": "application/x-www-form-urlencoded" }, params };
  }
  return { rawBody: JSON.stringify(params), headers: { "content-type": "application/json" }, params };
}

export function allpayHandlers(state: AllpayMockState): HttpHandler[] {
  return [
    http.post(state.apiBase, async ({ request }) => {
      const url = new URL(request.url);
      const show = url.searchParams.get("show");
      const mode = url.searchParams.get("mode");
      const raw = await request.text();
      const entry = { show, mode, body: raw, rejected: null as string | null };
      state.requests.push(entry);

      if (state.failNextWithStatus !== null) {
        const status = state.failNextWithStatus;
        state.failNextWithStatus = null;
        return new HttpResponse("Internal Server Error", { status });
      }
      const reject = (reason: string, code: number, message: string) => {
        entry.rejected = reason;
        return HttpResponse.json({ error_code: code, error_msg: message });
      };

      if (mode !== "api10") return reject("mode", 2, "Unknown API mode");
      let body: Record<string, any>;
      try {
        body = JSON.parse(raw);
      } catch {
        return reject("json", 3, "Wrong request format");
      }
      if (typeof body !== "object" || body === null) return reject("json", 3, "Wrong request format");
      if (body.login !== state.login) return reject("login", 1, "Wrong login");
      if (typeof body.sign !== "string" || body.sign !== allpayReferenceSignature(body, state.apiKey)) {
        return reject("sign", 4, "Wrong signature");
      }

      if (show === "getpayment") {
        if (typeof body.order_id !== "string" || body.order_id === "") return reject("order_id", 5, "order_id is required");
        if (!Array.isArray(body.items) || body.items.length === 0) return reject("items", 6, "items are required");
        for (const item of body.items) {
          if (typeof item?.name !== "string" || item.name === "") return reject("items", 6, "Item name is required");
          if (!/^\d+(\.\d{1,2})?$/.test(String(item.price))) return reject("items", 7, "Wrong item price");
          if (!/^\d+$/.test(String(item.qty))) return reject("items", 8, "Wrong item qty");
        }
        const existing = state.payments.get(body.order_id);
        const payment: AllpayMockPayment = existing ?? {
          orderId: body.order_id,
          request: body,
          paymentUrl: `https://allpay.to/pay/?uid=${randomUUID()}`,
          status: 0,
        };
        state.payments.set(payment.orderId, payment);
        return HttpResponse.json({ payment_url: payment.paymentUrl });
      }

      if (show === "paymentstatus") {
        const payment = state.payments.get(String(body.order_id));
        if (!payment) return reject("order_id", 9, "Payment not found");
        const amount = payment.request.items.reduce(
          (sum: number, item: Record<string, unknown>) => sum + Math.round(Number(item.price) * 100) * Number(item.qty),
          0,
        );
        return HttpResponse.json({
          order_id: payment.orderId,
          status: payment.status,
          amount: (amount / 100).toFixed(2),
          currency: payment.request.currency ?? "ILS",
          receipt: payment.status === 1 ? "https://allpay.to/receipt/?uid=test" : "",
        });
      }

      return reject("show", 2, "Unknown method");
    }),
  ];
}
