/**
 * A shop with coupons for the sections that measure sales at scale (`statements`, `till`): the
 * large catalogue with BENCH_COUPONS coupons among BENCH_PARTNERS partners, seeded as
 * `npm run seed:large -- --offers N --coupons M --partners P` does, on PGlite or PostgreSQL. A
 * database seeded ahead (BENCH_COUPONS_DATA_DIR, BENCH_COUPONS_DATABASE_URL) is used as it is;
 * otherwise one is seeded here (minutes) and removed afterwards.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "./helpers";
import { run } from "./server";

export const COUPONS = Number(process.env.BENCH_COUPONS ?? 1_000_000);
export const OFFERS = Number(process.env.BENCH_OFFERS ?? 100_000);
export const PARTNERS = Number(process.env.BENCH_PARTNERS ?? 1_000);

export type Kind = "pglite" | "postgres";
/** The databases measured, in order: BENCH_COUPON_DATABASES=postgres measures one. */
export const KINDS = (process.env.BENCH_COUPON_DATABASES ?? "pglite,postgres").split(",").map((k) => k.trim()) as Kind[];
export const dbName = (kind: Kind) => (kind === "pglite" ? "PGlite" : "PostgreSQL");

export type CouponShop = { databaseUrl?: string; dataDir?: string; preseeded: boolean; drop(): Promise<void> };

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The database to measure, or null (said why) when PostgreSQL has no server to use. */
export async function couponShop(kind: Kind, label: string): Promise<CouponShop | null> {
  const preseeded = kind === "postgres" ? process.env.BENCH_COUPONS_DATABASE_URL : process.env.BENCH_COUPONS_DATA_DIR;
  if (preseeded) {
    console.log(`using the coupons already seeded at ${preseeded}`);
    return { ...(kind === "postgres" ? { databaseUrl: preseeded } : { dataDir: preseeded }), preseeded: true, drop: async () => {} };
  }
  let shop: CouponShop;
  if (kind === "postgres") {
    const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (!admin) {
      console.log("skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server the bench may create a database on");
      return null;
    }
    const name = `ofertas_bench_${label}_${process.pid}`;
    const pg = (await import("pg")).default;
    const adminSql = async (text: string) => {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(text);
      await client.end();
    };
    await adminSql(`CREATE DATABASE ${name}`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    shop = { databaseUrl: url.toString(), preseeded: false, drop: () => adminSql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  } else {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `ofertas-bench-${label}-`));
    shop = { dataDir, preseeded: false, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const started = Date.now();
  // On PostgreSQL DATA_DIR only holds the dev secret, in a folder of its own (a shared one is refused).
  const dataDir = shop.dataDir ?? mkdtempSync(path.join(os.tmpdir(), `ofertas-bench-${label}-`));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DATABASE_STATEMENT_TIMEOUT: "0" };
  delete env.DATABASE_URL;
  if (shop.databaseUrl) env.DATABASE_URL = shop.databaseUrl;
  const args = ["scripts/seed-large.ts", "--offers", String(OFFERS), "--coupons", String(COUPONS), "--partners", String(PARTNERS)];
  await run(path.join(ROOT, "node_modules/.bin/tsx"), args, ROOT, env);
  if (!shop.dataDir) rmSync(dataDir, { recursive: true, force: true });
  console.log(`seeded in ${seconds(Date.now() - started)}`);
  return shop;
}
