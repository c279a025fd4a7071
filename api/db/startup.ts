import type { Config } from "#platform/config.server";
import { claimDataDir, DataDirInUseError, type DataDirClaim } from "#api/control";
import { logger } from "#platform/logger.server";
import { openDatabase, type Database, type DatabaseHandle } from "./client";
import { migrate, pendingMigrations, PendingMigrationsError } from "./migrate";
import { seedIfEmpty } from "./seed";
import { seedDemoAccounts } from "./seed-accounts";
import { seedDemoPartner } from "./seed-partner";
import { seedDemoRatings, seedDemoRecentSales } from "./seed-ratings";

const DEMO_ACCOUNTS_LOADED = "Cuentas de demostración creadas (README, «Demo accounts»).";
const DEMO_PARTNER_LOADED = "Socio de demostración creado (README, «Demo accounts»).";

/**
 * The demo shop into an empty database: the catalogue, its ratings and recent sales, the demo
 * customer with a paid purchase, and (a try-out only) the demo staff and partner accounts.
 */
async function seedDemo(db: Database, demo: { catalogue: boolean; staff: boolean }, log: (line: string) => void) {
  if (!demo.catalogue) return;
  const fresh = await seedIfEmpty(db);
  if (fresh) {
    log("Catálogo de demostración cargado.");
    await seedDemoRatings(db);
  }
  if (await seedDemoAccounts(db, { staff: demo.staff })) log(DEMO_ACCOUNTS_LOADED);
  if (demo.staff && (await seedDemoPartner(db))) log(DEMO_PARTNER_LOADED);
  if (fresh) await seedDemoRecentSales(db);
}

export type StartupPhase = "claim" | "initdb" | "prepare" | "open" | "migrate" | "seed" | "ready";

/**
 * What `npm start` does before it serves: own DATA_DIR, open the database (a new embedded one is
 * built whole in a scratch folder first), apply migrations (unless MIGRATE_ON_START=0, which only checks none is pending) and load the demo
 * catalogue when empty (one transaction). Killed at any step, the next start finishes the job.
 */
export async function startDatabase(
  config: Pick<Config, "DATABASE_URL" | "dataDir"> &
    Partial<
      Pick<
        Config,
        | "DATABASE_POOL_SIZE"
        | "DATABASE_CONNECT_TIMEOUT"
        | "DATABASE_STATEMENT_TIMEOUT"
        | "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT"
        | "MIGRATE_ON_START"
        | "demoData"
        | "demoStaff"
      >
    >,
  { onPhase, log = (line) => logger.info(line) }: { onPhase?: (phase: StartupPhase) => void; log?: (line: string) => void } = {},
): Promise<{ database: DatabaseHandle; claim: DataDirClaim | null }> {
  const migrateOnStart = config.MIGRATE_ON_START ?? true;
  // Without the settings (tests, scripts): a try-out's demo data, as on a laptop.
  const demo = { catalogue: config.demoData ?? true, staff: config.demoStaff ?? true };
  onPhase?.("claim");
  let claim: DataDirClaim | null;
  try {
    claim = await claimDataDir(config.dataDir);
  } catch (error) {
    // On PostgreSQL many processes share the data and DATA_DIR only holds the dev secret: the
    // first one answers the control channel, the others simply serve.
    if (!(error instanceof DataDirInUseError) || !config.DATABASE_URL) throw error;
    claim = null;
  }
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    timeouts: {
      connectSeconds: config.DATABASE_CONNECT_TIMEOUT,
      statementMs: config.DATABASE_STATEMENT_TIMEOUT,
      idleInTransactionMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT,
    },
    dataDir: config.dataDir,
    onPhase,
    prepare: async (db) => {
      // With MIGRATE_ON_START=0 a new embedded database stays empty until `npm run migrate`.
      if (!migrateOnStart) return;
      const applied = await migrate(db);
      if (applied.length) log(`Migraciones aplicadas: ${applied.join(", ")}`);
      await seedDemo(db, demo, log);
    },
  });
  try {
    onPhase?.("migrate");
    if (migrateOnStart) {
      const applied = await migrate(database.db);
      if (applied.length) log(`Migraciones aplicadas: ${applied.join(", ")}`);
    } else {
      const pending = await pendingMigrations(database.db);
      if (pending.length) throw new PendingMigrationsError(pending);
    }
    onPhase?.("seed");
    await seedDemo(database.db, demo, log);
  } catch (error) {
    await database.close().catch(() => {});
    await claim?.release();
    throw error;
  }
  onPhase?.("ready");
  return { database, claim };
}
