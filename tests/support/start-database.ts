/**
 * What server.ts does before it serves (startDatabase), in a process of its own, printing each
 * phase: the data-dir tests kill it at each phase, or start two of them on one DATA_DIR.
 * Stays up after "ready" until killed, answering the scripts' commands as the server does. Usage: DATA_DIR=… node --import tsx tests/support/start-database.ts
 */
import { sql } from "drizzle-orm";
import { DataDirInUseError } from "#api/control";
import { query } from "#api/db/client";
import { registerDatabaseCommands } from "#api/db/command";
import { startDatabase } from "#api/db/startup";
import { PendingMigrationsError } from "#api/db/migrate";

const dataDir = process.env.DATA_DIR ?? "./data";
try {
  const { database, claim } = await startDatabase(
    { dataDir, DATABASE_URL: undefined, MIGRATE_ON_START: process.env.MIGRATE_ON_START !== "0" },
    { onPhase: (phase) => console.log(`phase:${phase}`), log: () => {} },
  );
  claim?.setPort(Number(process.env.PORT ?? 0));
  registerDatabaseCommands(database);
  const [offers] = await query<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM offers`);
  const versions = await query<{ version: string }>(database.db, sql`SELECT version FROM schema_migrations ORDER BY version`);
  console.log(`state:${JSON.stringify({ offers: Number(offers.n), migrations: versions.map((v) => v.version) })}`);
  setInterval(() => {}, 60_000);
} catch (error) {
  const known = error instanceof DataDirInUseError || error instanceof PendingMigrationsError;
  console.error(known ? error.message : error);
  process.exit(error instanceof DataDirInUseError ? 3 : error instanceof PendingMigrationsError ? 4 : 1);
}
