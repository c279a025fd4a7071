/**
 * Whether a state-changing request comes from another site: the storefront's CSRF check and the
 * sandbox payment page's, written once. Browsers send Sec-Fetch-Site on every request (and Origin
 * on every POST); a form on another site, or in a sandboxed frame or a data: URL (Origin: null),
 * is refused. Clients that send neither header (curl, old browsers) carry no ambient cookies of a
 * victim and are let through.
 */
export function isCrossSiteWrite(req: {
  method: string;
  secFetchSite?: string | null;
  origin?: string | null;
  host?: string | null;
}): boolean {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return false;
  const site = req.secFetchSite;
  if (site) return site !== "same-origin" && site !== "none";
  const origin = req.origin;
  if (!origin) return false;
  if (origin === "null") return true; // an opaque origin is nobody's page of ours
  return hostOf(origin) !== req.host;
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null; // a malformed Origin is refused like a foreign one
  }
}

export const CROSS_SITE_MESSAGE = "Petición rechazada: el formulario no viene de esta web.";
