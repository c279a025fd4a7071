import type { z } from "zod";
import type { OfferDetail, OfferSummary, Page } from "#contract/offers";
import { publicOffersRoutes } from "#contract/public-offers";
import { customerMailRoutes } from "#contract/customer-mail";
import { customerDataRoutes } from "#contract/customer-data";
import type { Cart } from "#rules/cart";
import type { SocialProvider } from "#rules/social";
import type { ReminderKind } from "#rules/reminders";
import { customerRoutes, type MailLink } from "#contract/customer";
import { salesRoutes } from "#contract/sales";
import {
  pathOf,
  routeName,
  type AnswerOf,
  type BodyIn,
  type HasParams,
  type ParamsOf,
  type QueryIn,
  type RouteSpec,
} from "#contract/define-route";
import { refundsRoutes } from "#contract/refunds";
import { accessToken } from "#app/state/auth.server";
import { feedbackRoutes } from "#contract/feedback";
import { authRoutes } from "#contract/auth";
import { socialAuthRoutes, type SocialLoginBody } from "#contract/social-auth";
import { verificationRoutes } from "#contract/verification";
import { usersRoutes } from "#contract/users";
import { sessionsRoutes } from "#contract/sessions";
import type { LinkPurpose } from "#platform/signatures.server";
import type { CaptchaFields } from "#app/forms/captcha.server";
import { config } from "#app/env.server";
import { getSession } from "#app/state/session.server";
import { currentRequestId } from "#platform/logger.server";
import { RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE } from "#rules/service";
import { createPublicCache, type PublicCache } from "./public-cache.server";

export type { MailLink, OfferDetail, OfferSummary, Page };

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
 * The contract's check of an answer: parsed with its route's schema in development and tests
 * (and wherever CONTRACT_CHECK=1), and taken as it is in production, where the API's tests have
 * already checked every route against the same schemas.
 */
function fitted<S extends z.ZodTypeAny>(route: RouteSpec, schema: S, data: unknown): z.output<S> {
  if (!config().contractCheck) return data as z.output<S>;
  const result = schema.safeParse(data);
  if (!result.success) throw new ContractError(routeName(route), result.error.issues);
  return result.data;
}

/** A call's parameters, body and query, as its route declares them; and whose call it is. */
type RouteCall<R extends RouteSpec> = Omit<CallOptions, "method" | "body" | "query"> &
  (HasParams<R["path"]> extends true ? { params: ParamsOf<R["path"]> } : { params?: never }) &
  // A route without a body schema reads its own: a picture's multipart form.
  ([BodyIn<R>] extends [never] ? { body?: FormData } : { body: BodyIn<R> }) &
  ([QueryIn<R>] extends [never] ? { query?: never } : { query?: QueryIn<R> });
type CallArgs<R extends RouteSpec> = object extends RouteCall<R> ? [args?: RouteCall<R>] : [args: RouteCall<R>];
type JsonRoute = RouteSpec & { answer: z.ZodTypeAny };

/**
 * The storefront's only way to its data: one typed call of a route the contract declares
 * (contract/<resource>.ts), over HTTP to /api/v0 (API_URL), JSON, Accept-Language es,
 * Authorization: JWT when logged in. An expired access token was already exchanged for a new one
 * before this request reached the storefront (refreshAuth in auth-refresh.server.ts), once per
 * request, so parallel loaders never race to spend the same refresh token. The answer is read
 * with the route's schema.
 */
export async function call<R extends JsonRoute>(route: R, ...[args]: CallArgs<R>): Promise<AnswerOf<R>> {
  const options = (args ?? {}) as CallOptions & { params?: Record<string, string> };
  const response = await apiResponse(pathOf(route, options.params), { ...options, method: route.method });
  const data = await jsonOf(response);
  if (!response.ok && !options.acceptStatus?.includes(response.status)) throw new ApiError(response.status, data);
  return fitted(route, route.answer, data);
}

/** The same call of a route that answers a file (a PDF): the raw Response; a failure is still an ApiError. */
export async function callFile<R extends RouteSpec>(route: R, ...[args]: CallArgs<R>): Promise<Response> {
  const options = (args ?? {}) as CallOptions & { params?: Record<string, string> };
  const response = await apiResponse(pathOf(route, options.params), { ...options, method: route.method });
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null));
  return response;
}

async function jsonOf(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return { detail: "La API respondió algo que no es JSON." };
  }
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

export type OfferQuery = {
  search?: string;
  category?: string;
  region?: string;
  page?: number | string;
  page_size?: number;
  sort?: string;
  price_min?: number;
  price_max?: number;
  lat?: number;
  lng?: number;
};

let catalogueCache: PublicCache | undefined;
function publicCache(): PublicCache {
  const seconds = config().CATALOGUE_CACHE_SECONDS;
  // Nothing older than the setting is ever shown (the spec's one minute): fresh for half of it,
  // then stale for the other half while one request refreshes it. 500 pages of 24 cards are a few
  // MB, so a crawler walking every page cannot grow the process.
  catalogueCache ??= createPublicCache({ freshMs: (seconds * 1000) / 2, staleMs: (seconds * 1000) / 2, maxEntries: 500 });
  return catalogueCache;
}

/** A public catalogue read through the one-minute cache (public-cache.server.ts), keyed by its URL. */
function cachedRead<R extends JsonRoute>(route: R, ...args: CallArgs<R>): Promise<AnswerOf<R>> {
  const { params, query = {} } = (args[0] ?? {}) as { params?: Record<string, string>; query?: Record<string, unknown> };
  const search = new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (v === undefined || v === "" ? [] : [[k, String(v)]])));
  return publicCache().get(`${pathOf(route, params)}?${search}`, () => call(route, ...args));
}

export const offersApi = {
  list: (query: OfferQuery, signal?: AbortSignal) => call(publicOffersRoutes.list, { query, signal }),
  /** The same list for pages (listings, categories): cached; the search dialog's list stays live. */
  listPage: (query: OfferQuery) => cachedRead(publicOffersRoutes.list, { query }),
  mainpage: (query: OfferQuery) => cachedRead(publicOffersRoutes.mainpage, { query }),
  get: (id: string) => call(publicOffersRoutes.get, { params: { id } }),
  selected: (uuids: string[]) => (uuids.length ? call(publicOffersRoutes.selected, { query: { uuids } }) : Promise.resolve([])),
  nearby: (id: string, pageSize = 4) => cachedRead(publicOffersRoutes.nearby, { params: { id }, query: { page_size: pageSize } }),
  /** «Populares ahora»: the most bought in the last days (POPULAR_DAYS). */
  popular: (query: Pick<OfferQuery, "region" | "category" | "page_size">) => cachedRead(publicOffersRoutes.popular, { query }),
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
  link: (purpose: LinkPurpose, key: MailLinkKey) => call(customerMailRoutes.link, { query: { purpose, ...key } }),
  /** The contract's unsubscribe call; the /unsubscribe page's button makes it. */
  unsubscribe: (t: string) => call(customerMailRoutes.unsubscribe, { query: { t } }),
  /** A reminder's stop link, acted on by the /avisos/… page's button. */
  stopReminders: (kind: ReminderKind, t: string) => call(customerMailRoutes.stopReminders, { body: { kind, t } }),
  submitFeedback: (body: RaterKey & { feedback_stars: number }, request: Request) => call(feedbackRoutes.submit, { body, request }),
  myFeedback: (query: RaterKey, request: Request) => call(feedbackRoutes.mine, { query, request }),
  updateFeedback: (id: string, body: { t?: string; feedback_stars?: number; comment?: string }, request: Request) =>
    call(feedbackRoutes.update, { params: { id }, body, request }),
};

export const salesApi = {
  applyPromoCode: (promo_code: string, request: Request) => call(salesRoutes.applyPromoCode, { body: { promo_code }, request }),
  /** A 400 answers the errors in the same shape as a business error. */
  validate: (body: BodyIn<typeof salesRoutes.validate>) => call(salesRoutes.validate, { body, acceptStatus: [400] }),
  /**
   * analytics: only when the buyer accepted analytics cookies (the purchase event depends on it).
   * payment_method: the way of paying the buyer chose, when the provider offers a choice.
   */
  create: (
    session_token: string,
    request: Request,
    analytics?: BodyIn<typeof salesRoutes.create>["analytics"],
    payment_method?: string,
  ) => {
    const body: BodyIn<typeof salesRoutes.create> = { session_token, ...(analytics ? { analytics } : {}) };
    // The form's text as it came: the API refuses, in Spanish, a way of paying it does not offer.
    if (payment_method) body.payment_method = payment_method as BodyIn<typeof salesRoutes.create>["payment_method"];
    return call(salesRoutes.create, { body, request });
  },
  capture: (saleId: string, transaction_id: string) => call(salesRoutes.capture, { params: { id: saleId }, body: { transaction_id } }),
  /** A purchase opened from its confirmation mail's signed link (no account needed). */
  signedPurchase: (saleId: string, sig: string, gift?: string) =>
    call(salesRoutes.purchase, { params: { id: saleId }, query: gift ? { sig, gift } : { sig } }),
  /** The same purchase's vouchers as one PDF (one gift's, with `gift`). */
  signedVouchers: (saleId: string, sig: string, gift?: string) =>
    callFile(salesRoutes.vouchers, { params: { id: saleId }, query: gift ? { sig, gift } : { sig } }),
  cancel: (saleId: string, transaction_id: string) => call(salesRoutes.cancel, { params: { id: saleId }, body: { transaction_id } }),
  /** «Solicitar devolución» of one coupon: a refusal (409) is an answer like the others. */
  requestRefund: (saleId: string, body: BodyIn<typeof refundsRoutes.requestCouponRefund>, request: Request) =>
    call(refundsRoutes.requestCouponRefund, { params: { id: saleId }, body, request, acceptStatus: [409] }),
};

export const customerApi = {
  favorites: (request: Request) => call(customerDataRoutes.favorites, { request }),
  toggleFavorite: (uuid: string, request: Request) => call(customerDataRoutes.toggleFavorite, { params: { id: uuid }, request }),
  syncFavorites: (uuids: string[], request: Request, token?: string) =>
    call(customerDataRoutes.syncFavorites, { body: { uuids }, request, token }),
  cart: (request: Request, token?: string) => call(customerDataRoutes.cart, { request, token }),
  saveCart: (cart: Cart, request: Request, token?: string) => call(customerDataRoutes.saveCart, { body: cart, request, token }),
  purchases: (query: { page: number; page_size: number }, request: Request) => call(customerDataRoutes.purchases, { query, request }),
  downloadCoupon: (coupon: string, request: Request) => callFile(customerDataRoutes.downloadCoupon, { body: { coupon }, request }),
  reserveExists: (offerUuid: string, request: Request) => call(customerDataRoutes.reserveExists, { params: { id: offerUuid }, request }),
};

export const authApi = {
  create: (email: string, password: string, request: Request) =>
    call(authRoutes.create, { body: { email, password }, request, token: null }),
  refresh: (refresh: string) => call(authRoutes.refresh, { body: { refresh } }),
  session: (request: Request) => call(customerRoutes.session, { request }),
  sendCode: (email: string, request: Request, captcha: CaptchaFields = {}) =>
    call(verificationRoutes.sendCode, { body: { email, ...captcha }, request, token: null }),
  otpLogin: (email: string, code: string, request: Request) =>
    call(verificationRoutes.otpLogin, { body: { email, code }, request, token: null }),
  me: (request: Request) => call(usersRoutes.me, { request }),
  /** The provider's ID token (Google, Apple) or access token (Facebook) for our pair. */
  social: (provider: SocialProvider, body: SocialLoginBody, request: Request) =>
    provider === "facebook"
      ? call(socialAuthRoutes.facebook, { body: body as BodyIn<typeof socialAuthRoutes.facebook>, request, token: null })
      : call(socialAuthRoutes[provider], { body: body as BodyIn<typeof socialAuthRoutes.google>, request, token: null }),
  /** Ends this browser's session on the server (its refresh token names it). */
  logout: (refresh: string, request: Request) => call(authRoutes.logout, { body: { refresh }, request }),
  sessions: (request: Request) => call(sessionsRoutes.list, { request }),
  endSession: (id: string, request: Request) => call(sessionsRoutes.end, { params: { id }, request }),
  endOtherSessions: (request: Request) => call(sessionsRoutes.endOthers, { request }),
  register: (body: BodyIn<typeof usersRoutes.register>, request: Request) => call(usersRoutes.register, { body, request, token: null }),
  /** registrationToken: the ticket this browser got at registration, to keep the password chosen there. */
  activate: (email: string, token: string, request: Request, registrationToken?: string) =>
    call(usersRoutes.activate, { body: { email, token, registration_token: registrationToken }, request, token: null }),
  resendActivation: (email: string, request: Request) => call(usersRoutes.resendActivation, { body: { email }, request, token: null }),
  resetPassword: (email: string, request: Request) => call(usersRoutes.resetPassword, { body: { email }, request, token: null }),
  resetPasswordConfirm: (body: BodyIn<typeof usersRoutes.resetPasswordConfirm>, request: Request) =>
    call(usersRoutes.resetPasswordConfirm, { body, request, token: null }),
  /** Every session of the account ends; the answer is this browser's new pair. */
  setPassword: (body: BodyIn<typeof usersRoutes.setPassword>, request: Request) => call(usersRoutes.setPassword, { body, request }),
  setEmail: (body: BodyIn<typeof usersRoutes.setEmail>, request: Request) => call(usersRoutes.setEmail, { body, request }),
  confirmEmail: (body: BodyIn<typeof usersRoutes.resetEmailConfirm>, request: Request) =>
    call(usersRoutes.resetEmailConfirm, { body, request }),
  deleteMe: (current_password: string | undefined, request: Request) =>
    call(usersRoutes.deleteMe, { body: current_password ? { current_password } : {}, request }),
  subscription: (request: Request) => call(customerMailRoutes.subscription, { request }),
  setSubscription: (subscribed: boolean, request: Request) =>
    call(customerMailRoutes.setSubscription, { body: subscribed ? { subscribed, consent: true } : { subscribed }, request }),
};
