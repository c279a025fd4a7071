/** Throughput: requests per second and latency of the home page and the API's listing under load. */
import autocannon from "autocannon";
import { LOAD_CONNECTIONS, LOAD_SECONDS } from "./support/figures";
import { fmtMs, heading, table } from "./support/helpers";
import type { BenchSection } from "./support/section";

async function throughputOf(origin: string) {
  heading(`Throughput (autocannon, ${LOAD_CONNECTIONS} connections, ${LOAD_SECONDS} s each)`);
  const rows: (string | number)[][] = [];
  for (const target of ["/", "/api/v0/public/offers/"]) {
    const result = await autocannon({
      url: `${origin}${target}`,
      connections: LOAD_CONNECTIONS,
      duration: LOAD_SECONDS,
      headers: { "accept-encoding": "gzip" },
    });
    rows.push([
      `GET ${target}`,
      result.requests.average.toFixed(0),
      fmtMs(result.latency.p50),
      fmtMs(result.latency.p99),
      result.requests.total,
      result.non2xx,
      result.errors + result.timeouts,
    ]);
  }
  console.log(table(["target", "req/s (avg)", "p50", "p99", "requests", "non-2xx", "errors"], rows));
}

export const throughput: BenchSection = { name: "throughput", byDefault: true, onShop: true, run: (shop) => throughputOf(shop.origin) };
