/**
 * What the mail and analytics outboxes share: a row is queued, claimed by one process, then sent,
 * retried later or failed for good. Each table has id, status, attempts, send_after,
 * claimed_until, sent_at and last_error; what is sent and how lives in api/mail and api/analytics.
 */
import { sql, type SQL } from "drizzle-orm";
import { query, type Database } from "#api/db/client";

export type OutboxTable = "mail_outbox" | "analytics_outbox";

/** What became of a failed attempt: its number, and when the row is tried again (null: never). */
export type FailedAttempt = { attempt: number; nextTry: Date | null };

/**
 * Takes up to `limit` due rows for this process, counting the attempt. SKIP LOCKED lets several
 * processes claim at once without waiting on each other, and the status change to 'sending' in the
 * same statement means no other process can take the row afterwards.
 */
export async function claimDue<Row extends { id: string; attempts: number }>(
  db: Database,
  table: OutboxTable,
  { limit, leaseMs, returning }: { limit: number; leaseMs: number; returning: SQL },
): Promise<Row[]> {
  const t = sql.identifier(table);
  return query<Row>(
    db,
    sql`
    UPDATE ${t}
    SET status = 'sending', attempts = attempts + 1, claimed_until = now() + ${leaseMs} * interval '1 millisecond'
    WHERE id IN (
      SELECT id FROM ${t}
      WHERE status = 'queued' AND send_after <= now()
      ORDER BY send_after
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING ${returning}`,
  );
}

/** Sent: `also` sets the table's own columns (", message_id = …"). */
export async function markSent(db: Database, table: OutboxTable, ids: string[], also: SQL = sql``): Promise<void> {
  if (!ids.length) return;
  await db.execute(sql`
    UPDATE ${sql.identifier(table)} SET status = 'sent', sent_at = now(), claimed_until = NULL, last_error = NULL${also}
    WHERE id IN (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
}

/**
 * Records a failed attempt: back to the queue in `retryInMs`, or 'failed' for good when it is null.
 * `also` sets the table's own columns (", last_status = …").
 */
export async function recordFailure(
  db: Database,
  table: OutboxTable,
  id: string,
  { error, retryInMs, also = sql`` }: { error: string; retryInMs: number | null; also?: SQL },
): Promise<FailedAttempt> {
  const retry = retryInMs === null ? sql`` : sql`, send_after = now() + ${retryInMs} * interval '1 millisecond'`;
  const [row] = await query<{ attempts: number; send_after: string | Date }>(
    db,
    sql`
    UPDATE ${sql.identifier(table)}
    SET status = ${retryInMs === null ? "failed" : "queued"}, last_error = ${error}, claimed_until = NULL${retry}${also}
    WHERE id = ${id}
    RETURNING attempts, send_after`,
  );
  return {
    attempt: Number(row?.attempts ?? 0),
    nextTry: retryInMs === null || !row ? null : new Date(row.send_after),
  };
}
