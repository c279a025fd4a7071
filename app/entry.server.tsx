import { Transform, type TransformCallback } from "node:stream";
import type { ActionFunctionArgs, AppLoadContext, EntryContext, LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { documentCacheControl } from "#app/lib/cache-control.server";
import type { RouteHandle } from "#app/root";
import { NonceProvider } from "#app/lib/nonce";
import { deferAppScripts, deferAppScriptsIn } from "#app/lib/defer-scripts.server";
import { gzipWhole } from "#lib/gzip.server";
import { installRouteMatchCache } from "#app/lib/route-match-cache.server";
import type { ClientIntegrations } from "#lib/tracking";
import thirdPartySrc from "virtual:ofertas/third-party-entry";

const ABORT_DELAY = 5_000;

/**
 * The consented tools' script tag (issue 12), or "" when no configured tool's category is accepted.
 * It is written after React's document, outside React's tree: no page's JavaScript carries a byte
 * of it (a tag rendered by root.tsx would put its condition in every page's bundle), and React 18
 * leaves extra trailing nodes of <body> alone when it hydrates, as it does with its own streamed
 * scripts that follow </html>. The parser puts it at the end of <body>.
 */
function thirdPartyTag(remixContext: EntryContext, nonce: string): string {
  const root = remixContext.staticHandlerContext.loaderData.root as { integrations?: ClientIntegrations | null } | undefined;
  if (!root?.integrations) return "";
  return `<script type="module" src="${thirdPartySrc}"${nonce ? ` nonce="${nonce}"` : ""} async></script>`;
}
export const streamTimeout = ABORT_DELAY;

/**
 * Remix logs every error a loader or action throws. A request that was refused on purpose (a 4xx
 * response: not found, no such action, a form we could not read) or that the client aborted is
 * not a fault of the server: no stack trace in the log for it.
 */
export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  if (error instanceof Response && error.status < 500) return;
  console.error(error);
}

// Development keeps Remix's own loading: React's development build warns about each inert tag it hydrates.
const DEFER_SCRIPTS = import.meta.env.PROD;

// Not in development, where the route tree changes under the running server.
if (import.meta.env.PROD) installRouteMatchCache();

/**
 * Whether a loader returned data still on its way (a deferred shelf that was not in the catalogue
 * cache, see readyOrDeferred): then the shell streams at once and the shelf follows. Only the top
 * level of each route's data is looked at, which is where our loaders put a promise.
 */
function hasDeferredData(context: EntryContext): boolean {
  return Object.values(context.staticHandlerContext.loaderData ?? {}).some(
    (data) => data !== null && typeof data === "object" && Object.values(data).some((value) => typeof (value as PromiseLike<unknown> | null)?.then === "function"),
  );
}

/** A page with nothing deferred that is still not whole after this long streams all the same. */
const WHOLE_DOCUMENT_MAX_WAIT_MS = 1_000;

/**
 * What React writes, collected. A page with nothing deferred leaves whole once React is done
 * (`onWhole`: one string, gzipped in one call with a Content-Length), which cost the home page
 * 4–10 % less CPU than streaming it through web streams and the compression middleware's zlib
 * stream. Otherwise `stream()` turns it into a pass-through: React writes in 2 KB pieces and calls
 * `flush()` when a whole part is ready, and one chunk per flush goes on (Remix's adapter flushes
 * the compression stream after every chunk it reads; per 2 KB piece, 70 KB of home page went out
 * as 28 KB of gzip instead of 11 KB, at three times the CPU).
 */
class DocumentBody extends Transform {
  private pending: Buffer[] = [];
  private streaming = false;
  /** @param tail written after React's last byte (the consented tools' script tag, or ""). */
  constructor(
    private readonly tail: string,
    private readonly onWhole: (html: string) => void,
  ) {
    super();
  }
  _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.pending.push(chunk);
    callback();
  }
  stream() {
    this.streaming = true;
    this.flush();
  }
  flush() {
    if (!this.streaming || !this.pending.length) return;
    const whole = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
    this.pending = [];
    // Remix's module script and preloads come in one React flush (the shell): see defer-scripts.server.ts.
    this.push(DEFER_SCRIPTS ? deferAppScriptsIn(whole) : whole);
  }
  _flush(callback: TransformCallback) {
    if (this.streaming) {
      this.flush();
      if (this.tail) this.push(this.tail);
    } else {
      const html = Buffer.concat(this.pending).toString("utf8") + this.tail;
      this.pending = [];
      this.onWhole(DEFER_SCRIPTS ? deferAppScripts(html) : html);
    }
    callback();
  }
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // Set per request by securityHeaders (server.ts passes it in the load context).
  const nonce = typeof loadContext.cspNonce === "string" ? loadContext.cspNonce : "";
  // Pages show the visitor's cart and region: private, unless the route set its own header or
  // opted in with handle.publicCache and the visitor is anonymous (cache-control.server.ts).
  if (!responseHeaders.has("Cache-Control")) {
    const matches = remixContext.staticHandlerContext.matches;
    const leaf = matches[matches.length - 1]?.route.id;
    const handle = (leaf ? remixContext.routeModules[leaf]?.handle : undefined) as RouteHandle | undefined;
    responseHeaders.set("Cache-Control", documentCacheControl(request, responseStatusCode, responseHeaders, handle?.publicCache));
    // A shared cache must not hand the anonymous page to a visitor who has cookies.
    responseHeaders.append("Vary", "Cookie");
  }
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  return new Promise((resolve, reject) => {
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
          // The status the shell rendered with: an error React recovers from later (onError) does
          // not turn a page that leaves whole into a 500 where the streamed one would be a 200.
          const status = responseStatusCode;
          let streamAfter: NodeJS.Timeout | undefined;
          const body = new DocumentBody(thirdPartyTag(remixContext, nonce), (html) => {
            clearTimeout(streamAfter);
            const whole = gzipWhole(request.headers.get("accept-encoding"), html);
            // Vary: Accept-Encoding is the compression middleware's, on every page (gzipped or not).
            if (whole.gzip) responseHeaders.set("Content-Encoding", "gzip");
            responseHeaders.set("Content-Length", String(Buffer.byteLength(whole.body)));
            // A Buffer from gzipSync owns a plain ArrayBuffer; the type allows a shared one.
            resolve(new Response(whole.body as string | Uint8Array<ArrayBuffer>, { headers: responseHeaders, status }));
          });
          const stream = () => {
            body.stream();
            resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status }));
          };
          if (hasDeferredData(remixContext)) stream();
          else streamAfter = setTimeout(stream, WHOLE_DOCUMENT_MAX_WAIT_MS);
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
