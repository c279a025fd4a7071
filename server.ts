import { inArrivalOrder } from "#server/arrival-order";
import { joinWhenReady, superviseWorkers } from "#server/cluster";
import { loadConfigOrExit } from "#platform/config.server";
import { deploymentWarnings } from "#platform/config/deployment.server";
import cluster from "node:cluster";
import { createServer } from "node:http";
import { logger } from "#platform/logger.server";
import { flushErrorReports, startErrorReporting } from "#platform/error-reporting.server";
import { isDatabaseUnavailable } from "#api/db/errors";
import { closeServer, createLifecycle, exitAfter, NotReady } from "#server/lifecycle";
import { metricsOnly, registerDatabaseMetrics, serveClusterMetrics } from "#server/metrics";
import { DataDirInUseError, registerControlCommand } from "#api/control";
import { startDatabase } from "#api/db/startup";
import { pgliteSharesTheProcess } from "#api/db/client";
import { registerDatabaseCommands } from "#api/db/command";
import { MigrationChangedError, migrationsCheck, PendingMigrationsError } from "#api/db/migrate";
import { queueDigestNow } from "#api/mail/digest";
import { startJobs } from "#server/jobs";
import { webSite, workerSite } from "#server/site";
import { staffCommand } from "#api/services/staff-accounts";

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
  // Set before the database starts: set after, the heap has already grown during start-up.
  pgliteSharesTheProcess();
  // Without it, the first time PostgreSQL's parser gets hot the process grows by ~500 MB for a second (ADR 050).
  if (process.env.NODE_ENV === "production" && !process.execArgv.includes("--liftoff-only")) {
    logger.warn(
      "node arrancó sin --liftoff-only: con la base de datos embebida, el proceso puede pasar de 700 MB un momento (docs/configuration.md).",
    );
  }
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
// The periodic jobs (mail, sweeps, digest, analytics) run in a worker or in a server doing both.
const jobs = startJobs(config.processRole, { db: database.db, config });
logger.info(
  { role: config.processRole, jobs: jobs.names },
  `PROCESS_ROLE=${config.processRole}: ${jobs.names.length ? `tareas ${jobs.names.join(", ")}` : "ninguna tarea de fondo"}.`,
);
// `npm run digest` asks the server that owns the embedded database through its control socket.
registerControlCommand("digest", async () => {
  const run = await queueDigestNow(database.db);
  jobs.wakeMail();
  return run;
});
// `npm run staff:create` too, signed with the shop's secret (api/services/staff-accounts.ts).
registerControlCommand("staff-create", staffCommand(database.db, config, jobs.wakeMail));

registerDatabaseMetrics(database.db);

const site = config.processRole === "worker" ? workerSite(config) : await webSite(config, database.db);
// Ready: the database answers with every migration of this build, and the jobs this process runs
// can work (a full or read-only disk stops the mail outbox while reads still answer).
const databaseReady = await migrationsCheck(database.db);
lifecycle.ready(inArrivalOrder(site.app), async () => {
  await databaseReady();
  const problem = jobs.problem();
  if (problem) throw new NotReady(problem);
});
const port = await (listening ?? listen());
claim?.setPort(port);
logger.info({ port, database: database.kind }, `ofertas escuchando en http://localhost:${port} (${database.kind})`);
// METRICS_PORT: /metrics on a port of its own, open there (keep it off the public network).
const metricsServer = config.METRICS_PORT ? createServer(metricsOnly(config)) : null;
if (metricsServer) {
  await new Promise<void>((resolve) => metricsServer.listen(config.METRICS_PORT, config.HOST, resolve));
  logger.info({ metricsPort: config.METRICS_PORT }, `Métricas en http://localhost:${config.METRICS_PORT}/metrics`);
}

/**
 * SIGTERM: /readyz turns 503 at once; after SHUTDOWN_DELAY_MS (0 by default) of serving as
 * before, the port closes, each open connection gets its answer with `Connection: close`, the
 * jobs stop (the mail being sent is sent); then exit 0. Past SHUTDOWN_TIMEOUT whatever is left is
 * cut and the exit code is 1.
 */
let closing = false;
const ERROR_REPORTS_FLUSH_MS = 2_000;
function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  logger.info({ signal, delayMs: config.SHUTDOWN_DELAY_MS }, `${signal}: cerrando…`);
  lifecycle.announceStop();
  exitAfter(
    (async () => {
      // The load balancer sees /readyz 503 and stops sending before the port closes.
      if (config.SHUTDOWN_DELAY_MS) await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DELAY_MS));
      await Promise.all([lifecycle.drain(server), jobs.stop(), metricsServer && closeServer(metricsServer)]);
      await site.close();
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
