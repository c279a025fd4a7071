import type { z } from "zod";
import {
  OfferCardsSchema,
  OfferDetailSchema,
  OfferListSchema,
  OfferPageSchema,
  type OfferDetail,
  type OfferSummary,
  type Page,
} from "#contract/offers";
import {
  AccountUserSchema,
  CodeSentSchema,
  ActivationAnswerSchema,
  DetailSchema,
  DeviceSessionListSchema,
  EmailConfirmAnswerSchema,
  EndedSessionsSchema,
  RegistrationAnswerSchema,
  SessionInfoSchema,
  TokenPairSchema,
} from "#contract/accounts";
import type { Cart } from "#rules/cart";
import type { SocialLoginBody, SocialProvider } from "#rules/social";
import type { ReminderKind } from "#rules/reminders";
import {
  CartSchema,
  CustomerPurchasePageSchema,
  FavoriteListSchema,
  FavoriteToggleSchema,
  MailLinkSchema,
  ReminderStoppedSchema,
  ReserveExistsSchema,
  SubscriptionSchema,
  UnsubscribedSchema,
  type MailLink,
} from "#contract/customer";
import {
  AppliedPromoCodeSchema,
  CancelAnswerSchema,
  CapturedPurchaseSchema,
  PaymentAnswerSchema,
  PurchaseSchema,
  ValidateOrderResponseSchema,
  type CreateSaleRequest,
  type ValidateOrderRequest,
} from "#contract/sales";
import { NoContent, routeOf } from "#contract/routes";
import { CouponRefundAnswerSchema, type CouponRefundRequest } from "#contract/refunds";
import { accessToken } from "#app/state/auth.server";
import { FeedbackAnswerSchema, FeedbackOfMineSchema } from "#contract/feedback";
import type { LinkPurpose } from "#platform/signatures.server";
import type { CaptchaFields } from "#app/forms/captcha.server";
import { config } from "#app/env.server";
import { getSession } from "#app/state/session.server";
import { currentRequestId } from "#platform/logger.server";
import { RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE } from "#rules/service";
import { createPublicCache, type PublicCache } from "./public-cache.server";

export type { MailLink, OfferDetail, OfferSummary, Page };
export { NoContent };

/** One error type for every failed call; `message` is the text for the toast (spec section 8). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const b = body as { detail?: unknown; error?: unknown } | null;
    const text = typeof b?.detail === "string" ? b.detail : typeof b?.error === "string" ? b.error : `Error ${status} de la API`;
    super(text);
  }
}

type CallOptions = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  query?: Record<string, string | number | undefined | (string | undefined)[]>;
  /** JSON, or a FormData sent as multipart (a picture: no base64 on the way). */
  body?: unknown;
  /**
   * The browser's request, so the API sees the buyer's host and address through forwarded headers,
   * and who is logged in: its session's access token goes as "Authorization: JWT …".
   */
  request?: Request;
  /** An access token to send instead of the request's (right after login, before the cookie exists). */
  token?: string | null;
  signal?: AbortSignal;
  /** Statuses whose body is a normal answer (validate answers 400 with errors). */
  acceptStatus?: number[];
};

/** An answer of the API that does not fit the contract: a bug of one side, never the visitor's. */
export class ContractError extends Error {
  constructor(route: string, issues: z.ZodIssue[]) {
    const first = issues[0];
    const where = first ? `${first.path.join(".") || "(la respuesta)"}: ${first.message}` : "";
    super(`La respuesta de ${route} no cumple el contrato (${issues.length} problemas; ${where}).`);
    this.name = "ContractError";
  }
}

/**
 * The contract's check of an answer: parsed with the route's schema in development and tests
 * (and wherever CONTRACT_CHECK=1), and taken as it is in production, where the API's tests have
 * already checked every route against the same schemas.
 */
function fitted<S extends z.ZodTypeAny>(method: string, path: string, schema: S, data: unknown): z.output<S> {
  if (!config().contractCheck) return data as z.output<S>;
  const route = routeOf(method, path);
  if (!route)
    throw new ContractError(`${method} ${path}`, [{ code: "custom", path: [], message: "la ruta no está en contract/routes.ts" }]);
  if (route.answer !== schema) {
    throw new ContractError(route.route, [
      { code: "custom", path: [], message: "el cliente la lee con otro esquema que contract/routes.ts" },
    ]);
  }
  const result = schema.safeParse(data);
  if (!result.success) throw new ContractError(route.route, result.error.issues);
  return result.data;
}

/**
 * The storefront's only way to its data: HTTP to /api/v0 (API_URL), JSON, Accept-Language es,
 * Authorization: JWT when logged in. An expired access token was already exchanged for a new one
 * before this request reached the storefront (refreshAuth in auth-refresh.server.ts), once per
 * request, so parallel loaders never race to spend the same refresh token. The answer is read
 * with the route's schema of the contract (contract/routes.ts).
 */
export async function api<S extends z.ZodTypeAny>(path: string, schema: S, options: CallOptions = {}): Promise<z.output<S>> {
  const response = await apiResponse(path, options);
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: "La API respondió algo que no es JSON." };
  }
  if (!response.ok && !options.acceptStatus?.includes(response.status)) throw new ApiError(response.status, data);
  return fitted(options.method ?? "GET", path, schema, data);
}

/** The same call, answering the raw Response (a PDF); a failure is still an ApiError. */
export async function apiFile(path: string, options: CallOptions = {}): Promise<Response> {
  const response = await apiResponse(path, options);
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    throw new ApiError(response.status, body);
  }
  return response;
}

async function apiResponse(path: string, options: CallOptions): Promise<Response> {
  const url = new URL(`${config().apiUrl}${path}`);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v !== undefined && v !== "") url.searchParams.append(key, String(v));
    }
  }
  // identity: over loopback, gzip costs the API a deflate and us an inflate for no gain in time.
  const headers: Record<string, string> = { Accept: "application/json", "Accept-Language": "es", "Accept-Encoding": "identity" };
  const multipart = options.body instanceof FormData;
  if (options.body !== undefined && !multipart) headers["Content-Type"] = "application/json";
  const token = options.token !== undefined ? options.token : options.request ? accessToken(await getSession(options.request)) : null;
  if (token) headers.Authorization = `JWT ${token}`;
  if (options.request) {
    // request.url is already trust-resolved by Express; the client's own X-Forwarded-* headers
    // are not, and the API believes what arrives from loopback.
    const incoming = new URL(options.request.url);
    headers["X-Forwarded-Host"] = incoming.host;
    headers["X-Forwarded-Proto"] = incoming.protocol.replace(":", "");
    const client = options.request.headers.get("x-ofertas-client-ip");
    if (client) headers["X-Forwarded-For"] = client;
    // The person's browser, so a login's session is named after their device (/cuenta lists them).
    const browser = options.request.headers.get("user-agent");
    if (browser) headers["User-Agent"] = browser.slice(0, 300);
  }
  // One id follows the page through both halves: the API logs this request under it too.
  const requestId = currentRequestId();
  if (requestId) headers["X-Request-Id"] = requestId;
  // The caller's signal (the browser went away) and ours (the API takes too long), whichever first.
  const timeout = AbortSignal.timeout(config().API_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? "GET",
      headers,
      body: options.body === undefined ? undefined : multipart ? (options.body as FormData) : JSON.stringify(options.body),
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
  } catch (error) {
    // The browser leaving is not an outage; an API that is down or too slow is one.
    if (options.signal?.aborted) throw error;
    throw unavailable();
  }
  if (response.status === 503 && response.headers.get("Retry-After") && !options.acceptStatus?.includes(503)) {
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as { code?: string } | null;
    if (body?.code === "service_unavailable") throw unavailable();
  }
  return response;
}

/**
 * The API cannot answer (its database is down, it is unreachable or too slow): the page becomes
 * the root error boundary's «Estamos teniendo problemas técnicos…» with a 503 and Retry-After.
 */
function unavailable(): Response {
  return new Response(SERVICE_UNAVAILABLE, {
    status: 503,
    headers: { "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" },
  });
}

export type OfferQuery = { search?: string; category?: string; region?: string; page?: number | string; page_size?: number };

let catalogueCache: PublicCache | undefined;
function publicCache(): PublicCache {
  const seconds = config().CATALOGUE_CACHE_SECONDS;
  // Nothing older than the setting is ever shown (the spec's one minute): fresh for half of it,
  // then stale for the other half while one request refreshes it. 500 pages of 24 cards are a few
  // MB, so a crawler walking every page cannot grow the process.
  catalogueCache ??= createPublicCache({ freshMs: (seconds * 1000) / 2, staleMs: (seconds * 1000) / 2, maxEntries: 500 });
  return catalogueCache;
}

/** A public catalogue read through the one-minute cache (public-cache.server.ts), keyed by URL. */
function cachedRead<S extends z.ZodTypeAny>(path: string, schema: S, query: OfferQuery): Promise<z.output<S>> {
  const key = `${path}?${new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (v === undefined || v === "" ? [] : [[k, String(v)]])))}`;
  return publicCache().get(key, () => api(path, schema, { query }));
}

export const offersApi = {
  list: (query: OfferQuery, signal?: AbortSignal) => api("/public/offers/", OfferPageSchema, { query, signal }),
  /** The same list for pages (listings, categories): cached; the search dialog's list stays live. */
  listPage: (query: OfferQuery) => cachedRead("/public/offers/", OfferPageSchema, query),
  mainpage: (query: OfferQuery) => cachedRead("/public/offers/mainpage/", OfferPageSchema, query),
  get: (id: string) => api(`/public/offers/${id}/`, OfferDetailSchema),
  selected: (uuids: string[]) =>
    uuids.length ? api("/public/offers/selected/", OfferCardsSchema, { query: { uuids } }) : Promise.resolve([]),
  nearby: (id: string, pageSize = 4) => cachedRead(`/public/offers/${id}/nearby/`, OfferListSchema, { page_size: pageSize }),
  /** «Populares ahora»: the most bought in the last days (POPULAR_DAYS). */
  popular: (query: Pick<OfferQuery, "region" | "category" | "page_size">) => cachedRead("/public/offers/popular/", OfferListSchema, query),
};

/**
 * Who a mailed link stands for: its token (`t`); an old unsubscribe link's email and sig. The API
 * opens it: the storefront never reads what a token holds.
 */
export type MailLinkKey = { t: string } | { email: string; sig: string };
/** A rating's buyer: the feedback link's token, or the logged-in account (request) and the offer. */
export type RaterKey = { t: string } | { offer_uuid: string };

export const mailApi = {
  /** What a link stands for, without acting on it (the page shows or prefills its address). */
  link: (purpose: LinkPurpose, key: MailLinkKey) => api("/customer/mail-link/", MailLinkSchema, { query: { purpose, ...key } }),
  /** The contract's unsubscribe call; the /unsubscribe page's button makes it. */
  unsubscribe: (t: string) => api("/customer/unsubscribe/", UnsubscribedSchema, { query: { t } }),
  /** A reminder's stop link, acted on by the /avisos/… page's button. */
  stopReminders: (kind: ReminderKind, t: string) =>
    api("/customer/reminders/stop/", ReminderStoppedSchema, { method: "POST", body: { kind, t } }),
  submitFeedback: (body: RaterKey & { feedback_stars: number }, request: Request) =>
    api("/public/offers/feedback/", FeedbackAnswerSchema, { method: "POST", body, request }),
  myFeedback: (key: RaterKey, request: Request) => api("/public/offers/feedback/mine/", FeedbackOfMineSchema, { query: key, request }),
  updateFeedback: (id: string, body: { t?: string; feedback_stars?: number; comment?: string }, request: Request) =>
    api(`/public/offers/feedback/${id}/`, FeedbackAnswerSchema, { method: "PATCH", body, request }),
};

export const salesApi = {
  applyPromoCode: (promo_code: string, request: Request) =>
    api("/public/offers/apply-promocode/", AppliedPromoCodeSchema, { method: "POST", body: { promo_code }, request }),
  validate: (body: ValidateOrderRequest) =>
    api("/sales/validate/", ValidateOrderResponseSchema, { method: "POST", body, acceptStatus: [400] }),
  /**
   * analytics: only when the buyer accepted analytics cookies (the purchase event depends on it).
   * payment_method: the way of paying the buyer chose, when the provider offers a choice.
   */
  create: (session_token: string, request: Request, analytics?: { device_id: string | null }, payment_method?: string) => {
    const body: CreateSaleRequest = { session_token, ...(analytics ? { analytics } : {}) };
    return api("/sales/create/", PaymentAnswerSchema, {
      method: "POST",
      // The API refuses, in Spanish, a way of paying it does not offer.
      body: payment_method ? { ...body, payment_method } : body,
      request,
    });
  },
  capture: (saleId: string, transaction_id: string) =>
    api(`/sales/capture/${saleId}/`, CapturedPurchaseSchema, { method: "POST", body: { transaction_id } }),
  /** A purchase opened from its confirmation mail's signed link (no account needed). */
  signedPurchase: (saleId: string, sig: string) => api(`/sales/purchase/${saleId}/`, PurchaseSchema, { query: { sig } }),
  /** The same purchase's vouchers as one PDF. */
  signedVouchers: (saleId: string, sig: string) => apiFile(`/sales/purchase/${saleId}/vouchers.pdf`, { query: { sig } }),
  cancel: (saleId: string, transaction_id: string) =>
    api(`/sales/cancel/${saleId}/`, CancelAnswerSchema, { method: "POST", body: { transaction_id } }),
  /** «Solicitar devolución» of one coupon: a refusal (409) is an answer like the others. */
  requestRefund: (saleId: string, body: CouponRefundRequest, request: Request) =>
    api(`/sales/purchase/${saleId}/refund/`, CouponRefundAnswerSchema, { method: "POST", body, request, acceptStatus: [409] }),
};

export const customerApi = {
  favorites: (request: Request) => api("/customer/favorites/", OfferCardsSchema, { request }),
  toggleFavorite: (uuid: string, request: Request) =>
    api(`/customer/favorites/${uuid}/toggle/`, FavoriteToggleSchema, { method: "POST", request }),
  syncFavorites: (uuids: string[], request: Request, token?: string) =>
    api("/customer/favorites/sync-list/", FavoriteListSchema, { method: "POST", body: { uuids }, request, token }),
  cart: (request: Request, token?: string) => api("/customer/cart/", CartSchema, { request, token }),
  saveCart: (cart: Cart, request: Request, token?: string) =>
    api("/customer/cart/update/", CartSchema, { method: "POST", body: cart, request, token }),
  purchases: (query: { page: number; page_size: number }, request: Request) =>
    api("/customer/purchases/", CustomerPurchasePageSchema, { query, request }),
  downloadCoupon: (coupon: string, request: Request) => apiFile("/sales/download_coupon/", { method: "POST", body: { coupon }, request }),
  reserveExists: (offerUuid: string, request: Request) => api(`/sales/reserve_exists/${offerUuid}/`, ReserveExistsSchema, { request }),
};

export const authApi = {
  create: (email: string, password: string, request: Request) =>
    api("/auth/jwt/create/", TokenPairSchema, { method: "POST", body: { email, password }, request, token: null }),
  refresh: (refresh: string) => api("/auth/jwt/refresh/", TokenPairSchema, { method: "POST", body: { refresh } }),
  session: (request: Request) => api("/customer/session/", SessionInfoSchema, { request }),
  sendCode: (email: string, request: Request, captcha: CaptchaFields = {}) =>
    api("/verification/send-code/", CodeSentSchema, { method: "POST", body: { email, ...captcha }, request, token: null }),
  otpLogin: (email: string, code: string, request: Request) =>
    api("/verification/otp-login/", TokenPairSchema, { method: "POST", body: { email, code }, request, token: null }),
  me: (request: Request) => api("/auth/users/me/", AccountUserSchema, { request }),
  /** The provider's ID token (Google, Apple) or access token (Facebook) for our pair. */
  social: (provider: SocialProvider, body: SocialLoginBody, request: Request) =>
    api(`/auth/jwt/${provider}/`, TokenPairSchema, { method: "POST", body, request, token: null }),
  /** Ends this browser's session on the server (its refresh token names it). */
  logout: (refresh: string, request: Request) => api("/auth/jwt/logout/", NoContent, { method: "POST", body: { refresh }, request }),
  sessions: (request: Request) => api("/auth/sessions/", DeviceSessionListSchema, { request }),
  endSession: (id: string, request: Request) => api(`/auth/sessions/${id}/`, NoContent, { method: "DELETE", request }),
  endOtherSessions: (request: Request) => api("/auth/sessions/end_others/", EndedSessionsSchema, { method: "POST", request }),
  register: (body: { email: string; password: string; re_password: string } & CaptchaFields, request: Request) =>
    api("/auth/users/", RegistrationAnswerSchema, { method: "POST", body, request, token: null }),
  /** registrationToken: the ticket this browser got at registration, to keep the password chosen there. */
  activate: (email: string, token: string, request: Request, registrationToken?: string) =>
    api("/auth/users/activation/", ActivationAnswerSchema, {
      method: "POST",
      body: { email, token, registration_token: registrationToken },
      request,
      token: null,
    }),
  resendActivation: (email: string, request: Request) =>
    api("/auth/users/resend_activation/", NoContent, { method: "POST", body: { email }, request, token: null }),
  resetPassword: (email: string, request: Request) =>
    api("/auth/users/reset_password/", NoContent, { method: "POST", body: { email }, request, token: null }),
  resetPasswordConfirm: (body: { email: string; token: string; new_password: string; re_new_password: string }, request: Request) =>
    api("/auth/users/reset_password_confirm/", NoContent, { method: "POST", body, request, token: null }),
  /** Every session of the account ends; the answer is this browser's new pair. */
  setPassword: (body: { current_password?: string; new_password: string; re_new_password: string }, request: Request) =>
    api("/auth/users/set_password/", TokenPairSchema, { method: "POST", body, request }),
  setEmail: (body: { current_password?: string; new_email: string; re_new_email: string }, request: Request) =>
    api("/auth/users/set_email/", DetailSchema, { method: "POST", body, request }),
  confirmEmail: (body: { uid: string; token: string; new_email: string; re_new_email: string }, request: Request) =>
    api("/auth/users/reset_email_confirm/", EmailConfirmAnswerSchema, { method: "POST", body, request }),
  deleteMe: (current_password: string | undefined, request: Request) =>
    api("/auth/users/me/", NoContent, { method: "DELETE", body: current_password ? { current_password } : {}, request }),
  subscription: (request: Request) => api("/customer/subscription/", SubscriptionSchema, { request }),
  setSubscription: (subscribed: boolean, request: Request) =>
    api("/customer/subscription/", SubscriptionSchema, {
      method: "POST",
      body: subscribed ? { subscribed, consent: true } : { subscribed },
      request,
    }),
};
