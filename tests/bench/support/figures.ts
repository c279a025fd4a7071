/** The run's figures (each with its reference, for the summary) and the load generator. */
import { readdirSync, readFileSync } from "node:fs";
import autocannon from "autocannon";
import { fmtMs } from "./helpers";
import type { Server } from "./server";

export type Figure = { measure: string; result: string; reference: string; pass: boolean | null };
export const figures: Figure[] = [];

/** One figure with its reference; pass null is information only. */
export function figure(measure: string, result: string, reference: string, pass: boolean | null) {
  figures.push({ measure, result, reference, pass });
  console.log(`  ${pass === null ? "INFO" : pass ? "PASS" : "FAIL"}  ${measure}: ${result}  [${reference}]`);
}

export const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const LOAD_CONNECTIONS = 10;

export type Load = { rps: number; mean: number; p50: number; p99: number; requests: number; bad: number; rssMb: number };

/** Largest resident set among the server's processes (its process group), in MB. */
function serverRssMb(server: Server): number {
  const pgid = server.child.pid;
  if (!pgid) return NaN;
  let max = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue; // field 5 of stat: process group
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${entry}/status`, "utf8"));
      if (rss) max = Math.max(max, Number(rss[1]) / 1024);
    } catch {
      // the process ended while we looked
    }
  }
  return max;
}

export async function load(
  url: string,
  server?: Server,
  seconds = LOAD_SECONDS,
  connections = LOAD_CONNECTIONS,
  headers: Record<string, string> = {},
): Promise<Load> {
  let rssMb = 0;
  const sampler = server ? setInterval(() => (rssMb = Math.max(rssMb, serverRssMb(server))), 250) : undefined;
  try {
    const r = await autocannon({ url, connections, duration: seconds, headers: { "accept-encoding": "gzip", ...headers } });
    // No answer at all within the run is a failure, not a latency of 0.
    const none = r.requests.total === 0;
    return {
      rps: r.requests.average,
      mean: none ? Infinity : r.latency.mean,
      p50: none ? Infinity : r.latency.p50,
      p99: none ? Infinity : r.latency.p99,
      requests: r.requests.total,
      bad: r.non2xx + r.errors + r.timeouts,
      rssMb,
    };
  } finally {
    if (sampler) clearInterval(sampler);
  }
}

/** A load's p99 as judged: one that answered with errors, or not at all, has none (Infinity). */
export const judgedP99 = (l: Load) => (l.bad > 0 ? Infinity : l.p99);

export const loadRow = (name: string, l: Load) => [name, l.rps.toFixed(0), fmtMs(l.p50), fmtMs(l.p99), l.requests, l.bad];
export const LOAD_HEAD = ["target", "req/s", "p50", "p99", "requests", "non-2xx/errors"];
