import { Transform, Writable, type TransformCallback } from "node:stream";
import type { ActionFunctionArgs, AppLoadContext, EntryContext, LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { documentCacheControl, isSharedPage } from "#app/document/cache-control.server";
import { inlineScriptHashes } from "#app/document/csp.server";
import type { ShareDocument } from "#app/document/document-cache.server";
import type { RouteHandle } from "#app/root";
import { NonceProvider } from "#app/document/nonce";
import { deferAppScriptsIn, deferAppScriptsParts } from "#app/document/defer-scripts.server";
import { gzipWhole, utf8 } from "#platform/gzip.server";
import { currentRequestId, logger } from "#platform/logger.server";
import { errorReportingEnvironment, reportError } from "#platform/error-reporting.server";
import { RETRY_AFTER_SECONDS } from "#rules/service";
import type { ClientIntegrations } from "#rules/tracking";
import thirdPartySrc from "virtual:ofertas/third-party-entry";
import errorReportingSrc from "virtual:ofertas/error-reporting-entry";
import { config } from "#app/env.server";
import { accountMarker } from "#app/offline/account.server";
import { ACCOUNT_HEADER } from "#app/offline/keep";

const ABORT_DELAY = 5_000;

/**
 * The consented tools' script tag, or "" when no configured tool's category is accepted.
 * It is written after React's document, outside React's tree: no page's JavaScript carries a byte
 * of it (a tag rendered by root.tsx would put its condition in every page's bundle), and React 18
 * leaves extra trailing nodes of <body> alone when it hydrates, as it does with its own streamed
 * scripts that follow </html>. The parser puts it at the end of <body>.
 */
function thirdPartyTag(remixContext: EntryContext, nonce: string): string {
  if (!loadsConsentedTools(remixContext)) return "";
  return `<script type="module" src="${thirdPartySrc}"${nonce ? ` nonce="${nonce}"` : ""} async></script>`;
}
export const streamTimeout = ABORT_DELAY;

const attribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/**
 * Error reporting's script tag when SENTRY_DSN is set, else "": like the consented tools' tag, it
 * is outside React's tree, so a page's own JavaScript carries none of it. Not on a page that ships
 * no JavaScript: nothing there can fail in the browser.
 */
function errorReportingTag(remixContext: EntryContext): string {
  const { SENTRY_DSN, SENTRY_RELEASE } = config();
  if (!SENTRY_DSN || !shipsScripts(remixContext)) return "";
  const settings = [
    `data-sentry-dsn="${attribute(SENTRY_DSN)}"`,
    `data-sentry-environment="${attribute(errorReportingEnvironment(config()))}"`,
    SENTRY_RELEASE ? `data-sentry-release="${attribute(SENTRY_RELEASE)}"` : "",
  ];
  // No nonce: a file of our own origin ('self'), and a page kept for many visitors may carry it.
  return `<script type="module" src="${errorReportingSrc}" async ${settings.filter(Boolean).join(" ")}></script>`;
}

/** The page's JavaScript is not switched off by a route's handle.noScripts (root.tsx). */
function shipsScripts(remixContext: EntryContext): boolean {
  const { matches, loaderData } = remixContext.staticHandlerContext;
  return !matches.some(({ route }) => {
    const noScripts = (remixContext.routeModules[route.id]?.handle as RouteHandle | undefined)?.noScripts;
    return typeof noScripts === "function" ? noScripts(loaderData[route.id]) : noScripts;
  });
}

/** What follows React's document: the consented tools' tag and error reporting's, either may be "". */
const documentTail = (remixContext: EntryContext, nonce: string) => thirdPartyTag(remixContext, nonce) + errorReportingTag(remixContext);

function loadsConsentedTools(remixContext: EntryContext): boolean {
  const root = remixContext.staticHandlerContext.loaderData.root as { integrations?: ClientIntegrations | null } | undefined;
  return Boolean(root?.integrations);
}

/**
 * Remix logs every error a loader or action throws. A request that was refused on purpose (a 4xx
 * response: not found, no such action, a form we could not read) or that the client aborted is
 * not a fault of the server: no stack trace in the log for it.
 */
export function handleError(error: unknown, { request, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  if (error instanceof Response && error.status < 500) return;
  // A 503 (the API or its database is down) was logged by the API, or is the timeout below.
  if (error instanceof Response && error.status === 503) {
    logger.warn({ reqId: currentRequestId(), path: new URL(request.url).pathname }, "API no disponible: página 503.");
    return;
  }
  logger.error({ err: error, reqId: currentRequestId(), method: request.method, path: new URL(request.url).pathname }, "error");
  reportError(error, { source: "storefront", reqId: currentRequestId(), route: routePattern(new URL(request.url).pathname, params) });
}

/** The path with each route parameter's value replaced by its name: no voucher code or token in a report. */
function routePattern(pathname: string, params: Record<string, string | undefined>): string {
  let pattern = decodeURIComponent(pathname);
  for (const [name, value] of Object.entries(params)) if (value) pattern = pattern.replace(`/${value}`, `/:${name}`);
  return pattern;
}

// Development keeps Remix's own loading: React's development build warns about each inert tag it hydrates.
const DEFER_SCRIPTS = import.meta.env.PROD;

/**
 * Whether a loader returned data still on its way (a deferred shelf that was not in the catalogue
 * cache, see readyOrDeferred): then the shell streams at once and the shelf follows. Only the top
 * level of each route's data is looked at, which is where our loaders put a promise.
 */
function hasDeferredData(context: EntryContext): boolean {
  return Object.values(context.staticHandlerContext.loaderData ?? {}).some(
    (data) =>
      data !== null &&
      typeof data === "object" &&
      Object.values(data).some((value) => typeof (value as PromiseLike<unknown> | null)?.then === "function"),
  );
}

/**
 * React's stream, passed on one chunk per React flush: React writes in small pieces and calls
 * `flush()` when a whole part is ready (Remix's adapter flushes the compression stream after every
 * chunk it reads; flushed per small piece, the page went out as more than twice the gzip bytes, at
 * several times the CPU).
 */
class DocumentBody extends Transform {
  private pending: Buffer[] = [];
  /** @param tail written after React's last byte (the consented tools' script tag, or ""). */
  constructor(private readonly tail: string) {
    super();
  }
  _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.pending.push(chunk);
    callback();
  }
  flush() {
    if (!this.pending.length) return;
    const whole = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
    this.pending = [];
    // Remix's module script and preloads come in one React flush (the shell): see defer-scripts.server.ts.
    this.push(DEFER_SCRIPTS ? deferAppScriptsIn(whole) : whole);
  }
  _flush(callback: TransformCallback) {
    this.flush();
    if (this.tail) this.push(this.tail);
    callback();
  }
}

/**
 * A page with nothing deferred, whole: rendered to the end before a byte leaves, then gzipped in
 * one call and sent with a Content-Length, as one buffer instead of a stream of React's small
 * pieces. Remix's <StreamTransfer> reads the loader data from its stream with a suspension per
 * read, so the page comes out once React reports everything ready. Null when the page did not
 * come out whole (a boundary that failed renders as `<!--$!-->`): that page streams, where React
 * reports the error and the status becomes 500.
 */
async function renderWhole(
  request: Request,
  status: number,
  headers: Headers,
  remixContext: EntryContext,
  nonce: string,
  share?: ShareDocument,
): Promise<Response | null> {
  // A page kept for many visitors carries no nonce: its policy lists its scripts' hashes.
  const html = await renderToText(remixContext, request.url, share ? "" : nonce);
  if (html === null || html.includes("<!--$!")) return null;
  const document = utf8([...(DEFER_SCRIPTS ? deferAppScriptsParts(html) : [html]), documentTail(remixContext, nonce)]);
  headers.set("Content-Type", "text/html; charset=utf-8");
  share?.({ html: document, scriptHashes: inlineScriptHashes(document.toString("utf8")), headers });
  const whole = gzipWhole(request.headers.get("accept-encoding"), document);
  // Vary: Accept-Encoding is the compression middleware's, on every page (gzipped or not).
  if (whole.gzip) headers.set("Content-Encoding", "gzip");
  headers.set("Content-Length", String(whole.body.length));
  // Both buffers (utf8, gzipSync) are backed by a plain ArrayBuffer; the type allows a shared one.
  return new Response(whole.body as Uint8Array<ArrayBuffer>, { headers, status });
}

/** React's whole output for the page as one string, or null when its shell failed or it timed out. */
function renderToText(remixContext: EntryContext, url: string, nonce: string): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    });
    sink.on("finish", () => resolve(Buffer.concat(chunks).toString("utf8")));
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={url} abortDelay={ABORT_DELAY} nonce={nonce || undefined} />
      </NonceProvider>,
      {
        nonce: nonce || undefined,
        onAllReady() {
          clearTimeout(timer);
          pipe(sink);
        },
        onShellError() {
          clearTimeout(timer);
          resolve(null);
        },
        onError() {
          // A boundary that failed is in the markup as <!--$!-->; the caller streams that page instead.
        },
      },
    );
    const timer = setTimeout(() => {
      abort();
      resolve(null);
    }, ABORT_DELAY);
  });
}

/** Single-fetch answers say who they were for too: the offline worker reads it (app/offline/keep.ts). */
export async function handleDataRequest(response: Response, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
  response.headers.set(ACCOUNT_HEADER, await accountMarker(request));
  return response;
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // Who the page is for, for the offline worker; a page kept for many visitors (only anonymous
  // ones) keeps GUEST with its headers.
  responseHeaders.set(ACCOUNT_HEADER, await accountMarker(request));
  // The matched route's id, for the request's duration metric (server/metrics.ts).
  const leafRoute = remixContext.staticHandlerContext.matches.at(-1)?.route.id;
  if (leafRoute && typeof loadContext.setRoute === "function") (loadContext.setRoute as (id: string) => void)(leafRoute);
  if (responseStatusCode === 503) responseHeaders.set("Retry-After", String(RETRY_AFTER_SECONDS));
  // Set per request by securityHeaders (server.ts passes it in the load context).
  const nonce = typeof loadContext.cspNonce === "string" ? loadContext.cspNonce : "";
  // Pages show the visitor's cart and region: private, unless the route set its own header or
  // opted in with handle.publicCache and the visitor is anonymous (cache-control.server.ts).
  let shared = false;
  if (!responseHeaders.has("Cache-Control")) {
    const matches = remixContext.staticHandlerContext.matches;
    const leaf = matches[matches.length - 1]?.route.id;
    const handle = (leaf ? remixContext.routeModules[leaf]?.handle : undefined) as RouteHandle | undefined;
    shared = isSharedPage(request.method, responseStatusCode, responseHeaders, handle?.publicCache);
    responseHeaders.set("Cache-Control", documentCacheControl(request, responseStatusCode, responseHeaders, handle?.publicCache));
    // A shared cache must not hand the anonymous page to a visitor who has cookies.
    responseHeaders.append("Vary", "Cookie");
  }
  if (hasDeferredData(remixContext)) return streamDocument(request, responseStatusCode, responseHeaders, remixContext, nonce);
  // Set by the document cache when the request may be answered with a kept page (server.ts). A
  // page that loads consented tools is not kept: the tag manager hands the page's nonce on.
  const share = shared && !loadsConsentedTools(remixContext) ? (loadContext.shareDocument as ShareDocument | undefined) : undefined;
  return renderWhole(request, responseStatusCode, responseHeaders, remixContext, nonce, share).then(
    (whole) => whole ?? streamDocument(request, responseStatusCode, responseHeaders, remixContext, nonce),
  );
}

/** A page whose loader returned data still on its way: the shell at once, the rest as it comes. */
function streamDocument(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext, nonce: string) {
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          const body = new DocumentBody(documentTail(remixContext, nonce));
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (!shellRendered) return;
          logger.error({ err: error, reqId: currentRequestId(), path: new URL(request.url).pathname }, "error");
          reportError(error, {
            source: "storefront",
            reqId: currentRequestId(),
            route: remixContext.staticHandlerContext.matches.at(-1)?.route.id,
          });
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
