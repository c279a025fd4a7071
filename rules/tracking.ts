/**
 * Funnel events (issue 12): the same names go to Amplitude and to the tag manager's dataLayer.
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

const EMAIL = /[^\s@<>"']+@[^\s@<>"']+\.[^\s@<>"']+/g;

/**
 * The last line of defence before an event leaves: emails blanked, long text cut to the spec's
 * length, and URLs reduced to their path (a query can carry an email, as /unsubscribe's does).
 */
export function scrubValue(key: string, value: unknown): unknown {
  if (typeof value !== "string") return value;
  let v = value.replace(EMAIL, "[email]");
  if (/url|location|referrer|href/i.test(key)) {
    try {
      const u = new URL(v, "http://x");
      v = /^https?:/.test(value) ? `${u.origin}${u.pathname}` : u.pathname;
    } catch {
      // not a URL: keep the scrubbed text
    }
  }
  return v.length > ANALYTICS_SETTINGS.textMaxLength ? v.slice(0, ANALYTICS_SETTINGS.textMaxLength) : v;
}

export function scrubProperties<T extends Record<string, unknown>>(props: T): T {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, scrubValue(k, v)])) as T;
}
