import { sql } from "drizzle-orm";
import { RELEASED_SALE_RETENTION_DAYS } from "#rules/limits";
import { query, transactionWithRetry, type Database } from "#api/db/client";
import { giveBack } from "./stock";
import { logger } from "#platform/logger.server";
import { worthLogging } from "#api/db/errors";

/** Expires unpaid reservations; SKIP LOCKED lets several processes sweep without waiting on each other. */
export async function sweepExpiredReservations(db: Database): Promise<number> {
  return transactionWithRetry(db, async (tx) => {
    const expired = await query<{ id: string }>(
      tx,
      sql`
      UPDATE sales SET status = 'expired'
      WHERE id IN (
        SELECT id FROM sales WHERE status = 'pending' AND expires_at < now()
        ORDER BY expires_at LIMIT 200 FOR UPDATE SKIP LOCKED
      )
      RETURNING id`,
    );
    await giveBack(
      tx,
      expired.map((r) => r.id),
      { keepApproved: true },
    );
    return expired.length;
  });
}

/**
 * Deletes what nobody needs any more, a batch at a time: checkout sessions past their expiry
 * (validate writes one per "Continuar"), and cancelled, declined or expired sales older than the
 * retention period, unless the provider approved their payment (a late capture still needs them).
 */
export async function purgeStaleCheckoutData(db: Database, batch = 1000): Promise<{ sessions: number; sales: number }> {
  const sessions = await query(
    db,
    sql`
    DELETE FROM checkout_sessions WHERE token IN (
      SELECT token FROM checkout_sessions WHERE expires_at < now() LIMIT ${batch}
    ) RETURNING token`,
  );
  const removed = await query(
    db,
    sql`
    DELETE FROM sales WHERE id IN (
      SELECT s.id FROM sales s
      WHERE s.status IN ('cancelled', 'declined', 'expired')
        AND s.created_at < now() - make_interval(days => ${RELEASED_SALE_RETENTION_DAYS})
        AND NOT EXISTS (SELECT 1 FROM payment_transactions t WHERE t.sale_id = s.id AND t.status IN ('approved', 'captured'))
      LIMIT ${batch}
    ) RETURNING id`,
  );
  return { sessions: sessions.length, sales: removed.length };
}

export function startReservationSweep(db: Database, everyMs = 60_000): () => void {
  const timer = setInterval(() => {
    sweepExpiredReservations(db)
      .then(() => purgeStaleCheckoutData(db))
      .catch((error: unknown) => worthLogging(error) && logger.error({ err: error }, "Barrido de reservas fallido."));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
