/**
 * npm run migrate: applies the pending migrations (api/db/migrations) and nothing else, as a
 * deploy step before the new servers start (with MIGRATE_ON_START=0 they refuse to start while
 * any is pending). DATABASE_URL, or the embedded database of DATA_DIR: through the server that
 * owns it, or owning the directory while it runs.
 */
import { loadConfigOrExit } from "#platform/config.server";
import { askServer, exitWithMessage, openDatabaseForCommand } from "#api/db/command";
import { migrate } from "#api/db/migrate";

const config = loadConfigOrExit();
try {
  let applied = ((await askServer(config, "migrate")) as { applied: string[] } | undefined)?.applied;
  if (applied) console.log("A través del servidor en marcha sobre este DATA_DIR.");
  else {
    const database = await openDatabaseForCommand(config, "migrate");
    try {
      applied = await migrate(database.db);
    } finally {
      await database.close();
    }
  }
  console.log(applied.length ? `Migraciones aplicadas: ${applied.join(", ")}` : "Ninguna migración pendiente.");
} catch (error) {
  exitWithMessage(error);
}
