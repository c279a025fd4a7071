import type { RefundRequiredSale } from "#contract/partner-responses";
import { desc, eq, sql } from "drizzle-orm";
import { fromCents } from "#rules/prices";
import { query, transactionWithRetry, type Database, type Executor } from "#api/db/client";
import { sales } from "#api/db/schema";
import { giveBack } from "./stock";
import { logger } from "#platform/logger.server";

/**
 * The buyer paid but cannot have the tickets (wrong amount, or sold out after the reservation
 * lapsed): the sale owes a refund. It holds no tickets from then on (a pending one gives them back
 * in the same transaction) and is logged; staff find them with refundRequiredSales.
 */
export async function markRefundRequired(db: Database, saleId: string, from: ("pending" | "expired" | "cancelled")[], reason: string) {
  const moved = await transactionWithRetry(db, async (tx) => {
    const [row] = await query<{ id: string; was: string }>(
      tx,
      sql`
      UPDATE sales s SET status = 'refund_required'
      FROM (SELECT id, status AS was FROM sales WHERE id = ${saleId} FOR UPDATE) old
      WHERE s.id = old.id AND old.was IN (${sql.join(
        from.map((f) => sql`${f}`),
        sql`, `,
      )})
      RETURNING s.id, old.was`,
    );
    // An expired or cancelled sale already gave its tickets back; a pending one does it now.
    if (row?.was === "pending") await giveBack(tx, [saleId], { keepApproved: true });
    return Boolean(row);
  });
  if (moved) logger.warn({ saleId, reason }, "Reembolso pendiente.");
}

/** A page of the sales that owe the buyer a refund, newest first, and how many there are: the staff's to-do list until the back office exists. */
export async function refundRequiredSales(
  db: Executor,
  page: { page: number; pageSize: number },
): Promise<{ count: number; results: RefundRequiredSale[] }> {
  const owing = eq(sales.status, "refund_required");
  const [[count], rows] = await Promise.all([
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(sales)
      .where(owing),
    db
      .select()
      .from(sales)
      .where(owing)
      .orderBy(desc(sales.createdAt), sales.id)
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
  ]);
  const results = rows.map((s) => ({
    sale_id: s.id,
    email: s.email,
    total: fromCents(s.totalCents),
    currency: s.currency,
    provider: s.provider,
    created_at: s.createdAt.toISOString(),
    paid_at: s.paidAt ? s.paidAt.toISOString() : null,
  }));
  return { count: Number(count?.n ?? 0), results };
}
