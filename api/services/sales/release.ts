import { sql } from "drizzle-orm";
import { query, transactionWithRetry, type Database, type Transaction } from "#api/db/client";
import { giveBack } from "./stock";

/**
 * Gives back the tickets and promo-code uses of a pending sale. The status change is the guard:
 * only the caller whose update moved the sale out of "pending" releases it, so a sweep on several
 * processes, a cancel and a webhook can race without giving stock back twice.
 */
export async function releaseSale(db: Database, saleId: string, status: "cancelled" | "declined" | "expired"): Promise<boolean> {
  return transactionWithRetry(db, async (tx: Transaction) => {
    const moved = await query(tx, sql`UPDATE sales SET status = ${status} WHERE id = ${saleId} AND status = 'pending' RETURNING id`);
    if (moved.length === 0) return false;
    await giveBack(tx, [saleId]);
    return true;
  });
}
