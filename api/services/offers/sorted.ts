import { sql, type SQL } from "drizzle-orm";
import { MIN_RATINGS_SHOWN } from "#contract/feedback";
import type { Sort } from "#rules/listing-order";
import type { Place } from "#rules/places";
import { searchTerms } from "#rules/search";
import { query, type Database, type Utf8Text } from "#api/db/client";
import { offers } from "#api/db/schema";
import { cardsOf } from "./cards";
import { everyWord } from "./search";
import { filterWhere, ORDER, wholeNumber, type OfferFilters } from "./filters";

/** «Ordenar» other than the recommended order, and the price range (rules/listing-order.ts). */
export type Ordering = { sort: Sort; priceMin?: number; priceMax?: number; near?: Place };

/** Whether a listing needs this path: the recommended order without a price range has its own, indexed one (listings.ts). */
export const reordered = (o: Ordering) => o.sort !== "recommended" || o.priceMin !== undefined || o.priceMax !== undefined;

/**
 * The key of each order; ties keep the catalogue's order. Price: the card's price (its cheapest
 * option on sale, else its cheapest), cheapest first. Discount: that option's, largest first.
 * Valoración: the rating cards show (MIN_RATINGS_SHOWN or more), best first, unrated last.
 * Cerca de mí: the distance as rules/places.ts measures it, offers without a place last.
 */
function sortKey(o: Ordering): SQL {
  switch (o.sort) {
    case "price":
      return sql`m.price`;
    case "discount":
      return sql`m.discount DESC NULLS LAST`;
    case "rating":
      return sql`m.rating DESC NULLS LAST, m.rating_count DESC`;
    case "nearby": {
      const p = o.near!;
      const shrink = Math.cos((p.latitude * Math.PI) / 180);
      return sql`(${offers.latitude} - ${p.latitude}::float8) ^ 2 + ((${offers.longitude} - ${p.longitude}::float8) * ${shrink}::float8) ^ 2 NULLS LAST`;
    }
    default:
      return sql`${offers.rank}`;
  }
}

/**
 * A listing page in another order or within a price range. Each offer's card price is worked out
 * from its options; unlike the recommended order, no index hands the page out: the matching
 * offers are all read and sorted, which a category or province keeps to a few thousand.
 */
export async function reorderedPage(
  db: Database,
  filters: OfferFilters,
  ordering: Ordering,
  page: { limit: number; offset: number },
): Promise<{ count: number; resultsJson: Utf8Text }> {
  const where: SQL[] = [filterWhere(filters)];
  const terms = filters.search ? searchTerms(filters.search) : [];
  if (filters.search && terms.length === 0) return { count: 0, resultsJson: "[]" };
  if (terms.length) where.push(sql`${offers.searchVector} @@ to_tsquery('simple', ${everyWord(terms)})`);
  const range: SQL[] = [];
  if (ordering.priceMin !== undefined) range.push(sql`m.price >= ${ordering.priceMin}::numeric`);
  if (ordering.priceMax !== undefined) range.push(sql`m.price <= ${ordering.priceMax}::numeric`);
  const read = (limit: number, offset: number) =>
    query<{ n: number; cards_utf8: Utf8Text | null }>(
      db,
      sql`
    WITH found AS MATERIALIZED (
      SELECT ${offers.id} AS id, count(*) OVER ()::int AS total, row_number() OVER (ORDER BY ${sortKey(ordering)}, ${ORDER}) AS pos
      FROM ${offers}
      CROSS JOIN LATERAL (
        SELECT p.actual_price AS price,
               CASE WHEN p.regular_price > p.actual_price THEN 1 - p.actual_price / p.regular_price END AS discount,
               CASE WHEN h.rating_count >= ${wholeNumber(MIN_RATINGS_SHOWN)} THEN h.rating_average END AS rating,
               coalesce(h.rating_count, 0) AS rating_count
        FROM (SELECT 1) one
        LEFT JOIN LATERAL (SELECT actual_price, regular_price FROM price_options
                           WHERE offer_id = ${offers.id} ORDER BY (available > 0) DESC, actual_price LIMIT 1) p ON true
        LEFT JOIN offer_card_heads h ON h.offer_id = ${offers.id}
      ) m
      WHERE ${sql.join(where, sql` AND `)}${range.length ? sql` AND ${sql.join(range, sql` AND `)}` : sql``}
      ORDER BY pos
      LIMIT ${wholeNumber(limit)} OFFSET ${wholeNumber(offset)}
    )
    SELECT coalesce((SELECT max(total) FROM found), 0) AS n,
           ${cardsOf(sql`ARRAY(SELECT id FROM found ORDER BY pos)`)} AS cards_utf8`,
    );
  let [row] = await read(page.limit, page.offset);
  // A page past the end reads no row, so no count: the count alone, from the first.
  if (!row?.n && page.offset > 0) row = { n: (await read(1, 0))[0]?.n ?? 0, cards_utf8: "[]" };
  return { count: Number(row?.n ?? 0), resultsJson: row?.cards_utf8 ?? "[]" };
}
