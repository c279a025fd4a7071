/**
 * A cluster primary whose copies all die at start (each exits 1 at once): for
 * tests/unit/cluster-start-failures.test.ts. Run with `node --import tsx`.
 */
import cluster from "node:cluster";
import { superviseWorkers } from "#server/cluster";

if (cluster.isPrimary) {
  cluster.setupPrimary({ exec: new URL("./exit-at-once.mjs", import.meta.url).pathname });
  await superviseWorkers(2, { shutdownMs: 1_000, maxStartFailures: Number(process.env.MAX_START_FAILURES ?? 3) });
}
