import { sql } from "drizzle-orm";
import type { Config } from "#platform/config.server";
import { logger } from "#platform/logger.server";
import { query, type Database, type Executor } from "#api/db/client";
import { queueMail } from "./outbox";
import { worthLogging } from "#api/db/errors";

/**
 * Queues the marketing digest for every address with consent and no unsubscribe, in one
 * transaction. `runId` is part of each dedupe key: the scheduled run of a period queues once
 * however many processes try, and a manual `npm run digest` is a run of its own.
 */
export async function queueDigest(tx: Executor, runId: string): Promise<{ runId: string; queued: number }> {
  const subscribers = await query<{ email: string; region: string | null }>(
    tx,
    sql`
    SELECT m.email, (
      SELECT o.province FROM sales s
      JOIN sale_items si ON si.sale_id = s.id JOIN offers o ON o.id = si.offer_id
      WHERE lower(s.email) = m.email AND s.status = 'paid'
      ORDER BY s.paid_at DESC NULLS LAST LIMIT 1
    ) AS region
    FROM mail_subscriptions m WHERE m.unsubscribed_at IS NULL ORDER BY m.email`,
  );
  for (const s of subscribers) {
    // The region of their latest purchase: what we know of where they are.
    await queueMail(tx, { kind: "digest", to: s.email, dedupeKey: `digest:${runId}:${s.email}`, data: { region: s.region } });
  }
  const [row] = await query<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM mail_outbox WHERE dedupe_key LIKE ${`digest:${runId}:%`}`,
  );
  return { runId, queued: Number(row?.n ?? 0) };
}

/** A manual run: its own id, so it is never taken for a scheduled one. */
export function queueDigestNow(db: Database): Promise<{ runId: string; queued: number }> {
  const runId = `manual-${new Date().toISOString()}`;
  return db.transaction((tx) => queueDigest(tx, runId));
}

const madrid = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Madrid",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  hourCycle: "h23",
});

/**
 * The period a scheduled digest belongs to ("weekly-2026-11-16" is the week starting that Monday),
 * or null before 09:00 in Spain: nobody wants offers at midnight.
 */
export function digestPeriod(schedule: Config["DIGEST_SCHEDULE"], now: Date): string | null {
  if (schedule === "off") return null;
  const parts = Object.fromEntries(madrid.formatToParts(now).map((p) => [p.type, p.value]));
  if (Number(parts.hour) < 9) return null;
  const day = new Date(Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day)));
  if (schedule === "daily") return `daily-${day.toISOString().slice(0, 10)}`;
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7)); // back to Monday
  return `weekly-${day.toISOString().slice(0, 10)}`;
}

/** Queues this period's digest unless some process already did (digest_runs is the gate). */
export async function runScheduledDigest(db: Database, schedule: Config["DIGEST_SCHEDULE"], now = new Date()) {
  const period = digestPeriod(schedule, now);
  if (!period) return null;
  return db.transaction(async (tx) => {
    const won = await query(tx, sql`INSERT INTO digest_runs (period) VALUES (${period}) ON CONFLICT (period) DO NOTHING RETURNING period`);
    if (won.length === 0) return null;
    return queueDigest(tx, period);
  });
}

/** Checks every `everyMs` (default hourly) whether this period's digest is due. */
export function startDigestSchedule(db: Database, config: Config, onQueued: () => void, everyMs = 3600_000): () => void {
  if (config.DIGEST_SCHEDULE === "off") return () => {};
  const tick = () =>
    runScheduledDigest(db, config.DIGEST_SCHEDULE)
      .then((run) => {
        if (!run) return;
        logger.info({ runId: run.runId, queued: run.queued }, "Boletín: correos en cola.");
        onQueued();
      })
      .catch((error: unknown) => worthLogging(error) && logger.error({ err: error }, "Boletín programado fallido."));
  const timer = setInterval(tick, everyMs);
  timer.unref();
  void tick();
  return () => clearInterval(timer);
}
