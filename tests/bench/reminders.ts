/**
 * The bench's `reminders` section: the reminder pass (api/services/reminders/pass.ts) over
 * BENCH_COUPONS (1,000,000) coupons of paid sales on BENCH_OFFERS (100,000) offers, seeded as
 * `npm run seed:large -- --offers N --coupons M` does, on PGlite and then on PostgreSQL. The pass
 * runs in this process against the database, as a server's schedule runs it: its plans first
 * (no sequential scan of a table that grows with sales), then a first pass that finds and queues
 * every reminder due today, then a second that finds nothing new.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase, query } from "#api/db/client";
import { runReminderPass } from "#api/services/reminders/pass";
import { reminderPassPlans, sequentialScans } from "#tests/support/reminder-plans";
import { figure } from "./support/figures";
import { heading, ROOT as root } from "./support/helpers";
import type { BenchSection } from "./support/section";
import { run } from "./support/server";

const COUPONS = Number(process.env.BENCH_COUPONS ?? 1_000_000);
const OFFERS = Number(process.env.BENCH_OFFERS ?? 100_000);
/** The goal: a pass over the whole shop within a minute on the 2-core machine. */
const GOAL_MS = 60_000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const count = (n: number) => n.toLocaleString("en-US");

async function reminderPassAtScale(kind: "pglite" | "postgres") {
  const db = kind === "pglite" ? "PGlite" : "PostgreSQL";
  heading(`Reminder pass over ${count(COUPONS)} coupons on ${db}`);
  let databaseUrl: string | undefined;
  let dataDir: string | undefined;
  let drop = async () => {};
  // A database seeded earlier with `npm run seed:large -- --offers N --coupons M` (it takes minutes).
  // The `statements` and `till` sections' database (BENCH_COUPONS_…) serves here too.
  const preseeded =
    kind === "postgres"
      ? (process.env.BENCH_REMINDERS_DATABASE_URL ?? process.env.BENCH_COUPONS_DATABASE_URL)
      : (process.env.BENCH_REMINDERS_DATA_DIR ?? process.env.BENCH_COUPONS_DATA_DIR);
  if (preseeded) {
    console.log(`using the coupons already seeded at ${preseeded}`);
    if (kind === "postgres") databaseUrl = preseeded;
    else dataDir = preseeded;
  } else if (kind === "postgres") {
    const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (!admin) {
      console.log("skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server the bench may create a database on");
      figure("reminder pass on PostgreSQL", "not measured", "needs BENCH_DATABASE_URL", null);
      return;
    }
    const name = `ofertas_bench_reminders_${process.pid}`;
    const pg = (await import("pg")).default;
    const adminSql = async (text: string) => {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(text);
      await client.end();
    };
    await adminSql(`CREATE DATABASE ${name}`);
    drop = () => adminSql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  } else {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "ofertas-bench-reminders-"));
    drop = async () => rmSync(dataDir!, { recursive: true, force: true });
  }
  try {
    if (!preseeded) {
      const started = Date.now();
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir ?? os.tmpdir() };
      delete env.DATABASE_URL;
      if (databaseUrl) env.DATABASE_URL = databaseUrl;
      const args = ["scripts/seed-large.ts", "--offers", String(OFFERS), "--coupons", String(COUPONS)];
      await run(path.join(root, "node_modules/.bin/tsx"), args, root, env);
      console.log(`seeded in ${seconds(Date.now() - started)}`);
    }
    const handle = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir: dataDir! });
    try {
      const [{ n: coupons }] = await query<{ n: number }>(handle.db, sql`SELECT count(*)::int AS n FROM coupons`);
      // Every run measures a first pass: what an earlier run found and queued is forgotten.
      await handle.db.execute(sql`DELETE FROM coupon_reminders`);
      await handle.db.execute(sql`DELETE FROM mail_outbox WHERE kind IN ('expiry-reminder', 'booking-reminder')`);
      const now = new Date();
      const scans = (await reminderPassPlans(handle.db, now)).flatMap(({ name, plan }) =>
        sequentialScans(plan).map((s) => `${name}: ${s}`),
      );
      figure(`${db}: sequential scans in the pass's plans`, scans.length ? scans.join("; ") : "none", "none", scans.length === 0);
      let started = performance.now();
      const first = await runReminderPass(handle.db, now);
      const firstMs = performance.now() - started;
      started = performance.now();
      const second = await runReminderPass(handle.db, now);
      const secondMs = performance.now() - started;
      console.log(
        `first pass: ${count(first.found)} reminders found, ${count(first.mails)} mails queued (${count(first.skipped)} skipped) in ${seconds(firstMs)}; ` +
          `second pass: ${count(second.found)} found in ${seconds(secondMs)}`,
      );
      figure(
        `${db}: reminder pass over ${count(Number(coupons))} coupons, first pass`,
        `${seconds(firstMs)} (${count(first.found)} reminders, ${count(first.mails)} mails)`,
        `< ${seconds(GOAL_MS)}`,
        firstMs < GOAL_MS,
      );
      figure(`${db}: the next pass (nothing new)`, `${seconds(secondMs)} (${count(second.found)} found)`, "—", null);
    } finally {
      await handle.close();
    }
  } finally {
    await drop().catch(() => {});
  }
}

export const reminders: BenchSection = {
  name: "reminders",
  byDefault: true,
  onShop: false,
  async run() {
    await reminderPassAtScale("pglite");
    await reminderPassAtScale("postgres");
  },
};
