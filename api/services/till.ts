import { sql } from "drizzle-orm";
import type { FoundCoupon, TodayRedemptions } from "#contract/till";
import { buyerFirstName } from "#rules/buyer";
import { query, type Executor } from "#api/db/client";
import { IS_REFUNDED, PAID_COUPONS } from "#api/services/coupon-facts";
import { inScope, type Scope } from "#api/services/access";

/** Midnight in Madrid, where the counter's day is. */
const TODAY_STARTS = sql`(date_trunc('day', now() AT TIME ZONE 'Europe/Madrid') AT TIME ZONE 'Europe/Madrid')`;

/** GET /sales/today/: the coupons redeemed today at this partner's tills, newest first. */
export async function redeemedToday(db: Executor, scope: Scope): Promise<TodayRedemptions> {
  const rows = await query<{
    id: string;
    code: string;
    redeemed_at: Date | string;
    offer_title: string;
    option_title: string;
    member_email: string | null;
  }>(
    db,
    sql`SELECT c.id, c.code, c.redeemed_at, o.title AS offer_title, p.title AS option_title, m.email AS member_email
        FROM ${PAID_COUPONS}
        JOIN price_options p ON p.id = si.price_option_id
        LEFT JOIN users m ON m.id = c.redeemed_by
        WHERE ${inScope(scope, sql`o.organization_id`)} AND c.redeemed_at >= ${TODAY_STARTS}
        ORDER BY c.redeemed_at DESC`,
  );
  return {
    count: rows.length,
    results: rows.map((r) => ({
      uuid: r.id,
      redeemed_at: new Date(r.redeemed_at).toISOString(),
      code_last4: r.code.slice(-4),
      offer_title: r.offer_title,
      option_title: r.option_title,
      member_email: r.member_email,
    })),
  };
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * GET /sales/search/?q=: a buyer's coupons still to redeem, found by their name or email when the
 * code is lost. Only this partner's offers; the answer names the buyer by first name, as the till does.
 */
export async function findUnredeemed(db: Executor, scope: Scope, text: string): Promise<FoundCoupon[]> {
  const like = likePattern(text);
  const rows = await query<{
    id: string;
    code: string;
    offer_title: string;
    option_title: string;
    fullname: string | null;
    first_name: string | null;
  }>(
    db,
    sql`SELECT c.id, c.code, o.title AS offer_title, p.title AS option_title,
               s.checkout_data->>'user_fullname' AS fullname, u.first_name
        FROM ${PAID_COUPONS}
        JOIN price_options p ON p.id = si.price_option_id
        LEFT JOIN users u ON u.id = s.user_id
        WHERE ${inScope(scope, sql`o.organization_id`)} AND c.redeemed_at IS NULL AND NOT ${IS_REFUNDED}
          AND (o.valid_until IS NULL OR o.valid_until >= (now() AT TIME ZONE 'Europe/Madrid')::date)
          AND (s.email ILIKE ${like} OR s.checkout_data->>'user_fullname' ILIKE ${like}
               OR (u.first_name || ' ' || u.last_name) ILIKE ${like})
        ORDER BY o.title, c.code LIMIT 20`,
  );
  return rows.map((r) => ({
    uuid: r.id,
    code: r.code,
    offer_title: r.offer_title,
    option_title: r.option_title,
    buyer_first_name: buyerFirstName(r.fullname, r.first_name),
  }));
}
