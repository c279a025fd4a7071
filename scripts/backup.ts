/**
 * npm run backup -- FILE: a copy of the embedded database (DATA_DIR) as one tarball, taken at one
 * moment even while the server sells (the server writes it, through its control socket); with no
 * server, this owns DATA_DIR while it copies. PostgreSQL is copied with pg_dump (docs/deploy.md).
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { loadConfigOrExit } from "#platform/config.server";
import { askServer, exitWithMessage, openDatabaseForCommand } from "#api/db/command";

const config = loadConfigOrExit();
const [target] = process.argv.slice(2);
try {
  if (!target) throw new Error("Uso: npm run backup -- ARCHIVO (por ejemplo backups/ofertas-2026-11-26.tar)");
  if (config.DATABASE_URL) throw new Error("Con DATABASE_URL la copia se hace con pg_dump -Fc (docs/deploy.md, «Backups and restore»).");
  const file = path.resolve(target);
  if (existsSync(file)) throw new Error(`${file} ya existe: la copia se escribe en un archivo nuevo.`);
  const started = Date.now();
  if (await askServer(config, "backup", { file })) console.log("Copia hecha por el servidor en marcha sobre este DATA_DIR.");
  else {
    const database = await openDatabaseForCommand(config, "backup");
    try {
      await database.dump!(file);
    } finally {
      await database.close();
    }
  }
  const size = (statSync(file).size / 1024 / 1024).toFixed(1);
  console.log(`Copia de ${config.dataDir} en ${file} (${size} MB, ${((Date.now() - started) / 1000).toFixed(1)} s).`);
} catch (error) {
  exitWithMessage(error);
}
