/**
 * Child process of the bench's `statements` section: issues one month's statements for every
 * partner, as the monthly job does, and prints one line of JSON with the run, its time and the
 * process's peak resident set (the embedded database's worker thread included).
 * tsx tests/bench/support/issue-month.ts <month> (DATABASE_URL or DATA_DIR names the database);
 * with --load-only it loads its modules and ends (the bench compiles them so, before measuring).
 */
import { openDatabase } from "#api/db/client";
import { issueMonthlyStatements } from "#api/services/statements";
import { TRY_OUT_SHOP_LEGAL } from "#platform/config.server";

const month = process.argv[2];
if (month === "--load-only") process.exit(0);
const databaseUrl = process.env.DATABASE_URL;
const handle = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir: process.env.DATA_DIR! });
const started = performance.now();
let peakMb = 0;
const sample = () => (peakMb = Math.max(peakMb, process.memoryUsage.rss() / 2 ** 20));
const sampler = setInterval(sample, 200);
const run = await issueMonthlyStatements(handle.db, month, {
  shop: TRY_OUT_SHOP_LEGAL,
  log: (line) => process.stderr.write(`\r${line}`),
});
const ms = performance.now() - started;
clearInterval(sampler);
sample();
await handle.close();
// maxRSS: the kernel's high-water mark (KB), which also sees peaks between two samples.
console.log(JSON.stringify({ run, ms, peakMb: Math.max(peakMb, process.resourceUsage().maxRSS / 1024) }));
