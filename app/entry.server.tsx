import { Transform, type TransformCallback } from "node:stream";
import type { ActionFunctionArgs, AppLoadContext, EntryContext, LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { documentCacheControl } from "#app/lib/cache-control.server";
import type { RouteHandle } from "#app/root";
import { NonceProvider } from "#app/lib/nonce";
import { deferAppScriptsIn } from "#app/lib/defer-scripts.server";
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

/**
 * React writes its HTML in 2 KB pieces and calls `flush()` when a whole part is ready (the shell,
 * then each resolved <Suspense>). Remix's adapter flushes the compression stream after every piece
 * it reads, so without this each 2 KB ended a deflate block: 70 KB of home page went out as 28 KB
 * of gzip instead of 11 KB, at three times the CPU. Passing on one chunk per React flush keeps the
 * streaming (the shell still leaves at once) and lets gzip see whole parts.
 */
class FlushCoalescer extends Transform {
  private pending: Buffer[] = [];
  /** @param tail written after React's last byte (the consented tools' script tag, or ""). */
  constructor(private readonly tail = "") {
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
          const body = new FlushCoalescer(thirdPartyTag(remixContext, nonce));
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
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
