import { isGranted, type ConsentChoice } from "#lib/consent";
import type { Config } from "#lib/config.server";

export type CspSources = { script: string[]; connect: string[]; img: string[]; frame: string[]; style: string[] };

const originOf = (url: string) => {
  try {
    return new URL(url.replace(/\{[^}]*\}/g, "x")).origin;
  } catch {
    return null;
  }
};

/**
 * The third-party sources a page may use, for the Content-Security-Policy builder (hardening,
 * issue 6) to add to its own: only tools that are configured, only after their category is
 * accepted, and the necessary ones only on the pages that use them (PayPal on /order/, Turnstile
 * on the forms that carry it). With no keys or no consent this is all empty.
 */
export function thirdPartySources(c: Config, choice: ConsentChoice | null, pathname: string): CspSources {
  const s: CspSources = { script: [], connect: [], img: [], frame: [], style: [] };
  if (c.ANALYTICS_API_KEY && isGranted(choice, "analytics")) {
    // Events, session replay's uploads and its remote configuration, all EU.
    s.connect.push("https://api.eu.amplitude.com", "https://api-sr.eu.amplitude.com", "https://sr-client-cfg.eu.amplitude.com");
  }
  if (c.GTM_ID && isGranted(choice, "marketing")) {
    s.script.push("https://www.googletagmanager.com");
    s.img.push("https://www.googletagmanager.com");
    s.connect.push("https://www.google-analytics.com", "https://*.google-analytics.com", "https://*.analytics.google.com");
  }
  const tiles = c.MAPS_TILES_URL && isGranted(choice, "marketing") ? originOf(c.MAPS_TILES_URL) : null;
  if (tiles && pathname.startsWith("/ofertas/")) s.img.push(tiles);
  if (c.PAYMENT_PROVIDER === "paypal" && c.PAYPAL_CLIENT_ID && /^\/order\/?$/.test(pathname)) {
    s.script.push("https://www.paypal.com");
    s.frame.push("https://www.paypal.com", "https://www.sandbox.paypal.com");
    s.connect.push("https://www.paypal.com", "https://www.sandbox.paypal.com");
    s.img.push("https://www.paypalobjects.com");
  }
  if (c.CAPTCHA_SITE_KEY && /^\/(empresas|login|registro|entrar)(\/|$)/.test(pathname)) {
    s.script.push("https://challenges.cloudflare.com");
    s.frame.push("https://challenges.cloudflare.com");
  }
  return s;
}
