import type { RequestHandler } from "express";
import { CROSS_SITE_MESSAGE, isCrossSiteWrite } from "#rules/cross-site";
import { contentSecurityPolicy, createNonce } from "#app/document/csp.server";
import { config } from "#app/env.server";
import { thirdPartySources } from "#app/document/third-party-csp.server";

/** Computed once per configuration: it depends on nothing else. */
let cachedPolicy: { for: object; sources: ReturnType<typeof toDirectives> } | null = null;
const toDirectives = (s: ReturnType<typeof thirdPartySources>) => ({
  "script-src": s.script,
  "connect-src": s.connect,
  "img-src": s.img,
  "frame-src": s.frame,
  "style-src": s.style,
  "worker-src": s.worker,
});
function thirdPartyPolicy(settings: ReturnType<typeof config>) {
  if (cachedPolicy?.for !== settings) cachedPolicy = { for: settings, sources: toDirectives(thirdPartySources(settings)) };
  return cachedPolicy.sources;
}

const permissions = (camera: string, geolocation = "geolocation=()") => `${camera}, microphone=(), ${geolocation}, interest-cohort=()`;
const HSTS = "max-age=31536000; includeSubDomains";
/** What the storefront's and the API's answers both carry. */
const COMMON_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/** The partner's portal, where the till scans vouchers with the camera. */
const isPortal = (path: string) => path === "/socios" || path.startsWith("/socios/");

/** Only the widget under /iframe may be framed by other sites. */
const isFramable = (path: string) => path === "/iframe" || path.startsWith("/iframe/");

/**
 * The storefront's Content-Security-Policy for a response to `path`, its inline scripts allowed by
 * the response's nonce or, for a shared page (document-cache.server.ts), by their hashes.
 */
export function pagePolicy(path: string, inline: { nonce: string } | { scriptHashes: string[] }): string {
  const settings = config();
  return contentSecurityPolicy({
    ...inline,
    framable: isFramable(path),
    // The till's QR reader on phones without BarcodeDetector is ZXing in WebAssembly, which a
    // script-src without 'wasm-unsafe-eval' may not compile; no other page runs WebAssembly.
    wasm: isPortal(path),
    config: settings,
    // Development pages carry Vite's own inline scripts, which have no nonce.
    scripts: settings.isProduction,
    thirdParty: settings.isProduction ? thirdPartyPolicy(settings) : undefined,
  });
}

/**
 * Headers on every storefront response (pages, files). Each response gets its own CSP nonce in
 * res.locals.cspNonce, which server.ts hands to Remix (load context) for <Scripts nonce>; a shared
 * page replaces the policy with one of its scripts' hashes.
 */
export const securityHeaders: RequestHandler = (req, res, next) => {
  // The till's «Canjear cupón» scans the voucher's QR with the phone's camera; nowhere else needs it.
  const camera = isPortal(req.path) ? "camera=(self)" : "camera=()";
  const nonce = createNonce();
  res.locals.cspNonce = nonce;
  res.set({
    ...COMMON_HEADERS,
    // «Cerca de mí» asks the browser where the person is (the browser asks them), on the shop's own pages.
    "Permissions-Policy": permissions(camera, "geolocation=(self)"),
    "Content-Security-Policy": pagePolicy(req.path, { nonce }),
  });
  if (!isFramable(req.path)) res.set("X-Frame-Options", "DENY");
  if (req.secure) res.set("Strict-Transport-Security", HSTS);
  next();
};

/**
 * The API's headers. Its answers are JSON, never a page a browser runs, so its policy allows
 * nothing and is the same on every response: no nonce to draw and no policy to build per request.
 */
const API_HEADERS = {
  ...COMMON_HEADERS,
  "Permissions-Policy": permissions("camera=()"),
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
};

export const apiSecurityHeaders: RequestHandler = (req, res, next) => {
  res.set(API_HEADERS);
  if (req.secure) res.set("Strict-Transport-Security", HSTS);
  next();
};

/**
 * The one storefront address another site posts to: Sign in with Apple's form_post callback. It
 * changes nothing itself; it hands the answer on as a GET that is checked against the state in
 * the session cookie (app/routes/login_.social.$provider/social-login.server.ts), which a forged post cannot match.
 */
const CROSS_SITE_POSTS = new Set(["/login/social/apple/callback"]);

/**
 * Storefront forms post only from our own pages (rules/cross-site.ts says how that is told); a form
 * on another site is refused here, before any action runs. Together with SameSite=Lax cookies
 * this is our CSRF protection.
 */
export const rejectCrossSiteForms: RequestHandler = (req, res, next) => {
  if (req.method === "POST" && CROSS_SITE_POSTS.has(req.path)) return next();
  if (isCrossSiteWrite({ method: req.method, secFetchSite: req.get("sec-fetch-site"), origin: req.get("origin"), host: req.get("host") })) {
    res.status(403).type("text/plain; charset=utf-8").send(CROSS_SITE_MESSAGE);
    return;
  }
  next();
};
