import { sql } from "drizzle-orm";
import { couponCode } from "#api/services/sales/coupon-code";
import { query, type Database, type Transaction } from "./client";
import { seedUuid } from "./seed";

// Demo buyers' stars for the first offers of the catalogue, so cards and offer pages show the
// average from the first start. Each rating belongs to a paid demo sale, with its coupon: ratings
// count only from buyers, and every count of sales counts coupons, in the demo too.
const DEMO_RATINGS: number[][] = [
  [5, 5, 4, 5, 4, 5],
  [4, 5, 4, 3],
  [5, 4, 5],
  [4, 4, 5, 3, 4],
  [3, 4, 4],
  [5, 5, 5, 4],
];

/** Words some demo buyers left with their stars (by offer, then buyer), so offer pages show reviews. */
const DEMO_COMMENTS: Record<string, string> = {
  "0:0": "Muy relajante y el personal, encantador. Repetiremos.",
  "0:2": "Bien en general, aunque a media tarde había bastante gente.",
  "1:1": "Todo como se describía y el canje del cupón fue inmediato.",
  "2:0": "Una experiencia redonda, muy recomendable para regalar.",
  "3:3": "Correcto, pero conviene reservar con varios días de antelación.",
};

/** The names the demo buyers gave at checkout, so «Ventas» greets them as it would real ones. */
const DEMO_BUYER_NAMES = ["Lucía Martín", "Javier Gómez", "Carmen Ruiz", "Pablo Navarro", "Elena Torres", "Diego Romero"];

/** A paid demo sale's coupons, one per ticket; none when the sale line already has them. */
async function demoCoupons(tx: Transaction, itemId: string, tickets: number) {
  const codes = Array.from({ length: tickets }, () => couponCode());
  await tx.execute(sql`
    INSERT INTO coupons (sale_item_id, code, created_at)
    SELECT ${itemId}, code, s.paid_at FROM unnest(${sql.param(codes)}::text[]) AS code
    JOIN sale_items si ON si.id = ${itemId} JOIN sales s ON s.id = si.sale_id
    WHERE NOT EXISTS (SELECT 1 FROM coupons WHERE sale_item_id = ${itemId})`);
}

/** Runs only right after the demo catalogue is loaded (never on a real shop's database). */
export async function seedDemoRatings(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    const targets = await query<{ id: string; option_id: string; price: string }>(
      tx,
      sql`
      SELECT o.id, p.id AS option_id, p.actual_price::text AS price FROM offers o
      JOIN LATERAL (SELECT id, actual_price FROM price_options WHERE offer_id = o.id ORDER BY position LIMIT 1) p ON true
      WHERE o.status = 'active' ORDER BY o.rank, o.id LIMIT ${DEMO_RATINGS.length}`,
    );
    let count = 0;
    for (const [i, offer] of targets.entries()) {
      for (const [j, stars] of DEMO_RATINGS[i].entries()) {
        const email = `comprador${j + 1}@demo.ofertas.es`;
        const saleId = seedUuid("demo-rating-sale", `${offer.id}:${j}`);
        const itemId = seedUuid("demo-rating-item", saleId);
        const cents = Math.round(Number(offer.price) * 100);
        const checkout = { email, user_fullname: DEMO_BUYER_NAMES[j % DEMO_BUYER_NAMES.length] };
        await tx.execute(sql`
          INSERT INTO sales (id, session_token, email, status, provider, total_cents, checkout_data, expires_at, paid_at, created_at)
          VALUES (${saleId}, ${`demo-${saleId}`}, ${email}, 'paid', 'sandbox', ${cents}, ${JSON.stringify(checkout)}::jsonb, now(), now() - interval '20 days', now() - interval '20 days')
          ON CONFLICT (id) DO NOTHING`);
        await tx.execute(sql`
          INSERT INTO sale_items (id, sale_id, offer_id, price_option_id, quantity, unit_price_cents, paid_unit_cents)
          VALUES (${itemId}, ${saleId}, ${offer.id}, ${offer.option_id}, 1, ${cents}, ${cents})
          ON CONFLICT (id) DO NOTHING`);
        await demoCoupons(tx, itemId, 1);
        await tx.execute(sql`
          INSERT INTO offer_feedback (offer_id, email, stars, comment, created_at, updated_at)
          VALUES (${offer.id}, ${email}, ${stars}, ${DEMO_COMMENTS[`${i}:${j}`] ?? ""}, now() - ${19 - j} * interval '1 day', now() - ${19 - j} * interval '1 day')
          ON CONFLICT (offer_id, email) DO NOTHING`);
        count++;
      }
    }
    return count;
  });
}

// Demo sales of the last days, so «Populares ahora» has something to show on a fresh demo shop:
// [catalogue position, tickets, days ago]. Offers of organisations with partner members are
// skipped, so the demo partner's sold counts stay those of the ratings above.
const DEMO_RECENT_SALES: [number, number, number][] = [
  [9, 6, 1],
  [14, 5, 2],
  [7, 4, 1],
  [19, 3, 3],
  [11, 2, 2],
  [16, 1, 4],
];

/** Runs only on a brand-new demo shop, after the demo accounts and partner (startup.ts). */
export async function seedDemoRecentSales(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    const targets = await query<{ id: string; option_id: string; price: string }>(
      tx,
      sql`
      SELECT o.id, p.id AS option_id, p.actual_price::text AS price FROM offers o
      JOIN LATERAL (SELECT id, actual_price FROM price_options WHERE offer_id = o.id ORDER BY position LIMIT 1) p ON true
      WHERE o.status = 'active' AND o.organization_id NOT IN (SELECT organization_id FROM organization_members)
      ORDER BY o.rank, o.id`,
    );
    let count = 0;
    for (const [position, tickets, daysAgo] of DEMO_RECENT_SALES) {
      const offer = targets[position];
      if (!offer) continue;
      const saleId = seedUuid("demo-recent-sale", offer.id);
      const itemId = seedUuid("demo-recent-item", saleId);
      const cents = Math.round(Number(offer.price) * 100);
      await tx.execute(sql`
        INSERT INTO sales (id, session_token, email, status, provider, total_cents, checkout_data, expires_at, paid_at, created_at)
        VALUES (${saleId}, ${`demo-${saleId}`}, ${`reciente${position}@demo.ofertas.es`}, 'paid', 'sandbox', ${cents * tickets}, '{}'::jsonb, now(),
          now() - make_interval(days => ${daysAgo}), now() - make_interval(days => ${daysAgo}))
        ON CONFLICT (id) DO NOTHING`);
      await tx.execute(sql`
        INSERT INTO sale_items (id, sale_id, offer_id, price_option_id, quantity, unit_price_cents, paid_unit_cents)
        VALUES (${itemId}, ${saleId}, ${offer.id}, ${offer.option_id}, ${tickets}, ${cents}, ${cents})
        ON CONFLICT (id) DO NOTHING`);
      await demoCoupons(tx, itemId, tickets);
      count++;
    }
    return count;
  });
}
