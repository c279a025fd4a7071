import { sql, type SQL } from "drizzle-orm";
import { query, type Database, type Executor } from "#api/db/client";
import { claimDue as claimDueRows, markSent as markRowsSent, recordFailure, type FailedAttempt } from "#api/outbox/queue";

export type QueuedMail = {
  /** A key of the registry in api/mail/messages.ts. */
  kind: string;
  to: string;
  /** Names the cause ("purchase:<sale id>"): a second queueMail for the same cause does nothing. */
  dedupeKey: string;
  /** What the template needs at send time; JSON only. */
  data: Record<string, unknown>;
  /** Not before this moment (a feedback request days after the purchase). */
  sendAfter?: Date;
};

/**
 * Writes one message to the outbox in the caller's transaction: it is sent if and only if the
 * cause commits. The worker (api/mail/worker.ts) renders and sends it later.
 */
export async function queueMail(tx: Executor, m: QueuedMail): Promise<void> {
  await tx.execute(sql`
    INSERT INTO mail_outbox (kind, recipient, dedupe_key, data, send_after)
    VALUES (${m.kind}, ${m.to.trim().toLowerCase()}, ${m.dedupeKey}, ${JSON.stringify(m.data)}::jsonb,
            coalesce(${m.sendAfter?.toISOString() ?? null}::timestamptz, now()))
    ON CONFLICT (dedupe_key) DO NOTHING`);
}

/**
 * As queueMail, and a message of the same key still waiting is brought forward to `sendAfter`
 * if that is sooner (a redemption asks for the rating the purchase queued for later). As a
 * statement, written only `when` a condition holds, for a caller that makes it part of its own
 * (the till's redemption and its mail in one).
 */
export function mailNoLaterThanStatement(m: QueuedMail & { sendAfter: Date }, when: SQL = sql`true`): SQL {
  return sql`
    INSERT INTO mail_outbox (kind, recipient, dedupe_key, data, send_after)
    SELECT ${m.kind}, ${m.to.trim().toLowerCase()}, ${m.dedupeKey}, ${JSON.stringify(m.data)}::jsonb, ${m.sendAfter.toISOString()}::timestamptz
    WHERE ${when}
    ON CONFLICT (dedupe_key) DO UPDATE SET send_after = least(mail_outbox.send_after, EXCLUDED.send_after)
      WHERE mail_outbox.status = 'queued'`;
}

export async function queueMailNoLaterThan(tx: Executor, m: QueuedMail & { sendAfter: Date }): Promise<void> {
  await tx.execute(mailNoLaterThanStatement(m));
}

/**
 * Many messages in one statement, as queueMail writes each (same dedupe rule): for a job that
 * queues thousands at once (api/services/reminders/), where a statement per message was the cost.
 */
export async function queueMails(tx: Executor, mails: QueuedMail[]): Promise<void> {
  if (!mails.length) return;
  const column = <T>(pick: (m: QueuedMail) => T) => sql.param(mails.map(pick));
  await tx.execute(sql`
    INSERT INTO mail_outbox (kind, recipient, dedupe_key, data, send_after)
    SELECT kind, recipient, dedupe_key, data::jsonb, coalesce(send_after, now())
    FROM unnest(${column((m) => m.kind)}::text[], ${column((m) => m.to.trim().toLowerCase())}::text[],
                ${column((m) => m.dedupeKey)}::text[], ${column((m) => JSON.stringify(m.data))}::text[],
                ${column((m) => m.sendAfter?.toISOString() ?? null)}::timestamptz[]) AS m(kind, recipient, dedupe_key, data, send_after)
    ON CONFLICT (dedupe_key) DO NOTHING`);
}

export type OutboxRow = {
  id: string;
  kind: string;
  recipient: string;
  dedupe_key: string;
  data: Record<string, unknown>;
  attempts: number;
};

/** Due messages for this process (see claimDue in api/outbox/queue.ts). */
export async function claimDue(db: Database, { limit, leaseMs }: { limit: number; leaseMs: number }): Promise<OutboxRow[]> {
  const rows = await claimDueRows<OutboxRow>(db, "mail_outbox", {
    limit,
    leaseMs,
    returning: sql`id, kind, recipient, dedupe_key, data, attempts`,
  });
  return rows.map((r) => ({ ...r, data: typeof r.data === "string" ? JSON.parse(r.data) : r.data }));
}

export async function markSent(db: Database, id: string, messageId: string): Promise<void> {
  await markRowsSent(db, "mail_outbox", [id], sql`, message_id = ${messageId}`);
}

/** Claimed rows not attempted (the process is stopping): back to the queue as they were, at once. */
export async function releaseClaimed(db: Database, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await db.execute(sql`
    UPDATE mail_outbox SET status = 'queued', attempts = attempts - 1, claimed_until = NULL
    WHERE status = 'sending' AND id IN (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`);
}

export async function markSkipped(db: Database, id: string): Promise<void> {
  await db.execute(sql`UPDATE mail_outbox SET status = 'skipped', claimed_until = NULL WHERE id = ${id}`);
}

/** Back to the queue after `retryInMs`, or 'failed' for good when retryInMs is null. */
export async function markFailed(db: Database, id: string, error: string, retryInMs: number | null): Promise<FailedAttempt> {
  return recordFailure(db, "mail_outbox", id, { error: error.slice(0, 1000), retryInMs });
}

export const INTERRUPTED =
  "Envío interrumpido (el proceso se detuvo durante el envío): no se reintenta, porque el servidor de correo pudo haberlo aceptado ya.";

/**
 * A row still 'sending' after its lease belonged to a process that died between claiming and
 * recording the result. The SMTP server may or may not have accepted it; sending it again could
 * deliver it twice, so it is recorded as failed (at most once), for a person to look at.
 */
export async function failAbandoned(db: Database): Promise<number> {
  const rows = await query(
    db,
    sql`
    UPDATE mail_outbox SET status = 'failed', last_error = ${INTERRUPTED}, claimed_until = NULL
    WHERE status = 'sending' AND claimed_until < now()
    RETURNING id`,
  );
  return rows.length;
}
