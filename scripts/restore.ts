/**
 * npm run restore -- FILE: puts a copy made by `npm run backup` in place as the embedded database
 * of DATA_DIR. Only into a DATA_DIR with no database and no server: it never overwrites one.
 * PostgreSQL is restored with pg_restore (docs/deploy.md).
 */
import { closeSync, existsSync, openSync, readSync, rmSync } from "node:fs";
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
  const notABackup = (why: string) => new Error(`${file} no es una copia de «npm run backup» (${why}): no se ha restaurado nada.`);
  if (!isTarFile(file)) throw notABackup("no es un archivo tar");
  const database = await openDatabaseForCommand(config, "restore", { from: file }).catch((error: unknown) => {
    // What the failed start left is no database: a later restore into this DATA_DIR must not be refused for it.
    rmSync(path.join(config.dataDir, "pglite.init"), { recursive: true, force: true });
    const said = error instanceof Error ? error.message : typeof error === "string" ? error : "la base de datos no arranca con ella";
    throw notABackup(said);
  });
  try {
    const [sales] = await query<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM sales`);
    console.log(`Restaurada ${file} en ${config.dataDir}: ${Number(sales.n)} venta(s).`);
  } finally {
    await database.close();
  }
} catch (error) {
  exitWithMessage(error);
}

/** A tar archive (what the backup writes) has «ustar» at byte 257 of its first header. */
function isTarFile(file: string): boolean {
  const header = Buffer.alloc(512);
  const fd = openSync(file, "r");
  try {
    return readSync(fd, header, 0, 512, 0) === 512 && header.subarray(257, 262).toString("latin1") === "ustar";
  } finally {
    closeSync(fd);
  }
}
