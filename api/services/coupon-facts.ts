import { sql, type SQL } from "drizzle-orm";
import { query, type Executor } from "#api/db/client";

/**
 * What counts as sold, refunded and redeemed, written once: «Mis ofertas», «Ventas», the public
 * «N compradas» and the statements all count coupons through these, so they agree (ARCHITECTURE:
 * «every count a partner sees comes from one query per fact»).
 *
 * A coupon exists once its sale is paid (capture writes one per ticket), so coupons are what is
 * counted, never sale lines: a sale line without coupons is not a sale anyone can use.
 */

/** Coupons of paid sales, from `coupons` (rows named `c`), with their sale line (`si`), sale (`s`) and offer (`o`). */
export function paidCouponsFrom(coupons: SQL): SQL {
  return sql`${coupons}
    JOIN sale_items si ON si.id = c.sale_item_id
    JOIN sales s ON s.id = si.sale_id AND s.paid_at IS NOT NULL
    JOIN offers o ON o.id = si.offer_id`;
}

/** Every coupon of a paid sale. */
export const PAID_COUPONS = paidCouponsFrom(sql`coupons c`);

/**
 * Coupons of paid sales read from `coupons` alone: each carries its sale's organisation, offer,
 * moment paid and price (migration 0045), so a month of one partner is an index range.
 */
export const PAID_COUPON_FACTS = sql`coupons c`;
export const IS_PAID = sql`c.paid_at IS NOT NULL`;

/**
 * Refunded: marked so. A sale that stops being paid marks its coupons (0040), and a coupon written
 * for a sale no longer paid is marked from the start (0045), so the coupon alone says it.
 */
export const IS_REFUNDED = sql`(c.refunded_at IS NOT NULL)`;
/** Sold and still the buyer's: what «vendidas» and «N compradas» count. */
export const IS_SOLD = sql`NOT ${IS_REFUNDED}`;
export const IS_REDEEMED = sql`c.redeemed_at IS NOT NULL`;

/** Coupons sold (not refunded) per price option of these offers: «Mis ofertas». */
export async function soldByOption(db: Executor, offerIds: string[]): Promise<Map<string, number>> {
  if (offerIds.length === 0) return new Map();
  const rows = await query<{ price_option_id: string; n: number }>(
    db,
    sql`SELECT si.price_option_id, count(*)::int AS n FROM ${PAID_COUPONS}
        WHERE si.offer_id = ANY(${sql.param(offerIds)}::uuid[]) AND ${IS_SOLD}
        GROUP BY si.price_option_id`,
  );
  return new Map(rows.map((r) => [r.price_option_id, Number(r.n)]));
}

/** Tickets held by sales not paid yet (the buyer is at the payment page), per price option of these offers. */
export async function reservedByOption(db: Executor, offerIds: string[]): Promise<Map<string, number>> {
  if (offerIds.length === 0) return new Map();
  const rows = await query<{ price_option_id: string; n: number }>(
    db,
    sql`SELECT si.price_option_id, sum(si.quantity)::int AS n FROM sale_items si JOIN sales s ON s.id = si.sale_id
        WHERE si.offer_id = ANY(${sql.param(offerIds)}::uuid[]) AND s.status = 'pending'
        GROUP BY si.price_option_id`,
  );
  return new Map(rows.map((r) => [r.price_option_id, Number(r.n)]));
}

/** Coupons sold (not refunded) of one offer, as a subquery: the public «N compradas». */
export function soldOfOffer(offerId: SQL): SQL {
  return sql`(SELECT count(*) FROM ${PAID_COUPONS} WHERE si.offer_id = ${offerId} AND ${IS_SOLD})`;
}

/**
 * Refunds coupons from now on: the money side of a refund, called in the transaction that gives
 * the buyer's money back. A redeemed coupon is left alone unless `redeemedToo` (staff refunding a
 * service that was not given): the conditional update is what makes a refund and a redemption at
 * the same instant end as one of the two. Answers the ids it refunded.
 */
export async function markCouponsRefunded(db: Executor, couponIds: string[], { redeemedToo = false } = {}): Promise<string[]> {
  if (couponIds.length === 0) return [];
  const rows = await query<{ id: string }>(
    db,
    sql`UPDATE coupons SET refunded_at = now()
        WHERE id = ANY(${sql.param(couponIds)}::uuid[]) AND refunded_at IS NULL ${redeemedToo ? sql`` : sql`AND redeemed_at IS NULL`}
        RETURNING id`,
  );
  return rows.map((r) => r.id);
}
