import type { RequestHandler } from "express";

/** Headers on every response; only the widget under /iframe may be framed by other sites. */
export const securityHeaders: RequestHandler = (req, res, next) => {
  const framable = req.path === "/iframe" || req.path.startsWith("/iframe/");
  // The till's «Canjear cupón» scans the voucher's QR with the phone's camera; nowhere else needs it.
  const camera = req.path === "/socios" || req.path.startsWith("/socios/") ? "camera=(self)" : "camera=()";
  res.set({
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": `${camera}, microphone=(), geolocation=(), interest-cohort=()`,
    "Content-Security-Policy": framable ? "frame-ancestors *" : "frame-ancestors 'none'",
  });
  if (!framable) res.set("X-Frame-Options", "DENY");
  if (req.secure) res.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  next();
};

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null; // a malformed Origin is refused like a foreign one
  }
}

/**
 * Storefront forms post only from our own pages. Browsers send Sec-Fetch-Site (and Origin) on
 * every POST, so a form on another site is refused here, before any action runs; together with
 * SameSite=Lax cookies this is our CSRF protection. Clients that send neither header (curl,
 * old browsers) are let through: they carry no ambient cookies of a victim.
 */
export const rejectCrossSiteForms: RequestHandler = (req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
  const site = req.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") {
    res.status(403).type("text/plain; charset=utf-8").send("Petición rechazada: el formulario no viene de esta web.");
    return;
  }
  const origin = req.get("origin");
  if (!site && origin && origin !== "null" && hostOf(origin) !== req.get("host")) {
    res.status(403).type("text/plain; charset=utf-8").send("Petición rechazada: el formulario no viene de esta web.");
    return;
  }
  next();
};
