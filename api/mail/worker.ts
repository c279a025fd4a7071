import type { Config } from "#platform/config.server";
import type { Database } from "#api/db/client";
import { mailOrigin, PermanentMailError, type MessageRenderer } from "./context";
import { logger } from "#platform/logger.server";
import { reportError } from "#platform/error-reporting.server";
import { claimDue, failAbandoned, markFailed, markSent, markSkipped, releaseClaimed } from "./outbox";
import { createMailTransport, type MailTransport } from "./transport";
import { worthLogging } from "#api/db/errors";

export const MAX_ATTEMPTS = 6;

/** 1 min, 4 min, 16 min, ~1 h, ~4 h: a mail server down for an afternoon still gets the message. */
export const defaultBackoff = (attempt: number) => Math.min(60_000 * 4 ** (attempt - 1), 6 * 3600_000);

export type DeliverOptions = {
  transport: MailTransport;
  config: Config;
  messages?: Record<string, MessageRenderer>;
  backoff?: (attempt: number) => number;
  maxAttempts?: number;
  batch?: number;
  /** How long a claimed row is ours; longer than the transport's worst-case timeouts. */
  leaseMs?: number;
  log?: (line: string) => void;
  /** Asked before each message: true once the process is shutting down (the rest stay queued). */
  shouldStop?: () => boolean;
};

export const SANDBOX_SUBJECT_PREFIX = "[PRUEBAS] ";

/** Passes until the outbox has nothing due: for commands that send what they queued and exit. */
export async function deliverAll(db: Database, config: Config): Promise<number> {
  const transport = createMailTransport(config);
  let total = 0;
  try {
    for (;;) {
      const pass = await deliverDue(db, { transport, config, batch: 50 });
      total += pass.sent;
      if (pass.sent + pass.failed + pass.retrying + pass.skipped === 0) return total;
    }
  } finally {
    transport.close();
  }
}

export type DeliverResult = { sent: number; retrying: number; failed: number; skipped: number };

/** SMTP replies 5xx (and render errors we cannot fix) are final; anything else may pass later. */
function isPermanent(error: unknown): boolean {
  if (error instanceof PermanentMailError) return true;
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

function describe(error: unknown): string {
  if (error instanceof Error) return (error as { response?: string }).response ?? error.message;
  return String(error);
}

/** One pass: claim what is due, render each message, send it, record the outcome. */
export async function deliverDue(db: Database, options: DeliverOptions): Promise<DeliverResult> {
  const { transport, config, backoff = defaultBackoff, maxAttempts = MAX_ATTEMPTS, batch = 20, leaseMs = 5 * 60_000 } = options;
  const log = options.log ?? ((line: string) => logger.error(line));
  const result: DeliverResult = { sent: 0, retrying: 0, failed: 0, skipped: 0 };
  const abandoned = await failAbandoned(db);
  if (abandoned) log(`Correo: ${abandoned} envío(s) interrumpido(s) marcados como fallidos (no se reenvían).`);
  const domain = /@([^>\s]+)>?\s*$/.exec(config.MAIL_FROM)?.[1] ?? "ofertas.local";
  const origin = mailOrigin(config);

  const rows = await claimDue(db, { limit: batch, leaseMs });
  if (rows.length === 0) return result;
  // The templates (React Email, ~100 MB resident) load with the first mail there is to send, so a
  // server that sends none, or has not yet, does not carry them.
  const messages = options.messages ?? (await import("./messages")).messages;
  for (const [index, row] of rows.entries()) {
    if (options.shouldStop?.()) {
      await releaseClaimed(
        db,
        rows.slice(index).map((r) => r.id),
      );
      break;
    }
    try {
      const render = messages[row.kind];
      if (!render) throw new PermanentMailError(`Tipo de correo desconocido: ${row.kind}`);
      const mail = await render(row.data, { db, config, origin, to: row.recipient });
      if (!mail) {
        await markSkipped(db, row.id);
        result.skipped++;
        continue;
      }
      // A staging deployment on the payment sandbox says so before anyone opens the message.
      const subject = config.sandboxNotice ? `${SANDBOX_SUBJECT_PREFIX}${mail.subject}` : mail.subject;
      const sent = await transport.send({ ...mail, subject, to: row.recipient, messageId: `<${row.id}@${domain}>` });
      await markSent(db, row.id, sent.messageId);
      result.sent++;
    } catch (error) {
      const final = isPermanent(error) || row.attempts >= maxAttempts;
      const retryInMs = final ? null : backoff(row.attempts);
      await markFailed(db, row.id, describe(error), retryInMs);
      // The message's id, never its recipient: the log is no place for addresses.
      if (final) {
        result.failed++;
        log(`Correo ${row.kind} (${row.id}) fallido tras ${row.attempts} intento(s): ${describe(error)}`);
        reportError(error, { source: "mail", route: row.kind });
      } else {
        result.retrying++;
        const nextTry = new Date(Date.now() + retryInMs!).toISOString();
        logger.warn(
          { mailId: row.id, kind: row.kind, attempt: row.attempts, nextTry, error: describe(error) },
          "Correo: intento fallido, se reintentará.",
        );
      }
    }
  }
  return result;
}

export type MailWorker = {
  transport: MailTransport;
  /** Look at the outbox now instead of at the next tick (after queueing something urgent). */
  wake: () => void;
  stop: () => Promise<void>;
  /** Why the last pass could not claim or record mail (a full or read-only disk, the database gone), or null. */
  problem: () => string | null;
};

/** Polls the outbox every `everyMs`; several processes can each run one (SKIP LOCKED). */
export function startMailWorker(db: Database, config: Config, options: Partial<DeliverOptions> & { everyMs?: number } = {}): MailWorker {
  const transport = options.transport ?? createMailTransport(config);
  let running: Promise<unknown> | null = null;
  let again = false;
  let stopped = false;
  let problem: string | null = null;
  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        const r = await deliverDue(db, { ...options, transport, config, shouldStop: () => stopped });
        // A full batch means more may be waiting.
        if (r.sent + r.retrying + r.failed + r.skipped >= (options.batch ?? 20)) again = true;
      } while (again && !stopped);
    })()
      .then(() => {
        problem = null;
      })
      .catch((error: unknown) => {
        problem = "mail outbox unavailable";
        if (worthLogging(error)) logger.error({ err: error }, "Envío de correo fallido.");
      })
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, options.everyMs ?? 2_000);
  timer.unref();
  tick();
  return {
    transport,
    wake: tick,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
      transport.close();
    },
    problem: () => problem,
  };
}
