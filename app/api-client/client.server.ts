import type { OfferDetail, OfferList, OfferSummary, Page } from "#contract/offers";
import {
  type AccountUser,
  type ActivationAnswer,
  type DeviceSession,
  type RegistrationAnswer,
  type SessionInfo,
  type TokenPair,
} from "#rules/accounts";
import type { Cart } from "#rules/cart";
import type { SocialLoginBody, SocialProvider } from "#rules/social";
import type { CustomerPurchase, ReserveExists } from "#contract/customer";
import type { PromoCode } from "#rules/prices";
import type { PaymentAnswer, Purchase, ValidateOrderRequest, ValidateOrderResponse } from "#contract/sales";
import { accessToken } from "#app/state/auth.server";
import type { Feedback, FeedbackOfMine } from "#contract/feedback";
import type { LinkPurpose } from "#platform/signatures.server";
import type { CaptchaFields } from "#app/forms/captcha.server";
import { config } from "#app/env.server";
import { getSession } from "#app/state/session.server";
import { currentRequestId } from "#platform/logger.server";
import { RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE } from "#rules/service";
import { createPublicCache, type PublicCache } from "./public-cache.server";

export type { OfferDetail, OfferSummary, Page };

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

/**
 * The storefront's only way to its data: HTTP to /api/v0 (API_URL), JSON, Accept-Language es,
 * Authorization: JWT when logged in. An expired access token was already exchanged for a new one
 * before this request reached the storefront (refreshAuth in auth-refresh.server.ts), once per
 * request, so parallel loaders never race to spend the same refresh token.
 */
export async function api<T>(path: string, options: CallOptions = {}): Promise<T> {
  const response = await apiResponse(path, options);
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: "La API respondió algo que no es JSON." };
  }
  if (!response.ok && !options.acceptStatus?.includes(response.status)) throw new ApiError(response.status, data);
  return data as T;
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
function cachedRead<T>(path: string, query: OfferQuery): Promise<T> {
  const key = `${path}?${new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (v === undefined || v === "" ? [] : [[k, String(v)]])))}`;
  return publicCache().get(key, () => api<T>(path, { query }));
}

export const offersApi = {
  list: (query: OfferQuery, signal?: AbortSignal) => api<Page<OfferSummary>>("/public/offers/", { query, signal }),
  /** The same list for pages (listings, categories): cached; the search dialog's list stays live. */
  listPage: (query: OfferQuery) => cachedRead<Page<OfferSummary>>("/public/offers/", query),
  mainpage: (query: OfferQuery) => cachedRead<Page<OfferSummary>>("/public/offers/mainpage/", query),
  get: (id: string) => api<OfferDetail>(`/public/offers/${id}/`),
  selected: (uuids: string[]) =>
    uuids.length ? api<OfferSummary[]>("/public/offers/selected/", { query: { uuids } }) : Promise.resolve([]),
  nearby: (id: string, pageSize = 4) => cachedRead<OfferList>(`/public/offers/${id}/nearby/`, { page_size: pageSize }),
  /** «Populares ahora»: the most bought in the last days (POPULAR_DAYS). */
  popular: (query: Pick<OfferQuery, "region" | "category" | "page_size">) => cachedRead<OfferList>("/public/offers/popular/", query),
};

/**
 * Who a mailed link stands for: its token (`t`); an old unsubscribe link's email and sig. The API
 * opens it: the storefront never reads what a token holds.
 */
export type MailLinkKey = { t: string } | { email: string; sig: string };
export type MailLink = { purpose: LinkPurpose; email: string; offer_uuid: string | null; t: string };
/** A rating's buyer: the feedback link's token, or the logged-in account (request) and the offer. */
export type RaterKey = { t: string } | { offer_uuid: string };

export const mailApi = {
  /** What a link stands for, without acting on it (the page shows or prefills its address). */
  link: (purpose: LinkPurpose, key: MailLinkKey) => api<MailLink>("/customer/mail-link/", { query: { purpose, ...key } }),
  /** The contract's unsubscribe call; the /unsubscribe page's button makes it. */
  unsubscribe: (t: string) => api<{ detail: string; email: string }>("/customer/unsubscribe/", { query: { t } }),
  submitFeedback: (body: RaterKey & { feedback_stars: number }, request: Request) =>
    api<Feedback>("/public/offers/feedback/", { method: "POST", body, request }),
  myFeedback: (key: RaterKey, request: Request) => api<FeedbackOfMine>("/public/offers/feedback/mine/", { query: key, request }),
  updateFeedback: (id: string, body: { t?: string; feedback_stars?: number; comment?: string }, request: Request) =>
    api<Feedback>(`/public/offers/feedback/${id}/`, { method: "PATCH", body, request }),
};

export const salesApi = {
  applyPromoCode: (promo_code: string, request: Request) =>
    api<PromoCode & { offer_uuid: string | null }>("/public/offers/apply-promocode/", { method: "POST", body: { promo_code }, request }),
  validate: (body: ValidateOrderRequest) => api<ValidateOrderResponse>("/sales/validate/", { method: "POST", body, acceptStatus: [400] }),
  /** analytics: only when the buyer accepted analytics cookies (the purchase event depends on it). */
  create: (session_token: string, request: Request, analytics?: { device_id: string | null }) =>
    api<PaymentAnswer>("/sales/create/", { method: "POST", body: { session_token, ...(analytics ? { analytics } : {}) }, request }),
  capture: (saleId: string, transaction_id: string) =>
    api<Purchase>(`/sales/capture/${saleId}/`, { method: "POST", body: { transaction_id } }),
  /** A purchase opened from its confirmation mail's signed link (no account needed). */
  signedPurchase: (saleId: string, sig: string) => api<Purchase>(`/sales/purchase/${saleId}/`, { query: { sig } }),
  cancel: (saleId: string, transaction_id: string) =>
    api<{ released: boolean }>(`/sales/cancel/${saleId}/`, { method: "POST", body: { transaction_id } }),
};

export const customerApi = {
  favorites: (request: Request) => api<OfferSummary[]>("/customer/favorites/", { request }),
  toggleFavorite: (uuid: string, request: Request) =>
    api<{ uuid: string; is_favorite: boolean; uuids: string[] }>(`/customer/favorites/${uuid}/toggle/`, { method: "POST", request }),
  syncFavorites: (uuids: string[], request: Request, token?: string) =>
    api<{ uuids: string[] }>("/customer/favorites/sync-list/", { method: "POST", body: { uuids }, request, token }),
  cart: (request: Request, token?: string) => api<Cart>("/customer/cart/", { request, token }),
  saveCart: (cart: Cart, request: Request, token?: string) =>
    api<Cart>("/customer/cart/update/", { method: "POST", body: cart, request, token }),
  purchases: (query: { page: number; page_size: number }, request: Request) =>
    api<Page<CustomerPurchase>>("/customer/purchases/", { query, request }),
  downloadCoupon: (coupon: string, request: Request) => apiFile("/sales/download_coupon/", { method: "POST", body: { coupon }, request }),
  reserveExists: (offerUuid: string, request: Request) => api<ReserveExists>(`/sales/reserve_exists/${offerUuid}/`, { request }),
};

export const authApi = {
  create: (email: string, password: string, request: Request) =>
    api<TokenPair>("/auth/jwt/create/", { method: "POST", body: { email, password }, request, token: null }),
  refresh: (refresh: string) => api<TokenPair>("/auth/jwt/refresh/", { method: "POST", body: { refresh } }),
  session: (request: Request) => api<SessionInfo>("/customer/session/", { request }),
  sendCode: (email: string, request: Request, captcha: CaptchaFields = {}) =>
    api<{ detail: string }>("/verification/send-code/", { method: "POST", body: { email, ...captcha }, request, token: null }),
  otpLogin: (email: string, code: string, request: Request) =>
    api<TokenPair>("/verification/otp-login/", { method: "POST", body: { email, code }, request, token: null }),
  me: (request: Request) => api<AccountUser>("/auth/users/me/", { request }),
  /** The provider's ID token (Google, Apple) or access token (Facebook) for our pair. */
  social: (provider: SocialProvider, body: SocialLoginBody, request: Request) =>
    api<TokenPair>(`/auth/jwt/${provider}/`, { method: "POST", body, request, token: null }),
  /** Ends this browser's session on the server (its refresh token names it). */
  logout: (refresh: string, request: Request) => api<null>("/auth/jwt/logout/", { method: "POST", body: { refresh }, request }),
  sessions: (request: Request) => api<DeviceSession[]>("/auth/sessions/", { request }),
  endSession: (id: string, request: Request) => api<null>(`/auth/sessions/${id}/`, { method: "DELETE", request }),
  endOtherSessions: (request: Request) => api<{ ended: number }>("/auth/sessions/end_others/", { method: "POST", request }),
  register: (body: { email: string; password: string; re_password: string } & CaptchaFields, request: Request) =>
    api<RegistrationAnswer>("/auth/users/", { method: "POST", body, request, token: null }),
  /** registrationToken: the ticket this browser got at registration, to keep the password chosen there. */
  activate: (email: string, token: string, request: Request, registrationToken?: string) =>
    api<ActivationAnswer>("/auth/users/activation/", {
      method: "POST",
      body: { email, token, registration_token: registrationToken },
      request,
      token: null,
    }),
  resendActivation: (email: string, request: Request) =>
    api<null>("/auth/users/resend_activation/", { method: "POST", body: { email }, request, token: null }),
  resetPassword: (email: string, request: Request) =>
    api<null>("/auth/users/reset_password/", { method: "POST", body: { email }, request, token: null }),
  resetPasswordConfirm: (body: { email: string; token: string; new_password: string; re_new_password: string }, request: Request) =>
    api<null>("/auth/users/reset_password_confirm/", { method: "POST", body, request, token: null }),
  /** Every session of the account ends; the answer is this browser's new pair. */
  setPassword: (body: { current_password?: string; new_password: string; re_new_password: string }, request: Request) =>
    api<TokenPair>("/auth/users/set_password/", { method: "POST", body, request }),
  setEmail: (body: { current_password?: string; new_email: string; re_new_email: string }, request: Request) =>
    api<{ detail: string }>("/auth/users/set_email/", { method: "POST", body, request }),
  confirmEmail: (body: { uid: string; token: string; new_email: string; re_new_email: string }, request: Request) =>
    api<TokenPair>("/auth/users/reset_email_confirm/", { method: "POST", body, request }),
  deleteMe: (current_password: string | undefined, request: Request) =>
    api<null>("/auth/users/me/", { method: "DELETE", body: current_password ? { current_password } : {}, request }),
  subscription: (request: Request) => api<{ subscribed: boolean }>("/customer/subscription/", { request }),
  setSubscription: (subscribed: boolean, request: Request) =>
    api<{ subscribed: boolean }>("/customer/subscription/", {
      method: "POST",
      body: subscribed ? { subscribed, consent: true } : { subscribed },
      request,
    }),
};
