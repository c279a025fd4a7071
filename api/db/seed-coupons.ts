import { sql } from "drizzle-orm";
import { query, type Database } from "./client";

/** Sale lines per transaction. */
const CHUNK = 50_000;

/** Hex digits spelled in the coupon alphabet (no 0, 1, I, O), so the till's verify accepts the codes. */
const HEX = "0123456789ABCDEF";
const HEX_IN_ALPHABET = "ACDEFGHJKLMNPQRS";

/**
 * The sale's facts a coupon carries (migration 0045), written here with the coupon: the trigger
 * that copies them does not fire while the foreign-key triggers are left out.
 */
const SALE_FACTS = sql.raw("organization_id, offer_id, paid_at, paid_unit_cents, refunded_at");

/**
 * Paid sales and their coupons over the large catalogue (seed-large.ts, seeded with `spreadFrom`
 * so that the offers' validity ends on every day of 14 months), for measuring the reminder pass:
 * npm run seed:large -- --coupons N, the bench, the plan check. `total` coupons, two per sale
 * line and two lines per sale. Deterministic like the catalogue (ids are md5 of the number): line
 * g buys offer 1 + g·104729 mod `offers`, its sale was paid (s·7919 mod 365) days before `now`,
 * one sale in twenty is being refunded, and three coupons in ten are redeemed. Generated inside
 * the database; running it again tops up to `total`.
 *
 * The rows reference each other by construction, so the foreign-key triggers are left out while
 * they are written (session_replication_role = replica, as pg_restore --disable-triggers does): the
 * embedded database wrote three times fewer rows per second with them.
 */
export async function seedCoupons(
  db: Database,
  { offers, total, now = new Date(), log = () => {} }: { offers: number; total: number; now?: Date; log?: (line: string) => void },
): Promise<number> {
  // Whole sales are written with their lines in one transaction: the sales there are say where to go on.
  const [done] = await query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM sales WHERE session_token LIKE 'large-sale-%'`);
  const lines = 2 * Math.ceil(total / 4);
  for (let from = 2 * Number(done.n) + 1; from <= lines; from += CHUNK) {
    const to = Math.min(lines, from + CHUNK - 1);
    await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      // Sale s holds lines 2s − 1 and 2s.
      await tx.execute(sql`
        INSERT INTO sales (id, session_token, email, status, provider, total_cents, checkout_data, created_at, expires_at, paid_at)
        SELECT md5('ofertas:large:sale:' || s)::uuid, 'large-sale-' || s, 'comprador' || (s % 50000) || '@ejemplo.es',
               CASE WHEN s % 20 = 0 THEN 'refund_required' ELSE 'paid' END, 'sandbox', 8000, '{}'::jsonb,
               p.at, p.at + interval '15 minutes', p.at
        FROM generate_series((${from}::int + 1) / 2, (${to}::int + 1) / 2) AS s
        CROSS JOIN LATERAL (SELECT ${now.toISOString()}::timestamptz - ((s::bigint * 7919) % 365) * interval '1 day'
                                   - (s % 86400) * interval '1 second' AS at) p`);
      await tx.execute(sql`
        INSERT INTO sale_items (id, sale_id, offer_id, price_option_id, quantity, unit_price_cents, paid_unit_cents)
        SELECT md5('ofertas:large:item:' || g)::uuid, md5('ofertas:large:sale:' || ((g + 1) / 2))::uuid, o.id, po.id, 2, 2000, 2000
        FROM generate_series(${from}::int, ${to}::int) AS g
        CROSS JOIN LATERAL (SELECT md5('ofertas:large:offer:' || (1 + (g::bigint * 104729) % ${offers}))::uuid AS id) o
        CROSS JOIN LATERAL (SELECT id FROM price_options WHERE offer_id = o.id ORDER BY position LIMIT 1) po`);
      await tx.execute(sql`
        INSERT INTO coupons (id, sale_item_id, code, created_at, redeemed_at, ${SALE_FACTS})
        SELECT md5('ofertas:large:coupon:' || g || ':' || k)::uuid, si.id,
               substr(c.x, 1, 4) || '-' || substr(c.x, 5, 4) || '-' || substr(c.x, 9, 4),
               s.paid_at, CASE WHEN (g + k) % 10 < 3 THEN s.paid_at + interval '1 day' END,
               o.organization_id, o.id, s.paid_at, si.paid_unit_cents, CASE WHEN s.status <> 'paid' THEN s.paid_at END
        FROM generate_series(${from}::int, ${to}::int) AS g
        CROSS JOIN generate_series(0, 1) AS k
        JOIN sale_items si ON si.id = md5('ofertas:large:item:' || g)::uuid
        JOIN sales s ON s.id = si.sale_id
        JOIN offers o ON o.id = si.offer_id
        CROSS JOIN LATERAL (SELECT 'L' || translate(lpad(upper(to_hex(g::bigint * 2 + k)), 11, '0'), ${HEX}, ${HEX_IN_ALPHABET}) AS x) c`);
    });
    log(`${Math.min(total, to * 2)} / ${total} cupones`);
  }
  for (const table of ["sales", "sale_items", "coupons"]) await db.execute(sql.raw(`VACUUM ANALYZE ${table}`));
  const [row] = await query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM coupons`);
  return Number(row.n);
}

/**
 * A busy partner's month on top of seedCoupons: `total` coupons of offers of large organisation
 * `organization` (1 … `partners`, as seedLarge shared `offers` among them), paid across [start, end), two coupons per sale, none
 * redeemed yet. For the «Ventas» page and the till at the size of a busy venue (the bench's
 * `statements` and `till` sections). Deterministic; running it again tops up to `total`.
 */
export async function seedBusyMonth(
  db: Database,
  {
    organization,
    start,
    end,
    total,
    offers,
    partners,
  }: { organization: number; start: Date; end: Date; total: number; offers: number; partners: number },
): Promise<number> {
  const tag = `busy-${organization}-${start.toISOString().slice(0, 7)}`;
  const [done] = await query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM sales WHERE session_token LIKE ${`${tag}-%`}`);
  const sales = Math.ceil(total / 2);
  const seconds = Math.floor((end.getTime() - start.getTime()) / 1000);
  // The organisation's offers: those the large seed gave it (offer g belongs to 1 + g mod partners).
  const owned = Math.floor(offers / partners);
  for (let from = Number(done.n) + 1; from <= sales; from += CHUNK) {
    const to = Math.min(sales, from + CHUNK - 1);
    await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.execute(sql`
        INSERT INTO sales (id, session_token, email, status, provider, total_cents, checkout_data, created_at, expires_at, paid_at)
        SELECT md5('ofertas:' || ${tag} || ':sale:' || s)::uuid, ${tag} || '-' || s, 'comprador' || (s % 50000) || '@ejemplo.es',
               'paid', 'sandbox', 4000, '{}'::jsonb, p.at, p.at + interval '15 minutes', p.at
        FROM generate_series(${from}::int, ${to}::int) AS s
        CROSS JOIN LATERAL (SELECT ${start.toISOString()}::timestamptz + ((s::bigint * 7919) % ${seconds}) * interval '1 second' AS at) p`);
      // Offer k·partners + organization − 1 (k ≥ 1) is one of the organisation's.
      await tx.execute(sql`
        INSERT INTO sale_items (id, sale_id, offer_id, price_option_id, quantity, unit_price_cents, paid_unit_cents)
        SELECT md5('ofertas:' || ${tag} || ':item:' || s)::uuid, md5('ofertas:' || ${tag} || ':sale:' || s)::uuid, o.id, po.id, 2, 2000, 2000
        FROM generate_series(${from}::int, ${to}::int) AS s
        CROSS JOIN LATERAL (SELECT md5('ofertas:large:offer:' || ((1 + s % ${Math.max(1, owned - 1)}) * ${partners} + ${organization} - 1))::uuid AS id) o
        CROSS JOIN LATERAL (SELECT id FROM price_options WHERE offer_id = o.id ORDER BY position LIMIT 1) po`);
      await tx.execute(sql`
        INSERT INTO coupons (id, sale_item_id, code, created_at, ${SALE_FACTS})
        SELECT md5('ofertas:' || ${tag} || ':coupon:' || s || ':' || k)::uuid, si.id,
               substr(c.x, 1, 4) || '-' || substr(c.x, 5, 4) || '-' || substr(c.x, 9, 4), p.at,
               o.organization_id, o.id, p.at, si.paid_unit_cents, NULL::timestamptz
        FROM generate_series(${from}::int, ${to}::int) AS s
        CROSS JOIN generate_series(0, 1) AS k
        JOIN sale_items si ON si.id = md5('ofertas:' || ${tag} || ':item:' || s)::uuid
        JOIN offers o ON o.id = si.offer_id
        CROSS JOIN LATERAL (SELECT ${start.toISOString()}::timestamptz + ((s::bigint * 7919) % ${seconds}) * interval '1 second' AS at) p
        CROSS JOIN LATERAL (SELECT 'B' || translate(lpad(upper(to_hex(${organization}::bigint * 100000000 + s * 2 + k)), 11, '0'),
                                                    ${HEX}, ${HEX_IN_ALPHABET}) AS x) c`);
    });
  }
  for (const table of ["sales", "sale_items", "coupons"]) await db.execute(sql.raw(`VACUUM ANALYZE ${table}`));
  return 2 * sales;
}
