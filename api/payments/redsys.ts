/**
 * Redsys adapter (the virtual POS of the Spanish banks): cards, and Bizum when the terminal has it.
 *
 * - Pay: a redirect. The buyer's browser posts a signed form (Ds_SignatureVersion,
 *   Ds_MerchantParameters, Ds_Signature) to {apiBase}/sis/realizarPago; our page holding that form
 *   is routes/redsys.ts. Transaction type 0 (authorisation) charges at once: there is no capture.
 * - Notification: Redsys posts the same three fields, signed with the order's key, to
 *   /api/v0/redsys/webhook/. What it says is recorded (redsys-orders.ts); capturePayment reads it.
 * - Refund: POST {apiBase}/sis/rest/trataPeticionREST, transaction type 3, answered with Ds_Response
 *   0900 when the money goes back, or {errorCode: "SIS…"} when refused.
 *
 * Amounts are whole cents (Ds_Merchant_Amount "1999" is 19,99 €); the currency is 978 (EUR).
 */
import type { Database } from "#api/db/client";
import {
  PaymentProviderError,
  type CreatePaymentInput,
  type CreatePaymentResult,
  type PaymentMethod,
  type PaymentProvider,
  type PaymentState,
  type RefundInput,
  type RefundResult,
  type WebhookEvent,
  type WebhookRequest,
} from "./types";
import { header, parseJsonObject, providerHttp, type ApiResponse } from "./http";
import { decodeParameters, encodeParameters, field, signParameters, signRequest, verifiedParameters } from "./redsys-signature";
import {
  authorisedOrder,
  CANCELLED_BY_BUYER,
  insertOrder,
  isAuthorised,
  latestOrder,
  orderByNumber,
  recordOutcome,
  type RedsysOrder,
} from "./redsys-orders";
import { paymentMethodsOf } from "#rules/payments";

export type RedsysProviderOptions = {
  merchantCode: string;
  /** Without leading zeros, as Redsys answers it. */
  terminal: string;
  /** base64, 24 bytes. */
  secretKey: string;
  /** https://sis-t.redsys.es:25443 (test) or https://sis.redsys.es (live), or a stand-in. */
  apiBase: string;
  bizum: boolean;
  fetch?: typeof fetch;
  /** Each call's deadline (PAYMENT_TIMEOUT_MS). */
  timeoutMs?: number;
};

/** The form the buyer's browser posts to Redsys. */
export type RedsysForm = { action: string; fields: Record<string, string>; payMethod: PaymentMethod; orderNumber: string };

export type RedsysProvider = PaymentProvider & {
  /**
   * The form of the transaction's payment in the way the buyer chose: its newest order, or a new
   * order when the buyer switched between card and Bizum. Null when the transaction has none.
   */
  paymentForm(transactionId: string, method?: PaymentMethod): Promise<RedsysForm | null>;
};

const EURO = "978";
/** Ds_Merchant_PayMethods: C cards only, z Bizum only. */
const PAY_METHODS: Record<PaymentMethod, string> = { card: "C", bizum: "z" };
/** Ds_Merchant_ConsumerLanguage 1: the payment page in Spanish. */
const SPANISH = "1";
/** Ds_Merchant_ProductDescription holds at most 125 characters; Ds_Merchant_Titular 60. */
const MAX_DESCRIPTION = 125;
const MAX_HOLDER = 60;
/** Ds_Response of a refund (or a confirmation) that went through. */
const REFUND_DONE = 900;

export function createRedsysProvider(db: Database, opts: RedsysProviderOptions): RedsysProvider {
  const base = opts.apiBase.replace(/\/+$/, "");
  const call = providerHttp({ provider: "redsys", fetch: opts.fetch, timeoutMs: opts.timeoutMs });
  const methods = paymentMethodsOf("redsys", { bizum: opts.bizum });

  /** The order's signed form. Signed as it is shown, so a rotated key signs pages opened since. */
  function formOf(order: RedsysOrder): RedsysForm {
    return {
      action: `${base}/sis/realizarPago`,
      fields: {
        Ds_SignatureVersion: "HMAC_SHA256_V1",
        Ds_MerchantParameters: order.merchantParameters,
        Ds_Signature: signParameters(opts.secretKey, order.orderNumber, order.merchantParameters),
      },
      payMethod: order.payMethod as PaymentMethod,
      orderNumber: order.orderNumber,
    };
  }

  return {
    name: "redsys",
    flow: "redirect",
    methods,

    async createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult> {
      const method = input.paymentMethod ?? "card";
      if (!methods.includes(method)) throw new PaymentProviderError(`Redsys no ofrece ${method} en esta tienda.`, "redsys");
      const params = paymentParameters(opts, input, method);
      const order = await insertOrder(db, input.transactionId, method, (orderNumber) =>
        encodeParameters({ ...params, DS_MERCHANT_ORDER: orderNumber }),
      );
      const origin = new URL(input.webhookUrl).origin;
      return { flow: "redirect", redirectUrl: `${origin}/api/v0/redsys/pay/${input.transactionId}/`, providerRef: order.orderNumber };
    },

    async paymentForm(transactionId, method) {
      const latest = await latestOrder(db, transactionId);
      if (!latest) return null;
      if (!method || method === latest.payMethod || !methods.includes(method)) return formOf(latest);
      // The buyer came back and chose the other way of paying: a new order number, as Redsys may
      // refuse one it has already shown. The old one still counts if it gets paid after all.
      const params = decodeParameters(latest.merchantParameters) as Record<string, string>;
      const order = await insertOrder(db, transactionId, method, (orderNumber) =>
        encodeParameters({ ...params, DS_MERCHANT_ORDER: orderNumber, DS_MERCHANT_PAYMETHODS: PAY_METHODS[method] }),
      );
      return formOf(order);
    },

    async capturePayment(payment): Promise<PaymentState> {
      // An authorisation is the charge: only Redsys's signed word about it, recorded, is read here.
      const fallback = { amountCents: payment.amountCents, currency: payment.currency, providerRef: payment.providerRef };
      const paid = await authorisedOrder(db, payment.transactionId);
      if (paid) {
        if (paid.amountCents === null || paid.currency === null) {
          return { status: "pending", ...fallback, unreadable: "redsys autorizó el pago sin un importe y una moneda legibles" };
        }
        return { status: "captured", amountCents: paid.amountCents, currency: paid.currency, providerRef: paid.orderNumber };
      }
      const latest = await latestOrder(db, payment.transactionId);
      if (!latest || (latest.responseCode !== null && !isAuthorised(latest.responseCode))) return { status: "declined", ...fallback };
      return { status: "pending", ...fallback };
    },

    async verifyWebhook(request: WebhookRequest): Promise<WebhookEvent | null> {
      const params = verifiedParameters(opts.secretKey, messageOf(request));
      if (!params) return null;
      const said = notificationOf(params, opts);
      const eventId = `${said.orderNumber}:${said.type}:${said.code ?? "?"}`;
      // Signed with our key but for another terminal or merchant, or not a payment (a refund's
      // own notification): acknowledged, and nothing is done with it.
      const order = said.ours && said.type === "0" && said.code !== null ? await orderByNumber(db, said.orderNumber) : null;
      if (!order || said.code === null) return { eventId, kind: "other", transactionId: null, providerRef: said.orderNumber };
      await recordOutcome(db, said.orderNumber, {
        responseCode: said.code,
        amountCents: said.amountCents,
        currency: said.currency,
        authorisationCode: said.authorisationCode,
      });
      const base = { eventId, transactionId: order.transactionId, providerRef: said.orderNumber };
      if (isAuthorised(said.code)) return { ...base, kind: "payment.completed", settled: true };
      return { ...base, kind: "payment.failed", failure: said.code === CANCELLED_BY_BUYER ? "cancelled" : "declined" };
    },

    async refundPayment(refund: RefundInput): Promise<RefundResult> {
      const paid = await authorisedOrder(db, refund.transactionId);
      if (!paid || paid.amountCents === null) return { status: "refused", reason: "Redsys no ha confirmado el cobro de este pago." };
      const amount = refund.amountCents ?? paid.amountCents;
      const request = signRequest(opts.secretKey, {
        DS_MERCHANT_AMOUNT: String(amount),
        DS_MERCHANT_ORDER: paid.orderNumber,
        DS_MERCHANT_MERCHANTCODE: opts.merchantCode,
        DS_MERCHANT_CURRENCY: EURO,
        DS_MERCHANT_TRANSACTIONTYPE: "3",
        DS_MERCHANT_TERMINAL: opts.terminal,
      });
      const res = await call(`${base}/sis/rest/trataPeticionREST`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(request),
      });
      return refundAnswer(opts.secretKey, paid.orderNumber, amount, res);
    },
  };
}

/**
 * The parameters of a payment (all but its order number): the amount in cents, euros (978), the
 * notification, our two return routes, Spanish, and the way of paying (C cards, z Bizum).
 */
export function paymentParameters(
  opts: Pick<RedsysProviderOptions, "merchantCode" | "terminal">,
  input: CreatePaymentInput,
  method: PaymentMethod,
): Record<string, string> {
  if (input.currency !== "EUR") throw new PaymentProviderError(`Redsys cobra en euros, no en ${input.currency}.`, "redsys");
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) throw new PaymentProviderError("Importe no válido.", "redsys");
  const origin = new URL(input.webhookUrl).origin;
  const params: Record<string, string> = {
    DS_MERCHANT_AMOUNT: String(input.amountCents),
    DS_MERCHANT_CURRENCY: EURO,
    DS_MERCHANT_MERCHANTCODE: opts.merchantCode,
    DS_MERCHANT_TERMINAL: opts.terminal,
    DS_MERCHANT_TRANSACTIONTYPE: "0",
    DS_MERCHANT_MERCHANTURL: input.webhookUrl,
    // Our own return routes, keyed by the path: Redsys may append its signed fields to the query.
    DS_MERCHANT_URLOK: `${origin}/api/v0/redsys/ok/${input.transactionId}/`,
    DS_MERCHANT_URLKO: `${origin}/api/v0/redsys/ko/${input.transactionId}/`,
    DS_MERCHANT_CONSUMERLANGUAGE: SPANISH,
    DS_MERCHANT_PRODUCTDESCRIPTION: plain(input.description, MAX_DESCRIPTION) || "Ofertas",
    DS_MERCHANT_MERCHANTDATA: input.transactionId,
    DS_MERCHANT_PAYMETHODS: PAY_METHODS[method],
  };
  const holder = plain(input.fullName ?? "", MAX_HOLDER);
  if (holder) params.DS_MERCHANT_TITULAR = holder;
  return params;
}

export type Notification = {
  orderNumber: string;
  /** Ds_TransactionType: "0" a payment, "3" a refund… */
  type: string;
  /** Ds_Response as a number; null when it is not digits. */
  code: number | null;
  amountCents: number | null;
  /** "EUR" for 978, else the numeric code Redsys wrote (never equal to a sale's currency). */
  currency: string | null;
  authorisationCode: string | null;
  /** Our merchant code and terminal. */
  ours: boolean;
};

/** What a verified notification says. */
export function notificationOf(
  params: Record<string, unknown>,
  opts: Pick<RedsysProviderOptions, "merchantCode" | "terminal">,
): Notification {
  const terminal = field(params, "Ds_Terminal");
  const currency = field(params, "Ds_Currency");
  return {
    orderNumber: field(params, "Ds_Order") ?? "",
    type: field(params, "Ds_TransactionType") ?? "",
    code: numberField(params, "Ds_Response"),
    amountCents: numberField(params, "Ds_Amount"),
    currency: currency === EURO ? "EUR" : currency,
    authorisationCode: field(params, "Ds_AuthorisationCode"),
    ours:
      field(params, "Ds_MerchantCode") === opts.merchantCode &&
      terminal !== null &&
      /^\d+$/.test(terminal) &&
      String(Number(terminal)) === opts.terminal,
  };
}

/**
 * Redsys's answer to a refund: refused with its error code, refunded (Ds_Response 0900, signed by
 * the order's key), or, when the answer is not one Redsys would sign, an error (outcome unknown).
 */
export function refundAnswer(secretKey: string, orderNumber: string, amount: number, res: ApiResponse): RefundResult {
  const json = res.json;
  const errorCode = json && typeof json.errorCode === "string" ? json.errorCode : null;
  if (errorCode) return { status: "refused", reason: `Redsys no ha aceptado la devolución (${errorCode}).` };
  const params = res.ok && json ? verifiedParameters(secretKey, json) : null;
  if (!params || field(params, "Ds_Order") !== orderNumber) {
    throw new PaymentProviderError("Redsys respondió a la devolución sin una firma válida.", "redsys", res.status);
  }
  const code = numberField(params, "Ds_Response");
  if (code !== REFUND_DONE) return { status: "refused", reason: `Redsys ha denegado la devolución (Ds_Response ${code ?? "ausente"}).` };
  return { status: "refunded", amountCents: numberField(params, "Ds_Amount") ?? amount };
}

/** The three signed fields of a notification: a form post (Redsys's way), or JSON. Never throws. */
function messageOf(request: WebhookRequest): Record<string, unknown> {
  const raw = request.rawBody.trim();
  const contentType = header(request, "content-type") ?? "";
  if (contentType.includes("json") || raw.startsWith("{")) return parseJsonObject(raw) ?? {};
  return Object.fromEntries(new URLSearchParams(raw));
}

/** A field made only of digits ("0000", "1999"), as a number; null otherwise. */
function numberField(params: Record<string, unknown>, name: string): number | null {
  const text = field(params, name)?.trim() ?? "";
  return /^\d{1,12}$/.test(text) ? Number(text) : null;
}

/** Redsys's text fields: no line breaks or symbols its older pages garble, at most `max` characters. */
function plain(text: string, max: number): string {
  const cleaned = text
    .replace(/×/g, "x")
    .replace(/[\p{Cc}<>"]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return Array.from(cleaned).slice(0, max).join("");
}
