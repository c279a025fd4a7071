import { sql } from "drizzle-orm";
import { ANALYTICS_SETTINGS } from "#rules/tracking";
import { query, type Database, type Executor } from "#api/db/client";
import { claimDue, markSent, recordFailure, type FailedAttempt } from "#api/outbox/queue";

/** One event of Amplitude's HTTP API v2 (the fields we use). */
export type HttpApiEvent = {
  event_type: string;
  device_id: string;
  time: number;
  insert_id: string;
  platform: string;
  price?: number;
  quantity?: number;
  revenue?: number;
  revenueType?: string;
  event_properties?: Record<string, string | number | boolean | null>;
};

/**
 * Records that this sale's buyer accepted analytics when paying (the storefront says so only with
 * a consent cookie granting it), with the browser's analytics device id when JavaScript had one.
 */
export async function rememberAnalyticsConsent(db: Executor, saleId: string, deviceId: string | null): Promise<void> {
  await db.execute(sql`
    INSERT INTO sale_analytics (sale_id, device_id) VALUES (${saleId}, ${deviceId})
    ON CONFLICT (sale_id) DO NOTHING`);
}

/**
 * Called inside the capture's transaction, once the sale is paid: queues its "Purchase" event
 * (revenue) if the buyer consented. No email, no coupon code, no promo code text: money, counts
 * and offer ids only. The dedupe key makes a second call for the same sale do nothing.
 */
export async function queuePurchaseEvent(tx: Executor, saleId: string): Promise<void> {
  const [row] = await query<{
    device_id: string | null;
    total_cents: number;
    currency: string;
    provider: string;
    paid_at: string | Date | null;
    offers: string[];
    tickets: number;
    promo: boolean;
  }>(
    tx,
    sql`
      SELECT a.device_id, s.total_cents, s.currency, s.provider, s.paid_at,
             array_agg(DISTINCT si.offer_id::text) AS offers,
             sum(si.quantity)::int AS tickets,
             bool_or(si.promo_code IS NOT NULL) AS promo
      FROM sale_analytics a
      JOIN sales s ON s.id = a.sale_id
      JOIN sale_items si ON si.sale_id = s.id
      WHERE a.sale_id = ${saleId}
      GROUP BY a.device_id, s.total_cents, s.currency, s.provider, s.paid_at`,
  );
  if (!row) return; // no consent: nothing is sent
  const revenue = Number(row.total_cents) / 100;
  const event: HttpApiEvent = {
    event_type: "Purchase",
    // Without the browser's id (no JavaScript) the sale stands for the device: revenue still counts.
    device_id: row.device_id ?? `sale-${saleId}`,
    time: row.paid_at ? new Date(row.paid_at).getTime() : Date.now(),
    insert_id: `purchase-${saleId}`,
    platform: "Web",
    price: revenue,
    quantity: 1,
    revenue,
    revenueType: "purchase",
    event_properties: {
      currency: row.currency,
      offers: row.offers.length,
      offer_uuids: row.offers.sort().join(","),
      tickets: Number(row.tickets),
      promo_code_used: Boolean(row.promo),
      provider: row.provider,
    },
  };
  await tx.execute(sql`
    INSERT INTO analytics_outbox (dedupe_key, event) VALUES (${`purchase:${saleId}`}, ${JSON.stringify(event)}::jsonb)
    ON CONFLICT (dedupe_key) DO NOTHING`);
}

export type AnalyticsRow = { id: string; event: HttpApiEvent; attempts: number };

/** Due rows for this process; SKIP LOCKED lets several processes deliver without waiting on each other. */
export async function claimDueEvents(db: Database, { limit, leaseMs }: { limit: number; leaseMs: number }): Promise<AnalyticsRow[]> {
  // A row still 'sending' after its lease belonged to a process that died: resending is harmless.
  await db.execute(
    sql`UPDATE analytics_outbox SET status = 'queued', claimed_until = NULL WHERE status = 'sending' AND claimed_until < now()`,
  );
  const rows = await claimDue<AnalyticsRow>(db, "analytics_outbox", { limit, leaseMs, returning: sql`id, event, attempts` });
  return rows.map((r) => ({ ...r, event: typeof r.event === "string" ? JSON.parse(r.event) : r.event }));
}

export async function markEventsSent(db: Database, ids: string[], status: number): Promise<void> {
  await markSent(db, "analytics_outbox", ids, sql`, last_status = ${status}`);
}

/** Back to the queue after retryInMs, or 'failed' for good (retryInMs null, or out of retries). */
export async function markEventsFailed(
  db: Database,
  rows: AnalyticsRow[],
  { status, error, retryInMs }: { status: number | null; error: string; retryInMs: number | null },
): Promise<FailedAttempt[]> {
  const attempts: FailedAttempt[] = [];
  for (const row of rows) {
    // The spec's 12 retries: the first try plus 12 more.
    const giveUp = retryInMs === null || row.attempts > ANALYTICS_SETTINGS.flushMaxRetries;
    attempts.push(
      await recordFailure(db, "analytics_outbox", row.id, {
        error: error.slice(0, 500),
        retryInMs: giveUp ? null : retryInMs,
        also: sql`, last_status = ${status}`,
      }),
    );
  }
  return attempts;
}
