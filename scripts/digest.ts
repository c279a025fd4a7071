/**
 * npm run digest: queues the marketing digest for every subscribed customer now, and sends it.
 *
 * - DATABASE_URL (PostgreSQL): connects, queues, and makes one delivery pass; a running server's
 *   worker would send them too, and SKIP LOCKED keeps the two from sending one message twice.
 * - Embedded PGlite: the database has one owner. A running server on this DATA_DIR is asked to do
 *   it through its control socket (api/control.ts); with no server, this owns DATA_DIR meanwhile.
 */
import { loadConfigOrExit } from "#platform/config.server";
import { exitWithMessage, openDatabaseForCommand } from "#api/db/command";
import { migrate } from "#api/db/migrate";
import { queueDigestNow } from "#api/mail/digest";
import { deliverAll } from "#api/mail/worker";
import { askOwnerToQueueDigest } from "#api/mail/digest-command";

const config = loadConfigOrExit();

if (!config.DATABASE_URL) {
  const answer = await askOwnerToQueueDigest(config.dataDir);
  if (answer) {
    console.log(`Boletín ${answer.runId}: ${answer.queued} correo(s) en cola en el servidor en marcha, que los envía.`);
    process.exit(0);
  }
}

const database = await openDatabaseForCommand(config, "digest").catch(exitWithMessage);
try {
  await migrate(database.db);
  const run = await queueDigestNow(database.db);
  console.log(`Boletín ${run.runId}: ${run.queued} correo(s) en cola.`);
  console.log(`Enviados: ${await deliverAll(database.db, config)}.`);
} finally {
  await database.close();
}
