import { isReplayExcluded } from "./consent";

/**
 * Funnel events: the same names go to Amplitude and to the tag manager's dataLayer.
 * Properties never hold an email address or a coupon code (nor a promo code's text).
 */
export const FUNNEL_EVENTS = {
  offerViewed: "Offer Viewed",
  addedToCart: "Added To Cart",
  checkoutStarted: "Checkout Started",
  promoCodeApplied: "Promo Code Applied",
  promoCodeRefused: "Promo Code Refused",
  purchase: "Purchase",
} as const;

export type FunnelEventName = (typeof FUNNEL_EVENTS)[keyof typeof FUNNEL_EVENTS];
export type EventProperties = Record<string, string | number | boolean | null>;
export type FunnelEvent = { id: string; name: FunnelEventName; properties: EventProperties };

/** dataLayer event names: GTM triggers are usually snake_case. */
export const dataLayerName = (name: FunnelEventName) => name.toLowerCase().replace(/ /g, "_");

/** What the browser is told to load: only the consented and configured tools, nothing else. */
export type ClientIntegrations = {
  analytics: { apiKey: string; replaySampleRate: number; debug: boolean } | null;
  gtm: { id: string } | null;
  /** The interactive offer map (its tiles come with the offer's own data). */
  maps: boolean;
};

/** Spec section 9's analytics settings, in one place for the client and its tests. */
export const ANALYTICS_SETTINGS = {
  flushIntervalMillis: 10_000,
  flushQueueSize: 200,
  flushMaxRetries: 12,
  storedEventsMax: 1_000,
  sessionTimeout: 30 * 60 * 1000,
  serverZone: "EU",
  identityStorage: "localStorage",
  textMaxLength: 255,
  attributeMaxLength: 128,
  hierarchyMaxLength: 1_024,
} as const;

export const SESSION_REPLAY_SETTINGS = {
  remoteConfigTimeoutMs: 5_000,
  retryDelayMs: 1_000, // times the attempt
  maxRetries: 2,
} as const;

/**
 * Pages a mail links to (unsubscribe, feedback, a guest's coupons, login, activation and password
 * reset): never tracked, by route, whatever their link's parameters are called (an address, a
 * signature, a token). No analytics event, no replay and no tag manager push is made on them.
 */
const UNTRACKED = /^\/(unsubscribe|feedback|login|order\/coupons)(\/|$)/;
export const isUntracked = (pathname: string): boolean => UNTRACKED.test(pathname);

/** Pages session replay never records: payment, login and account (rules/consent.ts), and those a mail leads to. */
export const isNeverRecorded = (pathname: string): boolean => isReplayExcluded(pathname) || isUntracked(pathname);

// An address, written plainly or URL-encoded (%40, or %2540 when encoded twice). Not a CSS
// at-rule («}@media (…)», «}@font-face{…}»), which a replay's copy of the page is full of.
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
const ENCODED_EMAIL = /[\p{L}\p{N}._%+-]*(?:%40|%2540)[\p{L}\p{N}%-]+(?:\.[\p{L}\p{N}%-]+)+/giu;
// A URL's query and fragment, absolute (https://…) or a path (/…), wherever it is in a text.
const ABSOLUTE_URL = /\bhttps?:\/\/[^\s?#<>"'\\]*[?#][^\s<>"'\\]*/gi;
const PATH_URL = /(^|[\s"'(=,])(\/[^\s?#<>"'\\]*)[?#][^\s<>"'\\]*/g;

/**
 * Any text a vendor would receive, reduced: every URL in it to its path (a query can carry an
 * address, a signature or a token, as /unsubscribe's and /buscar's do), every address blanked.
 */
export function scrubText(text: string): string {
  return text
    .replace(ABSOLUTE_URL, (url) => url.replace(/[?#].*$/, ""))
    .replace(PATH_URL, (_m, before: string, path: string) => `${before}${path}`)
    .replace(EMAIL, "[email]")
    .replace(ENCODED_EMAIL, "[email]");
}

/**
 * The last line of defence before an event leaves: emails blanked, URLs reduced to their path,
 * and long text cut to the spec's length.
 */
export function scrubValue(_key: string, value: unknown): unknown {
  if (typeof value !== "string") return value;
  const v = scrubText(value);
  return v.length > ANALYTICS_SETTINGS.textMaxLength ? v.slice(0, ANALYTICS_SETTINGS.textMaxLength) : v;
}

export function scrubProperties<T extends Record<string, unknown>>(props: T): T {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, scrubValue(k, v)])) as T;
}

/** Every text anywhere in a value (nested objects and lists too), scrubbed, and cut at `max`. */
function scrubDeep(value: unknown, max: number, depth = 0): unknown {
  if (typeof value === "string") {
    const v = scrubText(value);
    return v.length > max ? v.slice(0, max) : v;
  }
  if (depth > 8 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, max, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubDeep(v, max, depth + 1)]));
}

/** An element's ancestors as autocapture lists them, cut from the outermost until it fits. */
function cutHierarchy(list: unknown[]): unknown[] {
  const kept = [...list];
  while (kept.length > 0 && JSON.stringify(kept).length > ANALYTICS_SETTINGS.hierarchyMaxLength) kept.shift();
  return kept;
}

/**
 * One analytics event as it will be stored and sent, whatever filled it (our funnel, the SDK's page
 * views, file downloads, any plugin added later): every text in it scrubbed (scrubText), values
 * cut to the spec's lengths (section 9): text 255, attribute values 128 (the values inside an
 * object property, as autocapture's element attributes), hierarchy 1,024 characters.
 */
export function scrubEvent<T extends object>(event: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event)) {
    if ((key === "event_properties" || key === "user_properties") && value && typeof value === "object") {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, v]) => {
          if (Array.isArray(v) && /hierarchy/i.test(name))
            return [name, cutHierarchy(scrubDeep(v, ANALYTICS_SETTINGS.attributeMaxLength) as unknown[])];
          if (v && typeof v === "object" && !Array.isArray(v)) return [name, scrubDeep(v, ANALYTICS_SETTINGS.attributeMaxLength)];
          return [name, scrubDeep(v, ANALYTICS_SETTINGS.textMaxLength)];
        }),
      );
    } else {
      out[key] = scrubDeep(value, ANALYTICS_SETTINGS.textMaxLength);
    }
  }
  return out as T;
}

/**
 * A session replay upload ({version, events: [each event's JSON]}) with every event's text
 * scrubbed: the page's address in its meta events, and any address or URL query in the page.
 */
export function scrubReplayPayload(json: string): string {
  try {
    const payload = JSON.parse(json) as { events?: unknown };
    if (!Array.isArray(payload.events)) return scrubText(json);
    return JSON.stringify({
      ...payload,
      events: payload.events.map((e) => (typeof e === "string" ? scrubText(e) : scrubDeep(e, Number.POSITIVE_INFINITY))),
    });
  } catch {
    return scrubText(json);
  }
}

/**
 * Session replay's remote configuration, fetched as spec section 9 says: each try given 5 s, a
 * failed one (no answer, 5xx or 429) tried again after 1 s × the attempt, at most twice.
 */
type PolicyDeps = { fetch: typeof fetch; sleep: (ms: number) => Promise<void>; timeout: (ms: number) => AbortSignal };
const realDeps: PolicyDeps = {
  fetch: (...a) => fetch(...a),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  timeout: (ms) => AbortSignal.timeout(ms),
};

export async function fetchWithReplayPolicy(url: string, init: RequestInit, deps: PolicyDeps = realDeps): Promise<Response> {
  for (let attempt = 0; ; attempt += 1) {
    const last = attempt >= SESSION_REPLAY_SETTINGS.maxRetries;
    try {
      const response = await deps.fetch(url, { ...init, signal: deps.timeout(SESSION_REPLAY_SETTINGS.remoteConfigTimeoutMs) });
      if (response.ok || last || (response.status < 500 && response.status !== 429)) return response;
    } catch (error) {
      if (last) throw error;
    }
    await deps.sleep(SESSION_REPLAY_SETTINGS.retryDelayMs * (attempt + 1));
  }
}
