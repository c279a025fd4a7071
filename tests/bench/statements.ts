/**
 * The bench's `statements` section, at the size of a real marketplace: BENCH_PARTNERS (1,000)
 * partners and BENCH_COUPONS (1,000,000) coupons (support/coupon-shop.ts), one of them busy with
 * 20,000 coupons sold last month. On PGlite and then on PostgreSQL:
 * - last month's statements for every partner, issued as the monthly job does, in a process of
 *   its own (support/issue-month.ts) whose time and peak resident set are measured. Each is the
 *   partner's first statement, so it states every coupon the partner ever sold: the most a month
 *   can hold. Statements an earlier run issued are removed first (the database is the bench's).
 * - the busy partner's «Ventas» page for that month, through the API as the portal calls it
 *   (a page of its sales with the month's totals, and its chart per day), p99 of each.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { sql } from "drizzle-orm";
import { migrate } from "#api/db/migrate";
import { openDatabase, query, type Database } from "#api/db/client";
import { seedBusyMonth } from "#api/db/seed-coupons";
import { monthPeriod, previousMonth } from "#rules/statements";
import { madridDate } from "#rules/dates";
import { couponShop, dbName, KINDS, OFFERS, PARTNERS, type CouponShop, type Kind } from "./support/coupon-shop";
import { figure } from "./support/figures";
import { fmtMs, heading, percentile, ROOT } from "./support/helpers";
import { BUSY_ORGANIZATION, joinBusyOrganization, partnerToken, timedCall } from "./support/partner-api";
import type { BenchSection } from "./support/section";
import { startServer, stop } from "./support/server";

/** The busy partner's coupons in the month: a venue selling ~650 a day. */
export const BUSY_COUPONS = 20_000;
const GOAL_ISSUE_MS = 5 * 60_000;
const GOAL_RSS_MB = 300;
const GOAL_VENTAS_P99_MS = 200;
const VENTAS_REQUESTS = Number(process.env.BENCH_VENTAS_REQUESTS ?? 200);

const count = (n: number) => n.toLocaleString("en-US");
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Opens the shop's database in this process for `work`, and closes it (a PGlite server needs it closed). */
export async function withDatabase<T>(shop: CouponShop, work: (db: Database) => Promise<T>): Promise<T> {
  const handle = await openDatabase(
    shop.databaseUrl ? { databaseUrl: shop.databaseUrl, timeouts: { statementMs: 0 } } : { dataDir: shop.dataDir! },
  );
  try {
    // A shop seeded by an older commit is brought up to date first, as a server's start would.
    await migrate(handle.db);
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

/** The busy partner's month, seeded once per database (a top-up afterwards). */
export async function busyMonth(db: Database, month: string) {
  const { start, end } = monthPeriod(month);
  await seedBusyMonth(db, { organization: BUSY_ORGANIZATION, start, end, total: BUSY_COUPONS, offers: OFFERS, partners: PARTNERS });
}

/**
 * node's flags and environment under `npm start` (package.json), where the monthly job runs in
 * production: the issuing process is measured under them, not under a development loader's.
 */
function startCommand(): { flags: string[]; env: Record<string, string> } {
  const start: string = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.start;
  const [, vars, flags] = /^(.*?)\bnode (.*?) build\/node\/server\.js$/.exec(start) ?? [];
  if (flags === undefined) throw new Error(`package.json's start is not «… node FLAGS build/node/server.js»: ${start}`);
  const env = Object.fromEntries(
    vars
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((v) => v.split("=") as [string, string]),
  );
  return { flags: flags.split(/\s+/), env };
}

function issueInChild(shop: CouponShop, month: string): Promise<{ run: Record<string, unknown>; ms: number; peakMb: number }> {
  const { flags, env: startEnv } = startCommand();
  const env: NodeJS.ProcessEnv = { ...process.env, ...startEnv };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  if (shop.databaseUrl) env.DATABASE_URL = shop.databaseUrl;
  else env.DATA_DIR = shop.dataDir;
  // TypeScript is compiled by a first run that only loads the modules, as production runs a build.
  const run = (args: string[]) =>
    spawn(process.execPath, [...flags, "--import", "tsx", "tests/bench/support/issue-month.ts", ...args], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
  return new Promise((resolve, reject) => {
    const warm = run(["--load-only"]);
    warm.on("error", reject);
    warm.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`issue-month --load-only exited with ${code}`));
      const child = run([month]);
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.on("error", reject);
      child.on("exit", (code) => {
        process.stderr.write("\n");
        const last = out.trim().split("\n").at(-1) ?? "";
        if (code !== 0) reject(new Error(`issue-month exited with ${code}: ${out}`));
        else resolve(JSON.parse(last) as { run: Record<string, unknown>; ms: number; peakMb: number });
      });
    });
  });
}

async function statementsAtScale(kind: Kind) {
  const db = dbName(kind);
  heading(`A month's statements and «Ventas» on ${db}`);
  const shop = await couponShop(kind, "statements");
  if (!shop) {
    figure(`${db}: a month's statements`, "not measured", "needs BENCH_DATABASE_URL", null);
    return;
  }
  try {
    const month = previousMonth(new Date());
    const { start, end } = monthPeriod(month);
    const facts = await withDatabase(shop, async (db) => {
      await busyMonth(db, month);
      const organizationId = await joinBusyOrganization(db);
      // A first month every run: statements from an earlier run are set aside with their
      // immutability triggers (a replica session fires none), on the bench's own database only.
      await db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL session_replication_role = replica`);
        await tx.execute(sql`DELETE FROM statement_payouts`);
        await tx.execute(sql`DELETE FROM statement_lines`);
        await tx.execute(sql`DELETE FROM statements`);
        await tx.execute(sql`DELETE FROM document_numbers`);
      });
      await analyzeStatements(db);
      const [row] = await query<{ coupons: number; partners: number; busy: number }>(
        db,
        sql`SELECT (SELECT count(*)::int FROM coupons) AS coupons,
                   (SELECT count(*)::int FROM organizations) AS partners,
                   (SELECT count(*)::int FROM coupons c JOIN sale_items si ON si.id = c.sale_item_id JOIN sales s ON s.id = si.sale_id
                      JOIN offers o ON o.id = si.offer_id
                    WHERE o.organization_id = ${organizationId} AND s.paid_at >= ${start.toISOString()}::timestamptz
                      AND s.paid_at < ${end.toISOString()}::timestamptz) AS busy`,
      );
      return row;
    });
    console.log(
      `${count(facts.coupons)} coupons, ${count(facts.partners)} organisations; the busy partner sold ${count(facts.busy)} in ${month}`,
    );

    const issued = await issueInChild(shop, month);
    console.log(`issued: ${JSON.stringify(issued.run)} in ${seconds(issued.ms)}, peak RSS ${issued.peakMb.toFixed(0)} MB`);
    const lines = await withDatabase(shop, async (db) => {
      const [row] = await query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM statement_lines`);
      return Number(row.n);
    });
    figure(
      `${db}: ${month}'s statements, ${count(Number(issued.run.issued))} partners, ${count(lines)} lines`,
      `${seconds(issued.ms)}${Number(issued.run.failed) ? `, ${issued.run.failed} failed` : ""}`,
      `< ${seconds(GOAL_ISSUE_MS)}`,
      issued.ms < GOAL_ISSUE_MS && Number(issued.run.failed) === 0,
    );
    figure(
      `${db}: peak RSS of the process issuing them`,
      `${issued.peakMb.toFixed(0)} MB`,
      `< ${GOAL_RSS_MB} MB`,
      issued.peakMb < GOAL_RSS_MB,
    );

    const server = await startServer(
      shop.databaseUrl ? { env: { DATABASE_URL: shop.databaseUrl } } : { dataDir: shop.dataDir, keepData: true },
    );
    try {
      const token = await partnerToken(server.origin);
      const filter = `date_from=${month}-01&date_to=${madridDate(new Date(end.getTime() - 1))}`;
      const page: number[] = [];
      const chart: number[] = [];
      let listed = 0;
      for (let i = 0; i < VENTAS_REQUESTS + 5; i++) {
        // The portal asks for both at once, as the page's loader does.
        const [a, b] = await Promise.all([
          timedCall(server.origin, token, `/sales/partner/?${filter}&page=${1 + (i % 5)}`),
          timedCall(server.origin, token, `/sales/partner/per_day/?${filter}`),
        ]);
        if (a.status !== 200 || b.status !== 200) throw new Error(`«Ventas» answered ${a.status}, ${b.status}: ${JSON.stringify(a.body)}`);
        listed = (a.body as { count: number }).count;
        if (i < 5) continue; // warm-up
        page.push(a.ms);
        chart.push(b.ms);
      }
      const p99 = Math.max(percentile(page, 99), percentile(chart, 99));
      console.log(
        `«Ventas» for ${month}: ${count(listed)} coupons; page p50 ${fmtMs(percentile(page, 50))}, chart p50 ${fmtMs(percentile(chart, 50))}`,
      );
      figure(
        `${db}: «Ventas» of a month of ${count(listed)} coupons, page; chart (p99)`,
        `${fmtMs(percentile(page, 99))}; ${fmtMs(percentile(chart, 99))}`,
        `< ${GOAL_VENTAS_P99_MS} ms`,
        p99 < GOAL_VENTAS_P99_MS,
      );
    } finally {
      await stop(server);
    }
  } finally {
    await shop.drop().catch(() => {});
  }
}

/** Fresh statistics after the busy month and the cleared statements. */
async function analyzeStatements(db: Database) {
  for (const table of ["statements", "statement_lines"]) await db.execute(sql.raw(`VACUUM ANALYZE ${table}`));
}

export const statements: BenchSection = {
  name: "statements",
  byDefault: true,
  onShop: false,
  async run() {
    for (const kind of KINDS) await statementsAtScale(kind);
  },
};
