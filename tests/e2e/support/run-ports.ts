import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * The browser run's ports and data directory. Given by E2E_PORT (the shop; +1 the third-party
 * server; +10000 the SMTP server) and E2E_DATA_DIR, or else picked free here once, in the runner,
 * and written to the environment that its workers and web servers inherit: two checkouts can run
 * `npm test` at the same time.
 */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
      .once("error", () => resolve(false))
      .listen(port, "0.0.0.0", () => probe.close(() => resolve(true)));
  });
}

async function freeBase(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 25_000);
    if ((await isFree(base)) && (await isFree(base + 1)) && (await isFree(base + 10_000))) return base;
  }
  throw new Error("No free ports for the browser tests: set E2E_PORT.");
}

if (!process.env.E2E_PORT) process.env.E2E_PORT = String(await freeBase());
process.env.E2E_SMTP_PORT ??= String(Number(process.env.E2E_PORT) + 10_000);
process.env.E2E_DATA_DIR ??= path.join(tmpdir(), `ofertas-e2e-${process.env.E2E_PORT}`);

export const E2E_PORT = Number(process.env.E2E_PORT);
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT);
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR;
