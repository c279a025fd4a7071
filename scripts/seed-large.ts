/**
 * npm run seed:large -- --offers 100000
 * Loads the large deterministic catalogue (api/db/seed-large.ts) into DATABASE_URL, or into the
 * PGlite files under DATA_DIR (default ./data), which it owns while it runs: refused, naming the
 * server, while a server uses that DATA_DIR.
 */
import { parseArgs } from "node:util";
import { loadConfigOrExit } from "#platform/config.server";
import { exitWithMessage, openDatabaseForCommand } from "#api/db/command";
import { migrate } from "#api/db/migrate";
import { seedLarge } from "#api/db/seed-large";

const { values } = parseArgs({ options: { offers: { type: "string", default: "100000" } } });
const total = Number(values.offers);
if (!Number.isInteger(total) || total < 1 || total > 5_000_000) {
  console.error("--offers debe ser un número entero entre 1 y 5.000.000.");
  process.exit(1);
}
const config = loadConfigOrExit();
const database = await openDatabaseForCommand(config, "seed:large").catch(exitWithMessage);
const started = Date.now();
await migrate(database.db);
const active = await seedLarge(database.db, total, (line) => process.stdout.write(`\r${line}`));
console.log(`\n${active} ofertas activas en ${database.kind} (${((Date.now() - started) / 1000).toFixed(1)} s).`);
await database.close();
