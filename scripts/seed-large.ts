/**
 * npm run seed:large -- --offers 100000 [--coupons 1000000] [--partners 2000]
 * Loads the large deterministic catalogue (api/db/seed-large.ts), and with --coupons that many
 * coupons of paid sales over it (api/db/seed-coupons.ts, for the reminder pass), into
 * DATABASE_URL, or into the PGlite files under DATA_DIR (default ./data), which it owns while it
 * runs: refused, naming the server, while a server uses that DATA_DIR.
 */
import { parseArgs } from "node:util";
import { loadConfigOrExit } from "#platform/config.server";
import { exitWithMessage, openDatabaseForCommand } from "#api/db/command";
import { migrate } from "#api/db/migrate";
import { seedLarge } from "#api/db/seed-large";
import { seedCoupons } from "#api/db/seed-coupons";
import { madridDate } from "#rules/dates";

const { values } = parseArgs({
  options: {
    offers: { type: "string", default: "100000" },
    coupons: { type: "string", default: "0" },
    partners: { type: "string", default: "2000" },
  },
});
const total = Number(values.offers);
const coupons = Number(values.coupons);
const partners = Number(values.partners);
if (!Number.isInteger(total) || total < 1 || total > 5_000_000) {
  console.error("--offers debe ser un número entero entre 1 y 5.000.000.");
  process.exit(1);
}
if (!Number.isInteger(coupons) || coupons < 0 || coupons > 20_000_000) {
  console.error("--coupons debe ser un número entero entre 0 y 20.000.000.");
  process.exit(1);
}
if (!Number.isInteger(partners) || partners < 1 || partners > 100_000) {
  console.error("--partners debe ser un número entero entre 1 y 100.000.");
  process.exit(1);
}
const config = loadConfigOrExit();
const database = await openDatabaseForCommand(config, "seed:large").catch(exitWithMessage);
const started = Date.now();
await migrate(database.db);
// With coupons, the offers' validity ends on every day of 14 months, so the reminder pass has work.
const spread = coupons > 0 ? { spreadFrom: madridDate(new Date()) } : {};
const active = await seedLarge(database.db, total, (line) => process.stdout.write(`\r${line}`), { ...spread, organizations: partners });
console.log(`\n${active} ofertas activas en ${database.kind} (${((Date.now() - started) / 1000).toFixed(1)} s).`);
if (coupons > 0) {
  const seeded = await seedCoupons(database.db, { offers: total, total: coupons, log: (line) => process.stdout.write(`\r${line}`) });
  console.log(`\n${seeded} cupones en ${database.kind} (${((Date.now() - started) / 1000).toFixed(1)} s).`);
}
await database.close();
