import cluster from "node:cluster";
import { logger } from "#platform/logger.server";

/** A copy that dies sooner than this after its start counts as failing to start. */
const HEALTHY_AFTER_MS = 30_000;
const MAX_DELAY_MS = 60_000;
/**
 * Copies that die at start this many times in a row: something no retry fixes (a setting, the
 * code, a migration). The supervisor stops with exit code 1, so that the process supervisor sees
 * the failure instead of a primary that runs forever with nothing serving.
 */
export const MAX_START_FAILURES = 5;

const JOIN_ENV = "OFERTAS_CLUSTER_JOIN";

/**
 * Whether this process opens its port only once its database is ready. The first copy opens it at
 * once, so probes get /healthz 200 and /readyz 503 while the site starts; a copy forked while
 * another one holds the port (a second copy, or one replacing a copy that died) waits until it
 * can serve, so the connections handed to it never meet the starting 503.
 */
export const joinWhenReady = () => cluster.isWorker && process.env[JOIN_ENV] === "ready";

/**
 * WEB_CONCURRENCY=N on PostgreSQL: this process becomes a supervisor that forks N copies of the
 * server, which share the listening port (node:cluster hands out connections), restarts a copy
 * that dies, and passes SIGTERM/SIGINT on so each copy finishes its requests. Copies that keep
 * dying at start (the database down) are re-forked after a delay that doubles each time, up to a
 * minute, instead of in a tight loop; after MAX_START_FAILURES such deaths in a row the supervisor
 * gives up and exits 1. Everything the copies share lives in PostgreSQL
 * (rate_limits, reservations swept with SKIP LOCKED); each keeps its own one-minute catalogue
 * cache. Never returns: the copies serve, this process only watches them.
 */
export async function superviseWorkers(
  count: number,
  { shutdownMs, maxStartFailures = MAX_START_FAILURES }: { shutdownMs: number; maxStartFailures?: number },
): Promise<never> {
  let stopping = false;
  let failures = 0;
  let exitCode = 0;
  const startedAt = new Map<number, number>();
  // The copies that hold the port (listening), and whether one already holds it or is about to.
  const serving = new Set<number>();
  let early: number | null = null;
  const fork = () => {
    const first = serving.size === 0 && early === null;
    const worker = cluster.fork({ [JOIN_ENV]: first ? "start" : "ready" });
    if (first) early = worker.id;
    startedAt.set(worker.id, Date.now());
  };
  cluster.on("listening", (worker) => serving.add(worker.id));
  for (let i = 0; i < count; i++) fork();
  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    serving.delete(worker.id);
    if (early === worker.id) early = null;
    if (stopping) {
      if (code !== 0) exitCode = 1;
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        logger.info({ exitCode }, "Todos los procesos han terminado.");
        process.exit(exitCode);
      }
      return;
    }
    failures = lived < HEALTHY_AFTER_MS ? failures + 1 : 0;
    if (failures >= maxStartFailures) {
      logger.fatal(
        { pid: worker.process.pid, code, signal, failures },
        `Los procesos mueren al arrancar (${failures} veces seguidas): se detiene todo. El motivo está en las líneas anteriores de cada proceso.`,
      );
      stopping = true;
      exitCode = 1;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill("SIGTERM");
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1);
      setTimeout(() => process.exit(1), shutdownMs + 5_000).unref();
      return;
    }
    const delayMs = failures === 0 ? 0 : Math.min(1_000 * 2 ** (failures - 1), MAX_DELAY_MS);
    logger.error({ pid: worker.process.pid, code, signal, livedMs: lived, delayMs }, "Proceso terminado; se arranca otro.");
    setTimeout(() => {
      if (!stopping) fork();
    }, delayMs);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: count }, `${signal}: cerrando ${count} procesos…`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    // Each copy keeps its own SHUTDOWN_TIMEOUT; this one only in case a copy cannot exit at all.
    setTimeout(() => process.exit(1), shutdownMs + 5_000).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  return new Promise<never>(() => {});
}
