import type { Server } from "./server";

/**
 * One section of `npm run bench`, named in BENCH_ONLY, listed in tests/bench/sections.ts. A
 * section `onShop` measures the demo shop that run.ts starts (production build, fresh catalogue);
 * the others start the servers they need, after the shop has stopped. run() prints its tables and
 * records its figures (support/figures.ts); it returns how many broken promises must fail the run
 * (tickets sold beyond stock), if any.
 */
export type BenchSection =
  | { name: string; byDefault: boolean; onShop: true; run(shop: Server): Promise<number | void> }
  | { name: string; byDefault: boolean; onShop: false; run(): Promise<number | void> };
