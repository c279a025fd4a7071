import type { IncomingHttpHeaders } from "node:http";
import { gunzipSync, gzipSync } from "node:zlib";
import type { Session } from "@remix-run/node";
import type { RequestHandler } from "express";
import { readChoice } from "#rules/consent";
import { acceptsGzip, DYNAMIC_GZIP_LEVEL } from "#platform/gzip.server";
import { Recent } from "#platform/recent";
import { authData } from "#app/state/auth.server";
import { isAnonymous, PRIVATE_PAGE, PUBLIC_PAGE } from "./cache-control.server";
import { consentCookie, cookieNames, cookies } from "#app/state/cookies.server";
import { sessionRegion } from "#app/state/session.server";

/**
 * Shared pages, kept rendered: what a CDN does with the `s-maxage` they carry, done in the
 * process. A page that opted in (route handle `publicCache`) is the same for every visitor who
 * shares its URL, region and consent choice, so the first such visitor's page is kept for
 * CATALOGUE_CACHE_SECONDS and the others get it without a loader or a render.
 *
 * Whether a request may be answered from here is decided from the request alone, before Remix:
 * a GET of a page address whose query holds only listing filters, with no credentials, no cookie
 * but the session and the consent choice, and a session that holds nothing but a region. Anything
 * a visitor made theirs (a login, a cart, a checkout, favourites, recent searches or viewed
 * offers, a message waiting to be shown, a tool's cookie) makes the request personal: rendered for
 * them, never kept. Whether a page is kept is decided by its render (entry.server.tsx): a shared
 * page rendered whole, 200, setting no cookie and loading no consented tool.
 *
 * A kept page carries no nonce: its inline scripts are allowed by their hashes
 * (csp.server.ts), the same for every copy.
 */

/** What entry.server.tsx hands over for a shared page it rendered: the document and its scripts' hashes. */
export type SharedDocument = { html: Buffer; scriptHashes: string[]; headers: Headers };
/** In the load context of a request that may be answered with a kept page: keeps the page rendered for it. */
export type ShareDocument = (document: SharedDocument) => void;

/** The query parameters shared pages read: listing filters and the page number. */
const SHARED_QUERY = new Set(["page", "region", "category", "search", "q"]);
/** The cookies a shared page may depend on: each is read below, into the key. */
const SHARED_COOKIES = new Set(["__session", "ofertas_consent"]);
/**
 * Whether the session holds nothing a page shows of its visitor but the region: no login (a
 * logged-out visitor keeps a login with no token, spec section 3), favourites, recent searches,
 * viewed offers, message or anything else.
 */
const sharedSession = (session: Session) =>
  Object.keys(session.data).every((field) => field === "region" || (field === "authData" && authData(session) === null));
/** Headers of the render that are worked out again for each answer. */
const PER_ANSWER = new Set(["cache-control", "content-encoding", "content-length", "content-security-policy", "set-cookie"]);
/** Pages kept, the least recently asked for forgotten first: a few MB of gzip. */
const MAX_PAGES = 256;

type KeyedRequest = { method: string; originalUrl: string; path: string; protocol: string; hostname: string; headers: IncomingHttpHeaders };

/**
 * The key of the page a request may share, or null when the request is personal or is not for a
 * page. The address (as Remix will read it), the region and the consent choice, each read as the
 * pages read them (signed cookies that fail their signature read as absent there and here).
 */
export async function sharedDocumentKey(req: KeyedRequest): Promise<string | null> {
  if (req.method !== "GET" || req.path.endsWith(".data")) return null;
  if (req.headers.authorization !== undefined) return null;
  const query = req.originalUrl.indexOf("?");
  if (query >= 0 && [...new URLSearchParams(req.originalUrl.slice(query + 1)).keys()].some((name) => !SHARED_QUERY.has(name))) return null;
  const header = req.headers.cookie ?? "";
  if (cookieNames(header).some((name) => !SHARED_COOKIES.has(name))) return null;
  const session = await cookies()
    .session.getSession(header || null)
    .catch(() => null);
  if (!session || !sharedSession(session)) return null;
  const consent = readChoice(
    await consentCookie()
      .parse(header || null)
      .catch(() => null),
  );
  return JSON.stringify([
    req.protocol,
    req.hostname,
    req.headers.host ?? "",
    req.headers["x-forwarded-host"] ?? "",
    req.originalUrl,
    sessionRegion(session).value ?? "",
    consent ? `${consent.analytics ? "a" : ""}${consent.marketing ? "m" : ""}` : null,
  ]);
}

/** A kept page, with the Remix route that rendered it (its label in the metrics, as when rendered). */
type Kept = { gzip: Buffer; headers: [string, string][]; scriptHashes: string[]; storedAt: number; route?: string };

export type DocumentCacheOptions = {
  /** How long a page is kept (CATALOGUE_CACHE_SECONDS); 0 keeps none. */
  seconds: number;
  /** The page's Content-Security-Policy with its inline scripts allowed by hash (security.server.ts). */
  policy: (path: string, scriptHashes: string[]) => string;
  now?: () => number;
};

/**
 * The middleware in front of the Remix handler: answers a request with the page kept for its key,
 * or leaves `res.locals.shareDocument` for entry.server.tsx to keep the page it renders.
 */
export function documentCache({ seconds, policy, now = Date.now }: DocumentCacheOptions): RequestHandler {
  const kept = new Recent<string, Kept>(MAX_PAGES);
  return (req, res, next) => {
    if (seconds <= 0) return next();
    sharedDocumentKey(req).then((key) => {
      // A cookie set on the way here (a renewed login) makes the answer the visitor's own.
      if (key === null || res.hasHeader("set-cookie")) return next();
      const page = kept.get(key);
      const age = page ? now() - page.storedAt : Infinity;
      if (page && age < seconds * 1000) {
        res.status(200);
        if (page.route) res.locals.route = page.route;
        for (const [name, value] of page.headers) res.append(name, value);
        res.set({
          // An empty header is no header, as Remix reads the request.
          "Cache-Control": isAnonymous((name) => Boolean(req.headers[name])) ? PUBLIC_PAGE : PRIVATE_PAGE,
          "Content-Security-Policy": policy(req.path, page.scriptHashes),
          // How long it has been kept: a CDN in front keeps it only for what is left of s-maxage.
          Age: String(Math.floor(age / 1000)),
        });
        const gzip = acceptsGzip(req.headers["accept-encoding"]);
        const body = gzip ? page.gzip : gunzipSync(page.gzip);
        if (gzip) res.set("Content-Encoding", "gzip");
        res.set("Content-Length", String(body.length));
        res.end(body);
        return;
      }
      const share: ShareDocument = ({ html, scriptHashes, headers }) => {
        const stored = [...headers].filter(([name]) => !PER_ANSWER.has(name.toLowerCase()));
        const route = res.locals.route as string | undefined;
        kept.set(key, { gzip: gzipSync(html, { level: DYNAMIC_GZIP_LEVEL }), headers: stored, scriptHashes, storedAt: now(), route });
        res.set("Content-Security-Policy", policy(req.path, scriptHashes));
      };
      res.locals.shareDocument = share;
      next();
    }, next);
  };
}
