/**
 * The steps every sale flow shares over tickets: what a buyer holds, the row locks on stock, and
 * giving tickets and promo-code uses back. Lock order everywhere: stock rows by id, then promo
 * codes by id.
 */
import { sql } from "drizzle-orm";
import type { SaleLine } from "#contract/sales";
import { query, type Executor } from "#api/db/client";

/** A line of a checkout session as validate stored it, with the prices it computed. */
export type StoredLine = SaleLine & { offer_uuid: string; slot_id: string | null; unit_cents: number; paid_unit_cents: number };

/** Tickets of a price option that this email already holds, paid or reserved. */
export async function ticketsHeld(db: Executor, priceOptionId: string, email: string): Promise<number> {
  const rows = await query<{ n: number }>(
    db,
    sql`
    SELECT coalesce(sum(si.quantity), 0)::int AS n
    FROM sale_items si JOIN sales s ON s.id = si.sale_id
    WHERE si.price_option_id = ${priceOptionId} AND lower(s.email) = lower(${email})
      AND s.status IN ('pending', 'paid')`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** Row locks on these price options, always in id order (see createSale). */
export async function lockPriceOptions(tx: Executor, optionIds: string[]) {
  const ids = [...new Set(optionIds)].sort();
  if (ids.length === 0) return;
  await tx.execute(
    sql`SELECT id FROM price_options WHERE id IN (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) ORDER BY id FOR UPDATE`,
  );
}

/**
 * keepApproved: the sweep leaves approved payments alone. The buyer has paid (for the sandbox the
 * transaction row is the bank), so a late capture must still find it and take the tickets again.
 */
export async function giveBack(tx: Executor, saleIds: string[], { keepApproved = false } = {}) {
  if (saleIds.length === 0) return;
  const ids = sql.join(
    saleIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  // Same lock order as createSale: stock rows by id, then promo codes by id.
  await tx.execute(
    sql`SELECT id FROM price_options WHERE id IN (SELECT price_option_id FROM sale_items WHERE sale_id IN (${ids})) ORDER BY id FOR UPDATE`,
  );
  await tx.execute(
    sql`SELECT id FROM promo_codes WHERE id IN (SELECT promo_code_id FROM promo_code_uses WHERE sale_id IN (${ids})) ORDER BY id FOR UPDATE`,
  );
  await tx.execute(sql`
    UPDATE price_options p SET available = p.available + t.quantity
    FROM (SELECT price_option_id, sum(quantity)::int AS quantity FROM sale_items WHERE sale_id IN (${ids}) GROUP BY price_option_id) t
    WHERE p.id = t.price_option_id`);
  await tx.execute(sql`
    UPDATE promo_codes c SET used_count = greatest(0, c.used_count - t.n)
    FROM (SELECT promo_code_id, count(*)::int AS n FROM promo_code_uses WHERE sale_id IN (${ids}) GROUP BY promo_code_id) t
    WHERE c.id = t.promo_code_id`);
  await tx.execute(sql`DELETE FROM promo_code_uses WHERE sale_id IN (${ids})`);
  const open = keepApproved ? sql`('created')` : sql`('created', 'approved')`;
  await tx.execute(
    sql`UPDATE payment_transactions SET status = 'cancelled', updated_at = now() WHERE sale_id IN (${ids}) AND status IN ${open}`,
  );
}
