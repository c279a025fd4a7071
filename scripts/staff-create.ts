/**
 * npm run staff:create -- --email persona@ejemplo.es [--reactivate]: creates a staff account (or
 * makes an existing account staff, ending its sessions) and mails it a login code through the
 * outbox (SMTP, or .eml files). A deactivated account needs --reactivate (ADR 032).
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
import { DeactivatedAccountError, makeStaff, staffRequestProof, type StaffOutcome } from "#api/services/staff-accounts";
import { EmailField } from "#rules/accounts";
import { ROLE_LABELS } from "#rules/roles";

const USAGE = "Uso: npm run staff:create -- --email persona@ejemplo.es [--reactivate]";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let email: string;
let reactivate = false;
try {
  const { values } = parseArgs({ options: { email: { type: "string" }, reactivate: { type: "boolean" } } });
  if (!values.email) fail(`Falta --email.\n${USAGE}`);
  email = EmailField.parse(values.email);
  reactivate = values.reactivate ?? false;
} catch (error) {
  fail(`${error instanceof ZodError ? error.issues[0].message : (error as Error).message}\n${USAGE}`);
}

const config = loadConfigOrExit();
// What happened, without repeating the address: a command's output may end up in a log.
const done = (result: StaffOutcome) =>
  [
    result.created
      ? "Cuenta de equipo creada."
      : `La cuenta ya existía (${ROLE_LABELS[result.previousRole ?? "customer"].toLowerCase()})` +
        `${result.reactivated ? " y estaba desactivada: se ha vuelto a activar" : ""}; ahora es de equipo.`,
    result.created
      ? ""
      : result.sessionsEnded
        ? `Se han cerrado sus ${result.sessionsEnded} sesión(es) abiertas: tendrá que volver a entrar.`
        : "No tenía sesiones abiertas.",
    `Le hemos enviado un código para entrar${config.SMTP_URL ? "" : ` (sin SMTP_URL: en ${config.dataDir}/mail/)`}.`,
  ]
    .filter(Boolean)
    .join(" ");

if (!config.DATABASE_URL) {
  try {
    const result = (await askOwner(config.dataDir, "staff-create", {
      email,
      reactivate,
      proof: staffRequestProof(config, email),
    })) as StaffOutcome;
    console.log(done(result));
    process.exit(0);
  } catch (error) {
    if (!(error instanceof NoOwnerError)) fail((error as Error).message);
  }
}

const database = await openDatabaseForCommand(config, "staff:create").catch(exitWithMessage);
try {
  await migrate(database.db);
  const result = await makeStaff(database.db, config, email, { reactivate });
  await deliverAll(database.db, config);
  console.log(done(result));
} catch (error) {
  if (!(error instanceof DeactivatedAccountError)) throw error;
  process.exitCode = 1;
  console.error(error.message);
} finally {
  await database.close();
}
