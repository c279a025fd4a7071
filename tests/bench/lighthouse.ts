/** Lighthouse's mobile preset on the main pages: score, LCP, TBT and CLS, the median of 3. */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { figure } from "./support/figures";
import { fmtMs, getJson, heading, percentile, ROOT, table } from "./support/helpers";
import type { BenchSection } from "./support/section";

type LighthouseRun = { score: number; lcp: number; tbt: number; cls: number };

/** Lighthouse now and then fails to record a trace (NO_NAVSTART): such a run is tried again, twice. */
async function lighthouseOnce(url: string): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseRun(url);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.log(`(Lighthouse failed on ${url}, trying again: ${String(error).split("\n")[1] ?? error})`);
    }
  }
}

async function lighthouseRun(url: string): Promise<LighthouseRun> {
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(
      path.join(ROOT, "node_modules/.bin/lighthouse"),
      [
        url,
        "--output=json",
        "--output-path=stdout",
        "--only-categories=performance",
        "--quiet",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage",
      ],
      {
        cwd: ROOT,
        env: { ...process.env, CHROME_PATH: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const chunks: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0
        ? resolve(Buffer.concat(chunks).toString("utf8"))
        : reject(new Error(`lighthouse ${url}: exit ${code}\n${err.slice(-500)}`)),
    );
  });
  if (process.env.BENCH_LIGHTHOUSE_DIR) writeFileSync(path.join(process.env.BENCH_LIGHTHOUSE_DIR, `${Date.now()}.json`), out);
  const lhr = JSON.parse(out) as { categories: { performance: { score: number } }; audits: Record<string, { numericValue: number }> };
  return {
    score: Math.round(lhr.categories.performance.score * 100),
    lcp: lhr.audits["largest-contentful-paint"].numericValue,
    tbt: lhr.audits["total-blocking-time"].numericValue,
    cls: lhr.audits["cumulative-layout-shift"].numericValue,
  };
}

/** Lighthouse 12, mobile preset (its default), Debian's Chromium; the median of 3 of each metric. */
async function lighthouseOf(origin: string) {
  heading("Lighthouse mobile (median of 3)");
  const first = await getJson<{ results: { uuid: string }[] }>(`${origin}/api/v0/public/offers/?page_size=1`);
  const pages = ["/", `/ofertas/${first.results[0].uuid}/`, "/ofertas/", "/checkout/"];
  const rows: (string | number)[][] = [];
  for (const page of pages) {
    const runs: LighthouseRun[] = [];
    for (let i = 0; i < 3; i++) runs.push(await lighthouseOnce(`${origin}${page}`));
    const median = (pick: (r: LighthouseRun) => number) => percentile(runs.map(pick), 50);
    const m = { score: median((r) => r.score), lcp: median((r) => r.lcp), tbt: median((r) => r.tbt), cls: median((r) => r.cls) };
    const name = page.replace(first.results[0].uuid, "{uuid}");
    rows.push([
      name,
      m.score,
      `${(m.lcp / 1000).toFixed(2)} s`,
      fmtMs(m.tbt),
      m.cls.toFixed(3),
      runs.map((r) => r.score).join("/"),
      runs.map((r) => Math.round(r.tbt)).join("/"),
      runs.map((r) => (r.lcp / 1000).toFixed(2)).join("/"),
    ]);
    figure(
      `Lighthouse ${name}`,
      `score ${m.score}, LCP ${(m.lcp / 1000).toFixed(2)} s, TBT ${fmtMs(m.tbt)}, CLS ${m.cls.toFixed(3)}`,
      "100, ≤ 1.2 s, ≤ 50 ms, 0",
      m.score === 100 && m.lcp <= 1200 && m.tbt <= 50 && m.cls === 0,
    );
  }
  console.log(table(["page", "score", "LCP", "TBT", "CLS", "scores", "TBT of each run (ms)", "LCP of each run (s)"], rows));
}

export const lighthouse: BenchSection = { name: "lighthouse", byDefault: true, onShop: true, run: (shop) => lighthouseOf(shop.origin) };
