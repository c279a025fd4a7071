import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from "express";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ViteDevServer } from "vite";
import type { Config } from "#platform/config.server";
import { DYNAMIC_GZIP_LEVEL } from "#platform/gzip.server";
import { logRequestError, routeOf } from "#platform/logger.server";
import { reportError } from "#platform/error-reporting.server";
import type { Database } from "#api/db/client";
import { createApi } from "#api/index";
import { allowedHosts, hostGuard } from "#api/hosts";
import { documentCache, type ShareDocument } from "#app/document/document-cache.server";
import { refreshAuth } from "#server/auth-refresh";
import { warnOnceWithoutForwardedFor } from "#server/forwarded";
import { labelDataRequestsBy, measureRequests, metricsEndpoint } from "#server/metrics";
import { requestId, requestLog, withRequestContext } from "#server/request-log";
import { apiSecurityHeaders, pagePolicy, rejectCrossSiteForms, securityHeaders } from "#server/security";
import { buildFiles } from "#server/static-files";

export type Site = { app: Express; close: () => Promise<void> };

/** Every request gets its id and, when finished, its log line and its duration in the metrics. */
function baseApp(config: Config): Express {
  const app = express();
  app.disable("x-powered-by");
  app.use(requestLog, measureRequests);
  // Before the host check: a scraper asks by address, not by the site's name. With METRICS_PORT
  // the metrics are served there and not here.
  if (!config.METRICS_PORT) app.get("/metrics", metricsEndpoint(config));
  // Forwarded headers are believed only from this machine (the storefront calling its own API, or a
  // local reverse proxy) and the proxies TRUST_PROXY names; anyone else could forge the client
  // address or the public host. The per-address limits and the logs use the address this yields.
  app.set("trust proxy", config.trustProxy);
  return app;
}

/** A worker (PROCESS_ROLE=worker) serves no pages: probes and metrics only. */
export function workerSite(config: Config): Site {
  const app = baseApp(config);
  app.use((_req, res) => {
    res
      .status(404)
      .set("Cache-Control", "no-store")
      .type("text/plain; charset=utf-8")
      .send("Este proceso hace el trabajo de fondo (PROCESS_ROLE=worker): no sirve la tienda.");
  });
  return { app, close: async () => {} };
}

/** The shop: the API at /api/v0 and the Remix storefront, as a web process (or all) serves them. */
export async function webSite(config: Config, db: Database): Promise<Site> {
  const app = baseApp(config);
  // A proxy that trusts itself to us but forwards no client address makes every buyer one address.
  if (config.isDeployment) app.use(warnOnceWithoutForwardedFor(config.trustProxy));
  // Before anything else: no page, redirect or link is ever built from a host we do not serve.
  app.use(hostGuard(allowedHosts(config)));
  // Whatever is not gzipped whole (gzipWhole) on its way out: streamed pages, small API answers.
  app.use(compression({ level: DYNAMIC_GZIP_LEVEL }));
  // Spec section 7 gives both readings of the base path; one API instance serves both.
  app.use(["/api/v0", "/v0"], apiSecurityHeaders, createApi({ db, config }));
  app.use(securityHeaders);

  let viteDevServer: ViteDevServer | undefined;
  if (config.isProduction) {
    // The build's client files: their brotli/gzip copies (scripts/precompress.ts) when accepted, a
    // year's cache under /assets/, an hour's elsewhere.
    app.use(buildFiles("build/client"));
  } else {
    const vite = await import("vite");
    viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
    app.use(viteDevServer.middlewares);
    app.use(express.static("public", { maxAge: "1h", index: false }));
  }

  app.use(rejectCrossSiteForms);
  // Legacy Remix data requests (?_data=…) come only from an old cached bundle or a bot: this
  // single-fetch build has nothing to answer them with but a logged warning.
  app.use((req, res, next) => {
    if (!new URLSearchParams(req.url.split("?")[1] ?? "").has("_data")) return next();
    res
      .status(400)
      .set("Cache-Control", "no-store")
      .type("text/plain; charset=utf-8")
      .send("Petición no válida: vuelve a cargar la página.");
  });
  // The buyer's address, as Express worked it out (forwarded headers only from a trusted proxy),
  // for the storefront to pass on to the API's rate limits. Whatever a client sent is overwritten.
  app.use((req, _res, next) => {
    req.headers["x-ofertas-client-ip"] = req.ip ?? "";
    next();
  });
  // Expired access tokens are renewed once per request, before the storefront calls the API.
  app.use(withRequestContext(refreshAuth));
  const build = viteDevServer
    ? () => viteDevServer.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>
    : // From the working directory, like build/client above: this file also runs compiled, from build/node/.
      ((await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as ServerBuild);
  if (typeof build !== "function") labelDataRequestsBy(build.routes);
  // Shared pages kept rendered for the catalogue's freshness; production only, where the build is
  // fixed. Each kept page is labelled in the metrics by the route that rendered it.
  if (config.isProduction)
    app.use(documentCache({ seconds: config.CATALOGUE_CACHE_SECONDS, policy: (path, scriptHashes) => pagePolicy(path, { scriptHashes }) }));
  const remixHandler: RequestHandler = createRequestHandler({
    build,
    mode: config.isProduction ? "production" : "development",
    // The CSP nonce securityHeaders made for this response, for Remix's inline scripts, and, when
    // the request may share a page, how to keep the one rendered for it (document-cache.server.ts).
    getLoadContext: (_req, res) => ({
      cspNonce: res.locals.cspNonce as string,
      shareDocument: res.locals.shareDocument as ShareDocument | undefined,
      setRoute: (id: string) => (res.locals.route = id),
    }),
  });
  app.all("*", withRequestContext(remixHandler));
  // Express's own refusals (a path that does not decode, a static file request gone wrong) are the
  // client's doing: a plain 4xx, no stack trace in the log.
  app.use(((error, req, res, next) => {
    const status = (error as { status?: number; statusCode?: number })?.status ?? (error as { statusCode?: number })?.statusCode;
    if (res.headersSent) return next(error);
    if (typeof status === "number" && status >= 400 && status < 500) {
      res.status(status).set("Cache-Control", "no-store").type("text/plain; charset=utf-8").send("Petición no válida.");
      return;
    }
    logRequestError(error, req, res);
    reportError(error, { source: "storefront", reqId: requestId(req), route: routeOf(req, res) });
    res.status(500).type("text/plain; charset=utf-8").send("Error interno del servidor. Inténtalo de nuevo más tarde.");
  }) as ErrorRequestHandler);
  return { app, close: async () => void (await viteDevServer?.close()) };
}
