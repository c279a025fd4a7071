import { sql } from "drizzle-orm";
import { query, type Database, type Executor } from "#api/db/client";
import { worthLogging } from "#api/db/errors";
import { offers } from "#api/db/schema";
import { logger } from "#platform/logger.server";
import { onSaleNow } from "./cards";

/**
 * Ends the active offers whose last day on sale has gone in Madrid (rules/sale-end.ts,
 * statusForSaleEnd): they leave the listings, their counts and search in the same statement.
 * Idempotent, and safe from several workers at once (an ended offer is not active any more).
 */
export async function endPastSales(db: Executor): Promise<number> {
  const ended = await query<{ id: string }>(
    db,
    sql`UPDATE ${offers} SET status = 'ended'
        WHERE ${offers.status} = 'active' AND ${offers.saleUntil} IS NOT NULL AND NOT ${onSaleNow(sql`${offers.saleUntil}`)}
        RETURNING ${offers.id} AS id`,
  );
  return ended.length;
}

/** The sale-end job: a pass every minute, so an offer leaves the shop within a minute of its last day. */
export function startSaleEndSweep(db: Database, everyMs = 60_000): () => void {
  const timer = setInterval(() => {
    endPastSales(db)
      .then((n) => n > 0 && logger.info({ ended: n }, `Venta terminada: ${n} ofertas fuera del catálogo.`))
      .catch((error: unknown) => worthLogging(error) && logger.error({ err: error }, "Fin de venta de ofertas fallido."));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
