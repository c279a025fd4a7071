import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { OFFER_REVIEWS_SHOWN, type OfferDetail, type OfferReview, type OfferSummary } from "#contract/offers";
import { MIN_RATINGS_SHOWN } from "#contract/feedback";
import { query, type Executor, type Utf8Text } from "#api/db/client";
import { offers, organizations } from "#api/db/schema";
import { wholeNumber } from "./filters";
import { soldOfOffer } from "#api/services/coupon-facts";

/**
 * The cards of the offers whose ids `idArray` yields (a uuid[] expression), in its order, as one
 * JSON array (text, or NULL for none), built by the database's offer_cards() (migrations 0012 and
 * 0018): each card's kept head (offer, organization, images, rating) joined to its live price
 * options, planned once per connection, so a page costs one round trip and no per-row mapping in Node.
 */
export const cardsOf = (idArray: SQL, activeOnly = false): SQL =>
  sql`offer_cards(${idArray}, ${wholeNumber(MIN_RATINGS_SHOWN)}, ${sql.raw(String(activeOnly))})`;

/**
 * The cards of these offers as JSON (an array; UTF-8 bytes on PGlite, see UTF8_COLUMN), in the
 * order given; `activeOnly` skips offers no longer on sale.
 */
export async function cardsJson(db: Executor, ids: string[], activeOnly = false): Promise<Utf8Text> {
  if (ids.length === 0) return "[]";
  const [row] = await query<{ cards_utf8: Utf8Text | null }>(
    db,
    sql`SELECT ${cardsOf(sql`${sql.param(ids)}::uuid[]`, activeOnly)} AS cards_utf8`,
  );
  return row?.cards_utf8 ?? "[]";
}

/**
 * Cards the database wrote (offer_cards()) read back as values. They are not parsed here, on every
 * page: the API's tests parse every answer that carries them with the contract's OfferSummarySchema.
 */
export function cardsFrom(json: Utf8Text | string): OfferSummary[] {
  return JSON.parse(json.toString());
}

export async function summariesJson(db: Executor, ids: string[], activeOnly = false): Promise<OfferSummary[]> {
  return cardsFrom(await cardsJson(db, ids, activeOnly));
}

export async function getOffer(db: Executor, id: string): Promise<OfferDetail | null> {
  // The card and what only the offer's page adds, in one statement: on PGlite each statement is a
  // turn of its one thread, and two side by side cost the offer's page twice the turns.
  const [row] = await query<{
    card: string;
    description: string;
    conditions: string;
    email: string | null;
    phone: string | null;
    website: string | null;
    sold: number | string;
    org_average: number | string | null;
    org_count: number | string;
    reviews: OfferReview[] | string | null;
    sale_until: string | null;
    on_sale: boolean;
  }>(
    db,
    sql`SELECT ${cardsOf(sql`ARRAY[${offers.id}]`)} AS card, ${offers.description} AS description, ${offers.conditions} AS conditions,
               ${organizations.email} AS email, ${organizations.phone} AS phone, ${organizations.website} AS website,
               ${soldOfOffer(sql`${offers.id}`)} AS sold,
               org.average AS org_average, org.n AS org_count,
               ${offers.saleUntil}::text AS sale_until, ${onSaleNow(sql`${offers.saleUntil}`)} AS on_sale,
               (SELECT json_agg(json_build_object('stars', r.stars, 'comment', r.comment, 'date', r.at) ORDER BY r.at DESC)
                  FROM (SELECT f.stars, f.comment, f.updated_at AS at FROM offer_feedback f
                         WHERE f.offer_id = ${offers.id} AND btrim(f.comment) <> '' AND ${boughtBy(sql`f.offer_id`, sql`f.email`)}
                         ORDER BY f.updated_at DESC LIMIT ${wholeNumber(OFFER_REVIEWS_SHOWN)}) r) AS reviews
        FROM ${offers} JOIN ${organizations} ON ${organizations.id} = ${offers.organizationId}
        CROSS JOIN LATERAL (
          SELECT round(avg(f.stars)::numeric, 1) AS average, count(*) AS n FROM offer_feedback f JOIN offers o ON o.id = f.offer_id
          WHERE o.organization_id = ${offers.organizationId} AND ${boughtBy(sql`f.offer_id`, sql`f.email`)}) org
        WHERE ${offers.id} = ${id} AND ${offers.status} IN ('active', 'ended')`,
  );
  if (!row?.card) return null;
  const { card, description, conditions, sold, org_average, org_count, reviews, sale_until, on_sale, ...contact } = row;
  const [offer] = cardsFrom(card);
  const count = Number(org_count);
  const rating = count >= MIN_RATINGS_SHOWN && org_average !== null ? { average: Number(org_average), count } : null;
  const list = (typeof reviews === "string" ? JSON.parse(reviews) : (reviews ?? [])) as OfferReview[];
  return {
    ...offer,
    description,
    conditions,
    organization: { ...offer.organization, ...contact, rating },
    sold_count: Number(sold),
    reviews: list.map((r) => ({ stars: Number(r.stars), comment: r.comment, date: new Date(r.date).toISOString() })),
    sale_until,
    on_sale: Boolean(on_sale),
  };
}

/** Whether an offer whose sale ends on `saleUntil` (a date column) can be bought now: until 23:59 of that day in Madrid (rules/sale-end.ts). */
export const onSaleNow = (saleUntil: SQL): SQL => sql`(${saleUntil} IS NULL OR ${saleUntil} >= (now() AT TIME ZONE 'Europe/Madrid')::date)`;

/** Only a rating given by an address that paid for that offer counts (as submitFeedback requires). */
const boughtBy = (offerId: SQL, email: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM sale_items si JOIN sales s ON s.id = si.sale_id
              WHERE si.offer_id = ${offerId} AND lower(s.email) = lower(${email}) AND s.status = 'paid')`;

/** The offers asked for, in the order asked; unknown or inactive ones are skipped. */
export async function selectedOffers(db: Executor, ids: string[]): Promise<OfferSummary[]> {
  return summariesJson(db, [...new Set(ids)], true);
}

/**
 * Other active offers, nearest first, by equirectangular distance (plenty at city scale): degrees
 * of longitude shrink by the cosine of this offer's latitude. The index (migration 0025) hands out
 * offers by plain degrees, which overstate an east-west distance by at most 1/cos: a batch of
 * candidates ranked here is the answer once the last of them, so shrunk, is farther than the
 * `limit`-th; else a batch twice as large is asked for.
 */
export async function nearbyOffers(db: Executor, id: string, limit: number): Promise<OfferSummary[] | null> {
  const [origin] = await db
    .select({ latitude: offers.latitude, longitude: offers.longitude })
    .from(offers)
    .where(and(eq(offers.id, id), inArray(offers.status, ["active", "ended"])));
  if (!origin) return null;
  const { latitude, longitude } = origin;
  if (latitude === null || longitude === null) return [];
  const shrink = Math.cos((latitude * Math.PI) / 180) ** 2;
  for (let batch = limit * 4; ; batch *= 2) {
    const rows = await db
      .select({ id: offers.id, rank: offers.rank, latitude: offers.latitude, longitude: offers.longitude })
      .from(offers)
      .where(
        and(
          eq(offers.status, "active"),
          sql`${offers.id} <> ${id}`,
          sql`${offers.latitude} IS NOT NULL AND ${offers.longitude} IS NOT NULL`,
        ),
      )
      .orderBy(sql`point(${offers.longitude}, ${offers.latitude}) <-> point(${longitude}::float8, ${latitude}::float8)`)
      .limit(batch);
    const candidates = rows.map((r) => {
      const dLat = r.latitude! - latitude;
      const dLon = r.longitude! - longitude;
      return { id: r.id, rank: r.rank, plain: dLat ** 2 + dLon ** 2, distance: dLat ** 2 + dLon ** 2 * shrink };
    });
    const nearest = candidates.sort((a, b) => a.distance - b.distance || a.rank - b.rank).slice(0, limit);
    const farthest = Math.max(0, ...candidates.map((c) => c.plain));
    // An offer outside the batch is at least `farthest` away in plain degrees, so at least
    // farthest × shrink by the shop's distance.
    if (rows.length < batch || farthest * shrink > nearest[limit - 1].distance) {
      return summariesJson(
        db,
        nearest.map((c) => c.id),
      );
    }
  }
}
