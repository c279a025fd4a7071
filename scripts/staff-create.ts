/**
 * npm run staff:create -- --email persona@ejemplo.es: creates a staff account (or makes an
 * existing account staff) and mails it a login code through the outbox (SMTP, or .eml files).
 *
 * - DATABASE_URL (PostgreSQL): connects, creates, and sends the mail itself.
 * - Embedded PGlite: a running server on this DATA_DIR does it through its control socket
 *   (api/control.ts) and its mail worker sends the code; with no server, this takes the DATA_DIR
 *   itself (the same lock a server takes) and opens the database.
 */
import { parseArgs } from "node:util";
import { ZodError } from "zod";
import { loadConfigOrExit } from "#platform/config.server";
import { askOwner, NoOwnerError } from "#api/control";
import { exitWithMessage, openDatabaseForCommand } from "#api/db/command";
import { migrate } from "#api/db/migrate";
import { deliverAll } from "#api/mail/worker";
import { makeStaff, staffRequestProof } from "#api/services/staff-accounts";
import { EmailField } from "#rules/accounts";

const USAGE = "Uso: npm run staff:create -- --email persona@ejemplo.es";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let email: string;
try {
  const { values } = parseArgs({ options: { email: { type: "string" } } });
  if (!values.email) fail(`Falta --email.\n${USAGE}`);
  email = EmailField.parse(values.email);
} catch (error) {
  fail(`${error instanceof ZodError ? error.issues[0].message : (error as Error).message}\n${USAGE}`);
}

const config = loadConfigOrExit();
const done = (result: { created: boolean }) =>
  `${result.created ? "Cuenta de equipo creada" : "La cuenta ya existía: ahora es de equipo"}: ${email}. ` +
  `Le hemos enviado un código para entrar${config.SMTP_URL ? "" : ` (sin SMTP_URL: en ${config.dataDir}/mail/)`}.`;

if (!config.DATABASE_URL) {
  try {
    const result = (await askOwner(config.dataDir, "staff-create", { email, proof: staffRequestProof(config, email) })) as {
      created: boolean;
    };
    console.log(done(result));
    process.exit(0);
  } catch (error) {
    if (!(error instanceof NoOwnerError)) fail((error as Error).message);
  }
}

const database = await openDatabaseForCommand(config, "staff:create").catch(exitWithMessage);
try {
  await migrate(database.db);
  const result = await makeStaff(database.db, config, email);
  await deliverAll(database.db, config);
  console.log(done(result));
} finally {
  await database.close();
}
