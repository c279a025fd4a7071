import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import type { ViteDevServer } from "vite";
import { inArrivalOrder } from "#server/arrival-order";
import { joinWhenReady, superviseWorkers } from "#server/cluster";
import { loadConfigOrExit } from "#platform/config.server";
import { deploymentWarnings } from "#platform/config/deployment.server";
import { DYNAMIC_GZIP_LEVEL } from "#platform/gzip.server";
import { createApi } from "#api/index";
import cluster from "node:cluster";
import { createServer } from "node:http";
import { logger, logRequestError, routeOf } from "#platform/logger.server";
import { flushErrorReports, reportError, startErrorReporting } from "#platform/error-reporting.server";
import { isDatabaseUnavailable } from "#api/db/errors";
import { createLifecycle, exitAfter } from "#server/lifecycle";
import { labelDataRequestsBy, measureRequests, metricsEndpoint, registerDatabaseMetrics, serveClusterMetrics } from "#server/metrics";
import { requestId, requestLog, withRequestContext } from "#server/request-log";
import path from "node:path";
import v8 from "node:v8";
import { pathToFileURL } from "node:url";
import { DataDirInUseError, registerControlCommand } from "#api/control";
import { allowedHosts, hostGuard } from "#api/hosts";
import { startDatabase } from "#api/db/startup";
import { registerDatabaseCommands } from "#api/db/command";
import { MigrationChangedError, migrationsCheck, PendingMigrationsError } from "#api/db/migrate";
import { startReservationSweep } from "#api/services/sales/sweep";
import { startMailWorker } from "#api/mail/worker";
import { queueDigestNow, startDigestSchedule } from "#api/mail/digest";
import { startReminderSchedule } from "#api/services/reminders/schedule";
import { startAnalyticsDelivery } from "#api/analytics/delivery";
import { staffCommand } from "#api/services/staff-accounts";
import { apiSecurityHeaders, pagePolicy, securityHeaders, rejectCrossSiteForms } from "#server/security";
import { documentCache, type ShareDocument } from "#app/document/document-cache.server";
import { refreshAuth } from "#server/auth-refresh";
import { buildFiles } from "#server/static-files";

const config = loadConfigOrExit();
logger.level = config.LOG_LEVEL;
if (cluster.isPrimary) for (const warning of deploymentWarnings(config)) logger.warn(warning);
// Before anything can fail: with SENTRY_DSN set, a crash from here on is reported too.
await startErrorReporting(config);

if (cluster.isPrimary && config.WEB_CONCURRENCY > 1) {
  if (config.DATABASE_URL) {
    // Migrations and demo data once, before the workers (each finds them done).
    const once = await startDatabase(config).catch(refuseToStart);
    await once.database.close();
    logger.info(
      { workers: config.WEB_CONCURRENCY },
      `WEB_CONCURRENCY=${config.WEB_CONCURRENCY}: ${config.WEB_CONCURRENCY} procesos sobre PostgreSQL.`,
    );
    serveClusterMetrics();
    await superviseWorkers(config.WEB_CONCURRENCY, { shutdownMs: config.SHUTDOWN_TIMEOUT * 1000 });
  }
  logger.warn(
    `WEB_CONCURRENCY=${config.WEB_CONCURRENCY} ignorado: la base de datos embebida (PGlite) admite un solo proceso; se sirve con uno. Para varios, DATABASE_URL.`,
  );
}

// The port opens first: probes get /healthz 200 and /readyz 503 while the database starts, and
// every other request a 503 page until the site is mounted (server/lifecycle.ts).
const lifecycle = createLifecycle();
const server = createServer(lifecycle.listener);
server.keepAliveTimeout = 65_000;
const listen = async () => {
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  const address = server.address();
  return typeof address === "object" && address ? address.port : config.PORT;
};
// A copy forked while another one serves joins the shared port only once it is ready, so the
// connections node:cluster hands it are never answered with the starting 503 (server/cluster.ts).
const listening = joinWhenReady() ? null : listen();
if (listening) logger.info({ port: await listening }, "Puerto abierto; la base de datos arranca (/readyz 503 hasta que esté lista).");
// Until the site is mounted nothing has started that needs finishing (a half-built embedded
// database is finished by the next start).
const stopEarly = () => process.exit(0);
process.once("SIGTERM", stopEarly);
process.once("SIGINT", stopEarly);

if (!config.DATABASE_URL) {
  // The embedded database (its compiled WASM and heap) shares this process, so the V8 heap may
  // grow by half between collections instead of up to four times, which keeps the process under
  // the memory goal (ADR 018). Set before the database starts: set after, the heap has already
  // grown during start-up. Not on PostgreSQL: there the process is small without it, and the
  // extra collections cost the API p99.
  v8.setFlagsFromString("--heap-growing-percent=50");
}

/** A start that cannot go on for a reason the operator can fix: the reason alone, exit code 1. */
function refuseToStart(error: unknown): never {
  if (error instanceof DataDirInUseError || error instanceof PendingMigrationsError || error instanceof MigrationChangedError) {
    logger.fatal(error.message);
    process.exit(1);
  }
  throw error;
}

let started;
for (let attempt = 1; !started; attempt++) {
  try {
    started = await startDatabase(config);
  } catch (error) {
    if (!isDatabaseUnavailable(error)) refuseToStart(error);
    // A database that is not there yet (it starts after us, or is restarting): keep trying, with
    // /readyz saying 503, instead of dying and being restarted in a loop.
    const waitMs = Math.min(1_000 * 2 ** (attempt - 1), 30_000);
    logger.warn({ err: error, attempt, nextTry: new Date(Date.now() + waitMs).toISOString() }, "Base de datos no disponible al arrancar.");
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}
const { database, claim } = started;
// `npm run migrate` and `npm run backup` on the embedded database go through this server.
registerDatabaseCommands(database);
const stopSweep = startReservationSweep(database.db);
const mailWorker = startMailWorker(database.db, config);
const stopDigest = startDigestSchedule(database.db, config, mailWorker.wake);
// Reminders of unused coupons: runReminderPass(db, now) every hour of the Spanish day.
const stopReminders = startReminderSchedule(database.db, config, mailWorker.wake);
// `npm run digest` asks the server that owns the embedded database through its control socket.
registerControlCommand("digest", async () => {
  const run = await queueDigestNow(database.db);
  mailWorker.wake();
  return run;
});
// `npm run staff:create` too, signed with the shop's secret (api/services/staff-accounts.ts).
registerControlCommand("staff-create", staffCommand(database.db, config, mailWorker.wake));
if (mailWorker.transport.kind === "files")
  logger.info({ dir: `${config.dataDir}/mail/` }, `Correo: sin SMTP_URL, los mensajes se guardan en ${config.dataDir}/mail/`);
const stopAnalytics = config.ANALYTICS_API_KEY
  ? startAnalyticsDelivery(database.db, { apiKey: config.ANALYTICS_API_KEY, url: config.ANALYTICS_HTTP_API_URL })
  : () => {};

registerDatabaseMetrics(database.db);

const app = express();
app.disable("x-powered-by");
// Every request gets its id and, when finished, its log line and its duration in the metrics.
app.use(requestLog, measureRequests);
// Before the host check: a scraper asks by address, not by the site's name.
app.get("/metrics", metricsEndpoint(config.METRICS_TOKEN));
// Forwarded headers are believed only from this machine (the storefront calling its own API, or a
// local reverse proxy) and the proxies TRUST_PROXY names; anyone else could forge the client
// address or the public host. The per-address limits and the logs use the address this yields.
app.set("trust proxy", config.trustProxy);
// Before anything else: no page, redirect or link is ever built from a host we do not serve.
app.use(hostGuard(allowedHosts(config)));
// Whatever is not gzipped whole (gzipWhole) on its way out: streamed pages, small API answers.
app.use(compression({ level: DYNAMIC_GZIP_LEVEL }));
// Spec section 7 gives both readings of the base path; one API instance serves both.
app.use(["/api/v0", "/v0"], apiSecurityHeaders, createApi({ db: database.db, config }));
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
  res.status(400).set("Cache-Control", "no-store").type("text/plain; charset=utf-8").send("Petición no válida: vuelve a cargar la página.");
});
// The buyer's address, as Express worked it out (forwarded headers only from a trusted proxy),
// for the storefront to pass on to the API's rate limits. Whatever a client sent is overwritten.
app.use((req, _res, next) => {
  req.headers["x-ofertas-client-ip"] = req.ip ?? "";
  next();
});
// Expired access tokens are renewed once per request, before the storefront calls the API.
app.use(withRequestContext(refreshAuth));
// Shared pages kept rendered for the catalogue's freshness; production only, where the build is fixed.
if (config.isProduction)
  app.use(documentCache({ seconds: config.CATALOGUE_CACHE_SECONDS, policy: (path, scriptHashes) => pagePolicy(path, { scriptHashes }) }));
const build = viteDevServer
  ? () => viteDevServer.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>
  : // From the working directory, like build/client above: this file also runs compiled, from build/node/.
    ((await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as ServerBuild);
if (typeof build !== "function") labelDataRequestsBy(build.routes);
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

lifecycle.ready(inArrivalOrder(app), await migrationsCheck(database.db));
const port = await (listening ?? listen());
claim?.setPort(port);
logger.info({ port, database: database.kind }, `ofertas escuchando en http://localhost:${port} (${database.kind})`);

/**
 * SIGTERM: /readyz turns 503 at once, the port closes, each open connection gets its answer with
 * `Connection: close`, the mail worker finishes the message it is sending; then exit 0. Past
 * SHUTDOWN_TIMEOUT whatever is left is cut and the exit code is 1.
 */
let closing = false;
const ERROR_REPORTS_FLUSH_MS = 2_000;
function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  logger.info({ signal }, `${signal}: cerrando…`);
  stopSweep();
  stopAnalytics();
  stopDigest();
  exitAfter(
    (async () => {
      await Promise.all([lifecycle.drain(server), mailWorker.stop(), stopReminders()]);
      await viteDevServer?.close();
      await database.close();
      await claim?.release();
      // What is still queued for error reporting, within a bound of its own.
      await flushErrorReports(ERROR_REPORTS_FLUSH_MS);
    })(),
    config.SHUTDOWN_TIMEOUT * 1000,
  );
}
process.off("SIGTERM", stopEarly);
process.off("SIGINT", stopEarly);
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
