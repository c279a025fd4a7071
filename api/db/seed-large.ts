import { sql } from "drizzle-orm";
import { PROVINCES } from "#rules/regions";
import { query, type Database } from "./client";
import { seedIfEmpty, seedUuid } from "./seed";
import { SEED_OFFERS } from "./seed-data";

const CHUNK = 10_000;
/** Organisations the offers are shared among, unless told (the statements bench asks for 1,000). */
const ORGANIZATIONS = 2_000;

/**
 * A large, deterministic catalogue for measuring (npm run seed:large, the bench, CI's plan check).
 * Offer g copies the words, pictures and price options of demo offer (g·7 mod 60) into province
 * (g + g div 60) mod 50 (the shift puts every demo offer in every province, so a category in a
 * region holds hundreds of offers, as in a real shop; g mod 50 alone left some pairs with one), so
 * titles are real shop titles, every category and province appears, and the same
 * count always gives the same rows (ids are md5 of the number). Everything is generated inside the
 * database with generate_series: no rows travel from Node, which keeps 100,000 offers to seconds.
 * Running it again tops the catalogue up to the number asked (existing rows are kept).
 */
export async function seedLarge(
  db: Database,
  total: number,
  log: (line: string) => void = () => {},
  /**
   * Spread the validity: offer g ends on `spreadFrom` − 60 + (g·7907 mod 425) days, one date per
   * offer across 14 months, instead of its demo offer's date (seed-coupons.ts, for the reminders).
   */
  { spreadFrom, organizations = ORGANIZATIONS }: { spreadFrom?: string; organizations?: number } = {},
): Promise<number> {
  await seedIfEmpty(db);
  const templates = SEED_OFFERS.map((o) => seedUuid("offer", o.key));
  const provinces = [...PROVINCES];
  await db.execute(sql`
    INSERT INTO organizations (id, name, email, phone, website)
    SELECT md5('ofertas:large:org:' || g)::uuid,
           (${sql.param(SEED_OFFERS.map((o) => o.organization.name))}::text[])[1 + g % ${SEED_OFFERS.length}] || ' ' || (${sql.param(provinces)}::text[])[1 + g % ${provinces.length}],
           'negocio' || g || '@ejemplo.es', '+34 600 ' || lpad((g % 1000000)::text, 6, '0'), NULL
    FROM generate_series(1, ${organizations}::int) AS g
    ON CONFLICT (id) DO NOTHING`);
  for (let from = 1; from <= total; from += CHUNK) {
    const to = Math.min(total, from + CHUNK - 1);
    await db.transaction(async (tx) => {
      // t: the demo offer this one copies; p: its province.
      await tx.execute(sql`
        INSERT INTO offers (id, organization_id, title, summary, description, conditions, category, province, address,
                            latitude, longitude, offer_type, valid_from, valid_until, status, rank, created_at)
        SELECT md5('ofertas:large:offer:' || g)::uuid,
               md5('ofertas:large:org:' || (1 + g % ${organizations}::int))::uuid,
               t.title || CASE WHEN g % 3 = 0 THEN ' en ' || p.name ELSE '' END,
               t.summary, t.description, t.conditions, t.category, p.name, t.address,
               t.latitude + ((g % 97) - 48) * 0.002, t.longitude + ((g % 89) - 44) * 0.002,
               t.offer_type, t.valid_from,
               coalesce(${spreadFrom ?? null}::date - 60 + ((g::bigint * 7907) % 425)::int, t.valid_until), 'active',
               1000 + (g * 7919) % 100000, timestamptz '2026-01-01 00:00:00+00' - g * interval '1 minute'
        FROM generate_series(${from}::int, ${to}::int) AS g
        JOIN offers t ON t.id = (${sql.param(templates)}::uuid[])[1 + (g * 7) % ${templates.length}]
        CROSS JOIN LATERAL (SELECT (${sql.param(provinces)}::text[])[1 + (g + g / ${templates.length}) % ${provinces.length}] AS name) p
        ON CONFLICT (id) DO NOTHING`);
      await tx.execute(sql`
        INSERT INTO offer_images (offer_id, image_url, cover, logo, width, height, alt, position, variants)
        SELECT md5('ofertas:large:offer:' || g)::uuid, i.image_url, i.cover, i.logo, i.width, i.height, i.alt, i.position, i.variants
        FROM generate_series(${from}::int, ${to}::int) AS g
        JOIN offer_images i ON i.offer_id = (${sql.param(templates)}::uuid[])[1 + (g * 7) % ${templates.length}]
        WHERE NOT EXISTS (SELECT 1 FROM offer_images x WHERE x.offer_id = md5('ofertas:large:offer:' || g)::uuid)`);
      await tx.execute(sql`
        INSERT INTO price_options (id, offer_id, title, actual_price, regular_price, available, per_customer, position)
        SELECT md5('ofertas:large:price:' || g || ':' || o.position)::uuid, md5('ofertas:large:offer:' || g)::uuid,
               o.title, o.actual_price, o.regular_price, 1000, o.per_customer, o.position
        FROM generate_series(${from}::int, ${to}::int) AS g
        JOIN price_options o ON o.offer_id = (${sql.param(templates)}::uuid[])[1 + (g * 7) % ${templates.length}]
        ON CONFLICT (id) DO NOTHING`);
    });
    log(`${to} / ${total}`);
  }
  // Fresh statistics for the planner, and a visibility map so listings use index-only scans.
  await db.execute(sql`VACUUM ANALYZE offers`);
  await db.execute(sql`VACUUM ANALYZE offer_images`);
  await db.execute(sql`VACUUM ANALYZE price_options`);
  // The vocabulary filled by the offers' triggers: without its statistics the planner guesses it tiny.
  await db.execute(sql`VACUUM ANALYZE search_words`);
  const [row] = await query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM offers WHERE status = 'active'`);
  return Number(row.n);
}
