import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { documentCacheControl } from "#app/lib/cache-control.server";
import type { RouteHandle } from "#app/root";

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
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
    const { pipe, abort } = renderToPipeableStream(<RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />, {
      [waitForAll ? "onAllReady" : "onShellReady"]() {
        shellRendered = true;
        const body = new PassThrough();
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
    });
    setTimeout(abort, ABORT_DELAY);
  });
}
