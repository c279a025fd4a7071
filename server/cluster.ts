import cluster from "node:cluster";

/**
 * WEB_CONCURRENCY=N on PostgreSQL: this process becomes a supervisor that forks N copies of the
 * server, which share the listening port (node:cluster hands out connections), restarts a copy
 * that dies, and passes SIGTERM/SIGINT on so each copy finishes its requests. Everything the copies
 * share lives in PostgreSQL (rate_limits, reservations swept with SKIP LOCKED); each keeps its own
 * one-minute catalogue cache. Never returns: the copies serve, this process only watches them.
 */
export async function superviseWorkers(count: number): Promise<never> {
  let stopping = false;
  for (let i = 0; i < count; i++) cluster.fork();
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`Proceso ${worker.process.pid} terminado (${signal ?? code}); arrancando otro.`);
    cluster.fork();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: cerrando ${count} procesos…`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    setTimeout(() => process.exit(1), 12_000).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  return new Promise<never>(() => {});
}
