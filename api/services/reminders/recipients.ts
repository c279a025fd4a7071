import { sql } from "drizzle-orm";
import { query, type Executor } from "#api/db/client";

/**
 * Who gets the reminders of a sale item's coupons, by item: the buyer's address on the sale. A
 * coupon given as a gift, with its recipient's address, is the recipient's to use and to be
 * reminded of: that lookup belongs here, and only here, so the pass and the mails follow it.
 */
export async function reminderRecipients(db: Executor, itemIds: string[]): Promise<Map<string, string>> {
  if (!itemIds.length) return new Map();
  const rows = await query<{ item_id: string; email: string }>(
    db,
    sql`
    SELECT si.id AS item_id, lower(s.email) AS email
    FROM unnest(${sql.param(itemIds)}::uuid[]) AS wanted(id)
    JOIN sale_items si ON si.id = wanted.id
    JOIN sales s ON s.id = si.sale_id`,
  );
  return new Map(rows.map((r) => [r.item_id, r.email]));
}
