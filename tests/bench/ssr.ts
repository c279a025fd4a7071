/** Server rendering: GET / of the shop against a bare Remix page (tests/bench/floor). */
import path from "node:path";
import { figure, load, LOAD_HEAD, loadRow, type Load } from "./support/figures";
import { fmtMs, freePort, heading, ROOT, table } from "./support/helpers";
import { run, spawnServer, stop, waitReady, type Server } from "./support/server";
import type { BenchSection } from "./support/section";

const FLOOR_DIR = path.join(ROOT, "tests/bench/floor");

/** GET / of the shop against a bare Remix page of 24 items (tests/bench/floor), alternated twice. */
async function ssrFloor(shop: Server) {
  heading("SSR: GET / against a bare Remix page (tests/bench/floor)");
  await run("npx", ["remix", "vite:build", "--logLevel", "warn"], FLOOR_DIR);
  const port = await freePort();
  const floor = spawnServer(
    process.execPath,
    ["server.mjs"],
    FLOOR_DIR,
    { ...process.env, NODE_ENV: "production", PORT: String(port) },
    `http://127.0.0.1:${port}`,
  );
  try {
    await waitReady(floor, "/");
    // The anonymous page is kept rendered (document-cache.server.ts); a visitor with a cookie
    // (here one that reads as an empty cart) gets a page rendered for them, measured beside it.
    const personal = { cookie: "__cart=x" };
    // Warm-up, each, long enough for the JIT: with 2 s the shop's first run was 25 % below its second.
    await load(`${floor.origin}/`, undefined, 5);
    await load(`${shop.origin}/`, undefined, 5);
    await load(`${shop.origin}/`, undefined, 5, undefined, personal);
    const runs: { floor: Load; shop: Load; rendered: Load }[] = [];
    for (let i = 0; i < 2; i++) {
      runs.push({
        floor: await load(`${floor.origin}/`),
        shop: await load(`${shop.origin}/`, shop),
        rendered: await load(`${shop.origin}/`, shop, undefined, undefined, personal),
      });
    }
    const mean = (pick: (l: (typeof runs)[number]) => number) => runs.reduce((a, r) => a + pick(r), 0) / runs.length;
    const floorRps = mean((r) => r.floor.rps);
    const shopRps = mean((r) => r.shop.rps);
    const renderedRps = mean((r) => r.rendered.rps);
    const shopP99 = mean((r) => r.shop.p99);
    const floorP99 = mean((r) => r.floor.p99);
    console.log(
      table(
        LOAD_HEAD,
        runs.flatMap((r, i) => [
          loadRow(`floor / (run ${i + 1})`, r.floor),
          loadRow(`shop / (run ${i + 1})`, r.shop),
          loadRow(`shop / with a cookie (run ${i + 1})`, r.rendered),
        ]),
      ),
    );
    figure(
      "GET / req/s vs bare Remix floor",
      `${shopRps.toFixed(0)} vs ${floorRps.toFixed(0)} req/s = ${(shopRps / floorRps).toFixed(2)}×`,
      "≥ 0.6×",
      shopRps / floorRps >= 0.6,
    );
    // The bare page's own p99 beside it: when that is near 50 ms too, the machine is what is slow.
    figure("GET / p99 at 10 connections", fmtMs(shopP99), `< 50 ms; the bare page ${fmtMs(floorP99)}`, shopP99 < 50);
    figure(
      "GET / rendered for a visitor with a cookie vs floor",
      `${renderedRps.toFixed(0)} vs ${floorRps.toFixed(0)} req/s = ${(renderedRps / floorRps).toFixed(2)}×`,
      "the page no cache keeps",
      null,
    );
  } finally {
    await stop(floor);
  }
}

export const ssr: BenchSection = { name: "ssr", byDefault: true, onShop: true, run: ssrFloor };
