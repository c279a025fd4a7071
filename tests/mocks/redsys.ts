/**
 * A stand-in Redsys (the Spanish banks' virtual POS): it receives the shop's signed payment form,
 * decides the payment as a test says (authorised, denied, cancelled by the buyer), signs and sends
 * its notification (on time, late, twice, or forged), and answers REST refunds (transaction type 3).
 *
 * The signature is written here again from Redsys's guides, independently of the adapter
 * (api/payments/redsys-signature.ts), so a green test proves our signing is right:
 *
 *   key  = 3DES-CBC(base64-decoded merchant key, IV 0, the order number zero-padded to 8 bytes)
 *   sign = HMAC-SHA256(key, Ds_MerchantParameters) → base64 (base64url in notifications)
 *
 * Used in three ways: msw handlers for the REST refund (unit and API tests), and the HTTP server of
 * tests/support/redsys-stand-in.ts that renders the payment page for the browser (E2E).
 */
import { createCipheriv, createHmac } from "node:crypto";
import { http, HttpResponse, type HttpHandler } from "msw";

export type StandInOutcome = "authorised" | "denied" | "cancelled";
/** How notifications go out: on time (before the buyer returns, as Redsys does), after the buyer's return, twice, forged first, or never. */
export type NotifyMode = "normal" | "late" | "twice" | "forged" | "none";

export type StandInOrder = {
  order: string;
  /** The shop's Ds_MerchantParameters, decoded. */
  params: Record<string, string>;
  outcome: StandInOutcome | null;
  refundedCents: number;
};

export type RedsysStandIn = {
  apiBase: string;
  merchantCode: string;
  terminal: string;
  secretKey: string;
  orders: Map<string, StandInOrder>;
  /** Every REST call, with why it was refused (null: accepted). */
  restCalls: { params: Record<string, string> | null; refused: string | null }[];
  notifyMode: NotifyMode;
  /** Ms the late notification waits after the buyer's return. */
  lateMs: number;
  /** The notifications sent, as the shop answered them. */
  sent: { order: string; forged: boolean; status: number }[];
};

/** Redsys's public test terminal (its documentation's example). */
export const TEST_TERMINAL = { merchantCode: "999008881", terminal: "1", secretKey: "sq7HjrUOBfKmC576ILgskD5srU870gJ7" } as const;

export function createRedsysStandIn(
  init: Partial<Pick<RedsysStandIn, "apiBase" | "merchantCode" | "terminal" | "secretKey">> = {},
): RedsysStandIn {
  return {
    apiBase: (init.apiBase ?? "https://sis-t.redsys.es:25443").replace(/\/+$/, ""),
    merchantCode: init.merchantCode ?? TEST_TERMINAL.merchantCode,
    terminal: init.terminal ?? TEST_TERMINAL.terminal,
    secretKey: init.secretKey ?? TEST_TERMINAL.secretKey,
    orders: new Map(),
    restCalls: [],
    notifyMode: "normal",
    lateMs: 1500,
    sent: [],
  };
}

export function redsysSignature(secretKey: string, order: string, merchantParameters: string, encoding: "base64" | "base64url" = "base64") {
  const orderBytes = Buffer.from(order, "utf8");
  const block = Buffer.alloc(Math.ceil(orderBytes.length / 8) * 8);
  orderBytes.copy(block);
  const des = createCipheriv("des-ede3-cbc", Buffer.from(secretKey, "base64"), Buffer.alloc(8, 0)).setAutoPadding(false);
  const key = Buffer.concat([des.update(block), des.final()]);
  const mac = createHmac("sha256", key).update(merchantParameters).digest("base64");
  return encoding === "base64" ? mac : mac.replace(/\+/g, "-").replace(/\//g, "_");
}

export type SignedFields = { Ds_SignatureVersion: string; Ds_MerchantParameters: string; Ds_Signature: string };

/** A message signed the way Redsys signs its own: the order's key, base64url. */
export function signAsRedsys(state: RedsysStandIn, params: Record<string, string>): SignedFields {
  const merchantParameters = Buffer.from(JSON.stringify(params)).toString("base64");
  return {
    Ds_SignatureVersion: "HMAC_SHA256_V1",
    Ds_MerchantParameters: merchantParameters,
    Ds_Signature: redsysSignature(state.secretKey, params.Ds_Order ?? params.DS_ORDER, merchantParameters, "base64url"),
  };
}

/** The same message with one bit of its signature flipped. */
export function forged(fields: SignedFields): SignedFields {
  const bytes = Buffer.from(fields.Ds_Signature.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  bytes[0] ^= 1;
  return { ...fields, Ds_Signature: bytes.toString("base64") };
}

/** Reads a signed request from the shop; the decoded parameters, or Redsys's error code. */
export function readSignedRequest(
  state: RedsysStandIn,
  fields: Record<string, unknown>,
): { params: Record<string, string> } | { error: string } {
  if (fields.Ds_SignatureVersion !== "HMAC_SHA256_V1") return { error: "SIS0040" };
  const merchantParameters = fields.Ds_MerchantParameters;
  if (typeof merchantParameters !== "string" || typeof fields.Ds_Signature !== "string") return { error: "SIS0042" };
  let params: Record<string, string>;
  try {
    params = JSON.parse(Buffer.from(merchantParameters, "base64").toString("utf8"));
  } catch {
    return { error: "SIS0042" };
  }
  const get = (name: string) => params[name] ?? params[name.toUpperCase()];
  const order = get("Ds_Merchant_Order");
  if (typeof order !== "string" || !/^\d{4}[0-9A-Za-z]{0,8}$/.test(order)) return { error: "SIS0074" };
  if (redsysSignature(state.secretKey, order, merchantParameters) !== fields.Ds_Signature) return { error: "SIS0042" };
  if (get("Ds_Merchant_MerchantCode") !== state.merchantCode) return { error: "SIS0026" };
  if (Number(get("Ds_Merchant_Terminal")) !== Number(state.terminal)) return { error: "SIS0026" };
  return { params };
}

/** The buyer arrives with the shop's form: the order is registered (Redsys refuses one it already has). */
export function receivePaymentForm(state: RedsysStandIn, fields: Record<string, unknown>): StandInOrder | { error: string } {
  const read = readSignedRequest(state, fields);
  if ("error" in read) return read;
  const order = read.params.DS_MERCHANT_ORDER;
  const existing = state.orders.get(order);
  if (existing?.outcome) return { error: "SIS0051" };
  const entry: StandInOrder = existing ?? { order, params: read.params, outcome: null, refundedCents: 0 };
  state.orders.set(order, entry);
  return entry;
}

const RESPONSE: Record<StandInOutcome, string> = { authorised: "0000", denied: "0190", cancelled: "9915" };

/** Redsys's notification about an order, as it posts it (form fields); `changes` alters what it says. */
export function notificationFor(
  state: RedsysStandIn,
  order: StandInOrder,
  outcome: StandInOutcome,
  changes: Record<string, string> = {},
): SignedFields {
  const p = order.params;
  const now = new Date();
  const two = (n: number) => String(n).padStart(2, "0");
  return signAsRedsys(state, {
    Ds_Date: encodeURIComponent(`${two(now.getDate())}/${two(now.getMonth() + 1)}/${now.getFullYear()}`),
    Ds_Hour: encodeURIComponent(`${two(now.getHours())}:${two(now.getMinutes())}`),
    Ds_SecurePayment: outcome === "authorised" ? "1" : "0",
    Ds_Amount: p.DS_MERCHANT_AMOUNT,
    Ds_Currency: p.DS_MERCHANT_CURRENCY,
    Ds_Order: order.order,
    Ds_MerchantCode: state.merchantCode,
    Ds_Terminal: state.terminal.padStart(3, "0"),
    Ds_Response: RESPONSE[outcome],
    Ds_MerchantData: p.DS_MERCHANT_MERCHANTDATA ?? "",
    Ds_TransactionType: "0",
    Ds_ConsumerLanguage: "1",
    Ds_AuthorisationCode: outcome === "authorised" ? String(100000 + Math.floor(Math.random() * 899999)) : "++++++",
    // 68: Bizum, 1: a card.
    Ds_ProcessedPayMethod: p.DS_MERCHANT_PAYMETHODS === "z" ? "68" : "1",
    ...changes,
  });
}

/** Posts a notification to the shop's Ds_Merchant_MerchantURL, form-encoded, as Redsys does. */
export async function postNotification(state: RedsysStandIn, order: StandInOrder, fields: SignedFields, isForged = false): Promise<number> {
  const response = await fetch(order.params.DS_MERCHANT_MERCHANTURL, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  await response.text();
  state.sent.push({ order: order.order, forged: isForged, status: response.status });
  return response.status;
}

/**
 * The buyer pressed «Autorizar», «Denegar» or «Cancelar»: the order is decided, the notification
 * goes out as `state.notifyMode` says, and the address the buyer is sent back to is returned.
 * With "late" the notification is sent `lateMs` after (the caller redirects first).
 */
export async function decide(
  state: RedsysStandIn,
  order: StandInOrder,
  outcome: StandInOutcome,
): Promise<{ returnTo: string; late?: Promise<unknown> }> {
  order.outcome = outcome;
  const message = notificationFor(state, order, outcome);
  const mode = state.notifyMode;
  if (mode === "forged") await postNotification(state, order, forged(message), true);
  if (mode === "normal" || mode === "twice" || mode === "forged") await postNotification(state, order, message);
  if (mode === "twice") await postNotification(state, order, message);
  const late =
    mode === "late"
      ? new Promise((resolve) => setTimeout(resolve, state.lateMs)).then(() => postNotification(state, order, message))
      : undefined;
  const returnTo = outcome === "authorised" ? order.params.DS_MERCHANT_URLOK : order.params.DS_MERCHANT_URLKO;
  return { returnTo, late };
}

/** POST /sis/rest/trataPeticionREST: refunds (type 3) of authorised orders, at most what was charged. */
export function restAnswer(state: RedsysStandIn, body: unknown): Record<string, string> {
  const read = readSignedRequest(state, typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {});
  if ("error" in read) {
    state.restCalls.push({ params: null, refused: read.error });
    return { errorCode: read.error };
  }
  const { params } = read;
  const refuse = (code: string) => {
    state.restCalls.push({ params, refused: code });
    return { errorCode: code };
  };
  if (params.DS_MERCHANT_TRANSACTIONTYPE !== "3") return refuse("SIS0054");
  const order = state.orders.get(params.DS_MERCHANT_ORDER);
  if (!order || order.outcome !== "authorised") return refuse("SIS0062");
  const amount = Number(params.DS_MERCHANT_AMOUNT);
  if (!Number.isInteger(amount) || amount <= 0 || order.refundedCents + amount > Number(order.params.DS_MERCHANT_AMOUNT)) {
    return refuse("SIS0057");
  }
  order.refundedCents += amount;
  state.restCalls.push({ params, refused: null });
  return signAsRedsys(state, {
    Ds_Amount: String(amount),
    Ds_Currency: params.DS_MERCHANT_CURRENCY,
    Ds_Order: order.order,
    Ds_MerchantCode: state.merchantCode,
    Ds_Terminal: state.terminal,
    Ds_Response: "0900",
    Ds_AuthorisationCode: "REFUND",
    Ds_TransactionType: "3",
    Ds_SecurePayment: "0",
    Ds_Language: "1",
    Ds_MerchantData: "",
  });
}

/** msw: Redsys's REST endpoint answered by the stand-in. */
export function redsysHandlers(state: RedsysStandIn): HttpHandler[] {
  return [
    http.post(`${state.apiBase}/sis/rest/trataPeticionREST`, async ({ request }) => {
      let body: unknown = null;
      try {
        body = await request.json();
      } catch {
        // Redsys answers garbage with an error code too.
      }
      return HttpResponse.json(restAnswer(state, body));
    }),
  ];
}
