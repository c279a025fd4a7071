import { sql } from "drizzle-orm";
import { query, type Database, type Executor } from "#api/db/client";

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

export type OutboxRow = {
  id: string;
  kind: string;
  recipient: string;
  dedupe_key: string;
  data: Record<string, unknown>;
  attempts: number;
};

/**
 * Takes up to `limit` due messages for this process. SKIP LOCKED lets several workers (processes)
 * claim at once without waiting on each other, and the status change to 'sending' in the same
 * statement means no other worker can take the row afterwards.
 */
export async function claimDue(db: Database, { limit, leaseMs }: { limit: number; leaseMs: number }): Promise<OutboxRow[]> {
  const rows = await query<OutboxRow>(
    db,
    sql`
    UPDATE mail_outbox
    SET status = 'sending', attempts = attempts + 1, claimed_until = now() + ${leaseMs} * interval '1 millisecond'
    WHERE id IN (
      SELECT id FROM mail_outbox
      WHERE status = 'queued' AND send_after <= now()
      ORDER BY send_after
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, kind, recipient, dedupe_key, data, attempts`,
  );
  return rows.map((r) => ({ ...r, data: typeof r.data === "string" ? JSON.parse(r.data) : r.data }));
}

export async function markSent(db: Database, id: string, messageId: string): Promise<void> {
  await db.execute(sql`
    UPDATE mail_outbox SET status = 'sent', sent_at = now(), message_id = ${messageId}, claimed_until = NULL, last_error = NULL
    WHERE id = ${id}`);
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
export async function markFailed(db: Database, id: string, error: string, retryInMs: number | null): Promise<void> {
  const message = error.slice(0, 1000);
  if (retryInMs === null) {
    await db.execute(sql`UPDATE mail_outbox SET status = 'failed', last_error = ${message}, claimed_until = NULL WHERE id = ${id}`);
  } else {
    await db.execute(sql`
      UPDATE mail_outbox SET status = 'queued', last_error = ${message}, claimed_until = NULL,
        send_after = now() + ${retryInMs} * interval '1 millisecond'
      WHERE id = ${id}`);
  }
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
