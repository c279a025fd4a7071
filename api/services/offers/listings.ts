import { sql, type SQL } from "drizzle-orm";
import { POPULAR_DAYS } from "#rules/constants";
import { Recent } from "#platform/recent";
import { searchTerms } from "#rules/search";
import type { OfferSummary } from "#contract/offers";
import { query, type Database, type Executor, type Utf8Text } from "#api/db/client";
import { offerCounts, offers, saleItems, sales } from "#api/db/schema";
import { cardsJson, cardsOf, summariesJson } from "./cards";
import { filterWhere, ORDER, wholeNumber, type OfferFilters } from "./filters";
import { searchPage } from "./search";
import { reordered, reorderedPage, type Ordering } from "./sorted";

/** Where a listing page starts: the catalogue-order key of its first offer. */
export type PageAnchor = { rank: number; createdAt: string; id: string };

/**
 * The ids of one listing page, in catalogue order, from a covering index: `offset` rows on from
 * the start, or from `after` (a page start seen before), which the index seeks to directly.
 */
export function listingIds(filters: OfferFilters, limit: number, offset: number, after?: PageAnchor): SQL {
  const from = after
    ? sql` AND (${offers.rank}, ${offers.createdAt}, ${offers.id}) >= (${after.rank}::int, ${after.createdAt}::timestamptz, ${after.id}::uuid)`
    : sql``;
  // LIMIT and OFFSET written into the statement: as parameters, PostgreSQL cannot tell how many
  // rows a plan made without their values reads, judges every such plan dear, and plans the
  // statement again on each run (custom plans), a fifth of a listing's time on PGlite.
  return sql`SELECT ${offers.id} AS id FROM ${offers} WHERE ${filterWhere(filters)}${from} ORDER BY ${ORDER} LIMIT ${wholeNumber(limit)} OFFSET ${wholeNumber(offset)}`;
}

/**
 * Page starts seen in the last minute, per listing (filters and page size), so that page 400
 * seeks to where it began instead of stepping over 9,576 offers again: deep pages cost what page 1
 * costs. An anchor outlives changes to the catalogue for at most ANCHOR_MS; within that time a
 * page may begin an offer or two off where a fresh count would start it, which the spec's
 * one-minute freshness allows. Per database handle (tests open many in one process); at most
 * 500 listings of 64 page starts each (about 5 MB), whatever URLs a crawler tries.
 */
const ANCHOR_MS = 60_000;
const ANCHOR_LISTINGS = 500;
const ANCHORS_PER_LISTING = 64;
type Anchors = Recent<string, { expires: number; pages: Map<number, PageAnchor> }>;
const anchorsByDatabase = new WeakMap<Database, Anchors>();

function listingAnchors(db: Database, key: string, now = Date.now()): Map<number, PageAnchor> {
  let all = anchorsByDatabase.get(db);
  if (!all) anchorsByDatabase.set(db, (all = new Recent(ANCHOR_LISTINGS)));
  let listing = all.get(key);
  if (!listing || listing.expires <= now) all.set(key, (listing = { expires: now + ANCHOR_MS, pages: new Map() }));
  return listing.pages;
}

/** The nearest page start at or before `page`, if any was seen. */
function nearestAnchor(pages: Map<number, PageAnchor>, page: number): [number, PageAnchor] | undefined {
  let best: [number, PageAnchor] | undefined;
  for (const entry of pages) if (entry[0] <= page && (!best || entry[0] > best[0])) best = entry;
  return best;
}

/**
 * A listing or search page: the count, and the cards as the database wrote them (a JSON array;
 * UTF-8 bytes on PGlite, see UTF8_COLUMN), so the API sends them on without parsing and
 * serialising 24 cards again.
 */
export async function listOffers(
  db: Database,
  filters: OfferFilters,
  page: { page: number; pageSize: number },
  ordering: Ordering = { sort: "recommended" },
): Promise<{ count: number; resultsJson: Utf8Text }> {
  const offset = (page.page - 1) * page.pageSize;
  if (reordered(ordering)) return reorderedPage(db, filters, ordering, { limit: page.pageSize, offset });
  const search = filters.search?.trim();
  if (search) {
    const terms = searchTerms(search);
    if (terms.length === 0) return { count: 0, resultsJson: "[]" };
    const { count, ids, cards } = await searchPage(db, filters, terms, page.pageSize, offset);
    return { count, resultsJson: cards ?? (await cardsJson(db, ids ?? [])) };
  }
  // One row holds the count of each listing: '' stands for every category or every province (migration 0022).
  const countWhere = sql`${offerCounts.category} = ${filters.category || ""} AND ${offerCounts.province} = ${filters.region || ""}`;
  const anchors = page.page > 1 ? listingAnchors(db, `${filters.category ?? ""}|${filters.region ?? ""}|${page.pageSize}`) : undefined;
  const [fromPage, after] = (anchors && nearestAnchor(anchors, page.page)) ?? [1, undefined];
  // Count, page and where it starts in one statement: on PGlite every statement is a turn of its
  // single backend.
  // Page 1 starts at the start, and a page whose start is remembered already knows it: only the
  // other pages read where they begin, to remember it.
  const first =
    anchors && fromPage !== page.page
      ? sql`(SELECT json_build_object('rank', ${offers.rank}, 'createdAt', ${offers.createdAt}::text, 'id', ${offers.id})
              FROM ${offers} WHERE ${offers.id} = (SELECT ids[1] FROM page))`
      : sql`NULL::json`;
  const [row] = await query<{ n: number; cards_utf8: Utf8Text | null; first: PageAnchor | null }>(
    db,
    sql`
    WITH page AS MATERIALIZED (SELECT ARRAY(${listingIds(filters, page.pageSize, (page.page - fromPage) * page.pageSize, after)}) AS ids)
    SELECT coalesce((SELECT ${offerCounts.n} FROM ${offerCounts} WHERE ${countWhere}), 0) AS n,
           ${cardsOf(sql`(SELECT ids FROM page)`)} AS cards_utf8,
           ${first} AS first`,
  );
  if (anchors && row?.first && anchors.size < ANCHORS_PER_LISTING) anchors.set(page.page, row.first);
  return { count: Number(row?.n ?? 0), resultsJson: row?.cards_utf8 ?? "[]" };
}

/**
 * «Populares ahora»: active offers by tickets sold in sales paid in the last `days` days, most
 * first, then the catalogue's order. An offer nobody bought in that time is not popular: left out.
 * Refunded or unpaid sales do not count (status 'paid' only).
 */
export async function popularOffers(
  db: Executor,
  filters: Omit<OfferFilters, "search">,
  limit: number,
  days = POPULAR_DAYS,
): Promise<OfferSummary[]> {
  const rows = await query<{ id: string }>(
    db,
    sql`SELECT ${offers.id} AS id FROM ${saleItems}
      JOIN ${sales} ON ${sales.id} = ${saleItems.saleId}
      JOIN ${offers} ON ${offers.id} = ${saleItems.offerId}
      WHERE ${sales.status} = 'paid' AND ${sales.paidAt} >= now() - make_interval(days => ${days}) AND ${filterWhere(filters)}
      GROUP BY ${offers.id}
      ORDER BY sum(${saleItems.quantity}) DESC, min(${offers.rank}), ${offers.id}
      LIMIT ${limit}`,
  );
  return summariesJson(
    db,
    rows.map((r) => r.id),
  );
}
