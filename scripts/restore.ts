/**
 * npm run restore -- FILE: puts a copy made by `npm run backup` in place as the embedded database
 * of DATA_DIR. Only into a DATA_DIR with no database and no server: it never overwrites one.
 * PostgreSQL is restored with pg_restore (docs/deploy.md).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { loadConfigOrExit } from "#platform/config.server";
import { query } from "#api/db/client";
import { exitWithMessage, hasEmbeddedDatabase, openDatabaseForCommand } from "#api/db/command";

const config = loadConfigOrExit();
const [source] = process.argv.slice(2);
try {
  if (!source) throw new Error("Uso: npm run restore -- ARCHIVO (una copia de npm run backup)");
  if (config.DATABASE_URL) throw new Error("Con DATABASE_URL se restaura con pg_restore (docs/deploy.md, «Backups and restore»).");
  const file = path.resolve(source);
  if (!existsSync(file)) throw new Error(`No existe ${file}.`);
  if (hasEmbeddedDatabase(config.dataDir)) {
    throw new Error(`${config.dataDir} ya tiene una base de datos: restaura en un DATA_DIR vacío (o mueve ese antes).`);
  }
  const database = await openDatabaseForCommand(config, "restore", { from: file });
  try {
    const [sales] = await query<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM sales`);
    console.log(`Restaurada ${file} en ${config.dataDir}: ${Number(sales.n)} venta(s).`);
  } finally {
    await database.close();
  }
} catch (error) {
  exitWithMessage(error);
}
