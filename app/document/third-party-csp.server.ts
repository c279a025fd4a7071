import type { Config } from "#platform/config.server";

export type CspSources = { script: string[]; connect: string[]; img: string[]; frame: string[]; style: string[]; worker: string[] };

const originOf = (url: string) => {
  try {
    return new URL(url.replace(/\{[^}]*\}/g, "x")).origin;
  } catch {
    return null;
  }
};

/**
 * The third-party hosts the configured tools use, for the Content-Security-Policy. They depend on
 * configuration only, not on consent or on the page: a document's policy stays in force across
 * client-side navigations and a consent given in place (a fetcher), so a consent- or page-scoped
 * policy would block PayPal on /order/ reached from /checkout, or the tag manager right after
 * «Aceptar todo». Consent is enforced where the tools are loaded (root.tsx only imports them after
 * consent, and the third-party E2E suite checks that not one request leaves before it). With no
 * keys this is all empty and the policy is the shop's own.
 */
export function thirdPartySources(c: Config): CspSources {
  const s: CspSources = { script: [], connect: [], img: [], frame: [], style: [], worker: [] };
  if (c.ANALYTICS_API_KEY) {
    // Events, session replay's uploads and its remote configuration, all EU.
    s.connect.push("https://api.eu.amplitude.com", "https://api-sr.eu.amplitude.com", "https://sr-client-cfg.eu.amplitude.com");
    // Session replay compresses and sends from workers it starts from blob: URLs.
    s.worker.push("blob:");
  }
  if (c.GTM_ID) {
    s.script.push("https://www.googletagmanager.com");
    s.img.push("https://www.googletagmanager.com");
    s.connect.push("https://www.google-analytics.com", "https://*.google-analytics.com", "https://*.analytics.google.com");
  }
  const tiles = c.MAPS_TILES_URL ? originOf(c.MAPS_TILES_URL) : null;
  if (tiles) s.img.push(tiles);
  if (c.PAYMENT_PROVIDER === "paypal" && c.PAYPAL_CLIENT_ID) {
    s.script.push("https://www.paypal.com");
    s.frame.push("https://www.paypal.com", "https://www.sandbox.paypal.com");
    s.connect.push("https://www.paypal.com", "https://www.sandbox.paypal.com");
    s.img.push("https://www.paypalobjects.com");
  }
  if (c.CAPTCHA_SITE_KEY) {
    s.script.push("https://challenges.cloudflare.com");
    s.frame.push("https://challenges.cloudflare.com");
  }
  // Error reporting (not a consented tool): the browser posts its reports to the DSN's host.
  const reports = c.SENTRY_DSN ? originOf(c.SENTRY_DSN) : null;
  if (reports) s.connect.push(reports);
  return s;
}
