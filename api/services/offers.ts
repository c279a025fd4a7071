import { and, eq, sql, type SQL } from "drizzle-orm";
import { POPULAR_DAYS } from "#rules/constants";
import { Recent } from "#platform/recent";
import { SEARCH_CORRECTIONS, SEARCH_FUZZY_MIN_WORD, SEARCH_FUZZY_THRESHOLD, searchTerms } from "#rules/search";
import type { CategoryId } from "#rules/categories";
import { OFFER_REVIEWS_SHOWN, type OfferDetail, type OfferReview, type OfferSummary } from "#contract/offers";
import { query, type Database, type Executor, type Utf8Text } from "#api/db/client";
import { offerCounts, offers, organizations, saleItems, sales } from "#api/db/schema";
import { MIN_RATINGS_SHOWN } from "#contract/feedback";
import { soldOfOffer } from "#api/services/coupon-facts";

export type OfferFilters = {
  search?: string;
  category?: CategoryId;
  region?: string;
};

const ORDER = sql`${offers.rank}, ${offers.createdAt}, ${offers.id}`;

/** Status and the category/region filters, the part every listing and search shares. */
function filterWhere(filters: OfferFilters): SQL {
  const parts: SQL[] = [sql`${offers.status} = 'active'`];
  if (filters.category) parts.push(sql`${offers.category} = ${filters.category}`);
  if (filters.region) parts.push(sql`${offers.province} = ${filters.region}`);
  return sql.join(parts, sql` AND `);
}

/** A prefix query for one word and its synonyms; `title` restricts it to the title's words. */
const wordQuery = (alternatives: string[], title = false) => `(${alternatives.map((w) => `${w}:*${title ? "A" : ""}`).join(" | ")})`;
const tsquery = (text: string) => sql`to_tsquery('simple', ${text})`;

type Ranked = { id: string; total: number };

/**
 * Matching by rows, for what search_words cannot answer: a search within a category or region
 * (the arrays know words, not filters) and the any-word pass. Each query finds every match
 * through the word index and ranks them all, so its cost grows with the number of matches.
 * Title matches rank before summary-only ones, then the catalogue's own order.
 */
export function searchPasses(filters: OfferFilters, terms: string[][]): ((limit: number, offset: number) => SQL)[] {
  const base = filterWhere(filters);
  const vector = offers.searchVector;
  const titleHits = sql.join(
    terms.map((t) => sql`(${vector} @@ ${tsquery(wordQuery(t, true))})::int`),
    sql` + `,
  );
  const ranked = (where: SQL, order: SQL) => (limit: number, offset: number) =>
    sql`SELECT ${offers.id} AS id, count(*) OVER ()::int AS total FROM ${offers} WHERE ${base} AND (${where}) ORDER BY ${order}, ${ORDER} LIMIT ${limit} OFFSET ${offset}`;

  const passes = [ranked(sql`${vector} @@ ${tsquery(everyWord(terms))}`, sql`${titleHits} DESC`)];
  if (terms.length > 1) {
    const any = tsquery(terms.map((t) => wordQuery(t)).join(" | "));
    const textHits = sql.join(
      terms.map((t) => sql`(${vector} @@ ${tsquery(wordQuery(t))})::int`),
      sql` + `,
    );
    passes.push(ranked(sql`${vector} @@ ${any}`, sql`${textHits} DESC, ${titleHits} DESC`));
  }
  return passes;
}

const everyWord = (terms: string[][]) => terms.map((t) => wordQuery(t)).join(" & ");

/** The tsquery of "at least `j` of these terms in the title": any j of them, all of those. */
function titleAtLeast(terms: string[][], j: number): string {
  const pick = (from: number, left: number): string[][] =>
    left === 0
      ? [[]]
      : from >= terms.length
        ? []
        : [...pick(from + 1, left - 1).map((rest) => [wordQuery(terms[from], true), ...rest]), ...pick(from + 1, left)];
  return `(${pick(0, j)
    .map((all) => `(${all.join(" & ")})`)
    .join(" | ")})`;
}

/**
 * The tsquery of one ranking tier: every term somewhere, exactly `titleHits` of them in the
 * title. Tiers go from all terms in the title down to none, as offer_search_tiers() counts them.
 */
export function tierQuery(terms: string[][], titleHits: number): string {
  // Every term in the title already has every term: the top tier tests the title words alone.
  const parts = titleHits === terms.length ? [] : [everyWord(terms)];
  if (titleHits > 0) parts.push(titleAtLeast(terms, titleHits));
  if (titleHits < terms.length) parts.push(`!${titleAtLeast(terms, titleHits + 1)}`);
  return parts.join(" & ");
}

/**
 * Ids of one tier's offers, in catalogue order. `walk`: along offers_search_walk_idx, testing
 * each offer's words in the index (coalesce() keeps the word index out of it, so the ordered
 * walk is the only plan), which reads about take × active / tier-size entries and no rows. Else
 * through the word index, sorting the tier's matches (rank + 0: no index order to walk), which
 * costs the number of matches: the cheaper way for a rare word or a deep page.
 *
 * The tsquery is a subquery, computed once a run: in a plan made without the parameter's value
 * (a generic plan), to_tsquery() of a parameter runs again for every entry walked, several times
 * the cost of the page. `fixed`: LIMIT and OFFSET written into the statement, as for a
 * listing (listingIds), so PostgreSQL keeps one plan rather than planning every run. Only for a page that is the start of one tier: how a page splits across
 * tiers varies with the words, and every split written out would be a statement of its own.
 */
export function tierIds(query: string, take: number, skip: number, walk: boolean, fixed = false): SQL {
  const order = walk ? ORDER : sql`${offers.rank} + 0, ${offers.createdAt}, ${offers.id}`;
  const words = sql`(SELECT ${tsquery(query)})`;
  const match = walk ? sql`coalesce(${offers.searchVector} @@ ${words}, false)` : sql`${offers.searchVector} @@ ${words}`;
  const [limit, offset] = fixed ? [wholeNumber(take), wholeNumber(skip)] : [sql`${take}`, sql`${skip}`];
  return sql`SELECT ${offers.id} FROM ${offers} WHERE ${offers.status} = 'active' AND ${match} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`;
}

/** Walk rather than sort when the walk reads at most this many index entries per match sorted. */
const WALK_PER_MATCH = 8;

type Tiers = { used: string[][]; tiers: number[]; active: number; version: string };

/**
 * offer_search_tiers() (migrations 0013, 0014, 0016): the terms searched (words no offer has left out,
 * or, when none is left, misspellings corrected to the catalogue's words) and how many offers
 * each ranking tier holds; with the number of active offers, to choose how to read a tier, and
 * search_version (migration 0027) as the same statement saw it, to tell when the tiers are old.
 */
export async function searchTiers(db: Database, terms: string[][]): Promise<Tiers> {
  const [row] = await query<{ used: string[]; tiers: number[]; active: number; version: string }>(
    db,
    sql`SELECT to_json(t.used) AS used, to_json(t.tiers) AS tiers, t.active, ${SEARCH_VERSION} AS version
        FROM offer_search_tiers(${sql.param(terms.map((t) => t.join(" ")))}::text[], ${SEARCH_FUZZY_MIN_WORD}::int, ${SEARCH_FUZZY_THRESHOLD}::real, ${SEARCH_CORRECTIONS}::int) t`,
  );
  return { used: row.used.map((t) => t.split(" ")), tiers: row.tiers, active: Number(row.active), version: row.version };
}

/** search_version's number, as text from both drivers: node-postgres reads a bigint as a string, PGlite as a number. */
const SEARCH_VERSION = sql`(SELECT v::text FROM search_version)`;

/**
 * The tiers of recent searches, per database handle (tests open many in one process), by their
 * terms, at most SEARCHES_KEPT of them whatever words a crawler tries. The tiers are over half
 * of a search's work in the database (ADR 017). A page read from kept tiers also reads
 * search_version; when that moved, the tiers are read again and the page with them, so a
 * change to the catalogue's words, in this process or another, shows in the next search.
 */
const SEARCHES_KEPT = 1000;
const tiersByDatabase = new WeakMap<Database, Recent<string, Tiers>>();

function keptTiers(db: Database): Recent<string, Tiers> {
  let kept = tiersByDatabase.get(db);
  if (!kept) tiersByDatabase.set(db, (kept = new Recent(SEARCHES_KEPT)));
  return kept;
}

type SearchResult = { count: number; ids?: string[]; cards?: Utf8Text };

/**
 * A search page. Words no offer has are left out first ("cena romántica" in a catalogue without
 * "romántica" is "cena"); if none is left, misspellings are corrected. Without a category or
 * region, the count and the tiers come from search_words and the page is walked tier by tier;
 * with one, or when the words exist but never together, rows are matched and ranked.
 */
async function searchPage(
  db: Database,
  filters: OfferFilters,
  typedTerms: string[][],
  limit: number,
  offset: number,
): Promise<SearchResult> {
  const unfiltered = !filters.category && !filters.region;
  const key = JSON.stringify(typedTerms);
  const kept = unfiltered ? keptTiers(db).get(key) : undefined;
  if (kept) {
    const page = await tierPage(db, kept, limit, offset);
    if (page?.version === kept.version) return page.result;
  }
  const found = await searchTiers(db, typedTerms);
  const terms = found.used;
  if (terms.length === 0) return { count: 0, ids: [] };
  if (found.tiers[0] > 0 && unfiltered) {
    // Kept only when a page is read from them, whose statement says whether they still hold.
    keptTiers(db).set(key, found);
    const page = await tierPage(db, found, limit, offset);
    return page?.result ?? { count: found.tiers[0], ids: [] };
  }
  for (const ids of searchPasses(filters, terms)) {
    const rows = await query<Ranked>(db, ids(limit, offset));
    if (rows.length > 0) return { count: rows[0].total, ids: rows.map((r) => r.id) };
    // A page past the end of a pass that does match: its count, no rows, and no looser pass.
    if (offset > 0) {
      const [first] = await query<Ranked>(db, ids(1, 0));
      if (first) return { count: first.total, ids: [] };
    }
  }
  return { count: 0, ids: [] };
}

/**
 * A page of a search that has offers, walked tier by tier, with search_version as its statement
 * saw it; undefined for a page past the end (nothing read).
 */
async function tierPage(
  db: Database,
  found: Tiers,
  limit: number,
  offset: number,
): Promise<{ result: SearchResult; version: string } | undefined> {
  const terms = found.used;
  const [total, ...exactly] = found.tiers;
  const reads: { hits: number; take: number; skip: number; walk: boolean }[] = [];
  let [skip, want] = [offset, limit];
  for (let hits = terms.length; hits >= 0 && want > 0; hits--) {
    const size = exactly[hits];
    if (skip >= size) {
      skip -= size;
      continue;
    }
    const take = Math.min(want, size - skip);
    reads.push({ hits, take, skip, walk: ((skip + take) * found.active) / size <= WALK_PER_MATCH * total });
    [skip, want] = [0, want - take];
  }
  if (reads.length === 0) return undefined;
  // One read from a tier's start either fills the page or is all that tier has left, so it may
  // ask for the whole page: the text then varies with the page size only, not with a rare
  // word's number of matches.
  const fixed = reads.length === 1 && reads[0].skip === 0;
  const parts = reads.map((r) => sql`ARRAY(${tierIds(tierQuery(terms, r.hits), fixed ? limit : r.take, r.skip, r.walk, fixed)})`);
  const [row] = await query<{ cards_utf8: Utf8Text | null; version: string }>(
    db,
    sql`SELECT ${cardsOf(sql.join(parts, sql` || `))} AS cards_utf8, ${SEARCH_VERSION} AS version`,
  );
  return { result: { count: total, cards: row?.cards_utf8 ?? "[]" }, version: String(row?.version) };
}

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

/** A whole number written into a statement's text (see listingIds); anything else is a bug here. */
function wholeNumber(n: number): SQL {
  if (!Number.isSafeInteger(n) || n < 0) throw new TypeError(`No es un número de filas: ${n}`);
  return sql.raw(String(n));
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
 * The cards of the offers whose ids `idArray` yields (a uuid[] expression), in its order, as one
 * JSON array (text, or NULL for none), built by the database's offer_cards() (migrations 0012 and
 * 0018): each card's kept head (offer, organization, images, rating) joined to its live price
 * options, planned once per connection, so a page costs one round trip and no per-row mapping in Node.
 */
const cardsOf = (idArray: SQL, activeOnly = false): SQL =>
  sql`offer_cards(${idArray}, ${wholeNumber(MIN_RATINGS_SHOWN)}, ${sql.raw(String(activeOnly))})`;

/**
 * The cards of these offers as JSON (an array; UTF-8 bytes on PGlite, see UTF8_COLUMN), in the
 * order given; `activeOnly` skips offers no longer on sale.
 */
async function cardsJson(db: Executor, ids: string[], activeOnly = false): Promise<Utf8Text> {
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
function cardsFrom(json: Utf8Text | string): OfferSummary[] {
  return JSON.parse(json.toString());
}

async function summariesJson(db: Executor, ids: string[], activeOnly = false): Promise<OfferSummary[]> {
  return cardsFrom(await cardsJson(db, ids, activeOnly));
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
): Promise<{ count: number; resultsJson: Utf8Text }> {
  const offset = (page.page - 1) * page.pageSize;
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
  }>(
    db,
    sql`SELECT ${cardsOf(sql`ARRAY[${offers.id}]`)} AS card, ${offers.description} AS description, ${offers.conditions} AS conditions,
               ${organizations.email} AS email, ${organizations.phone} AS phone, ${organizations.website} AS website,
               ${soldOfOffer(sql`${offers.id}`)} AS sold,
               org.average AS org_average, org.n AS org_count,
               (SELECT json_agg(json_build_object('stars', r.stars, 'comment', r.comment, 'date', r.at) ORDER BY r.at DESC)
                  FROM (SELECT f.stars, f.comment, f.updated_at AS at FROM offer_feedback f
                         WHERE f.offer_id = ${offers.id} AND btrim(f.comment) <> '' AND ${boughtBy(sql`f.offer_id`, sql`f.email`)}
                         ORDER BY f.updated_at DESC LIMIT ${wholeNumber(OFFER_REVIEWS_SHOWN)}) r) AS reviews
        FROM ${offers} JOIN ${organizations} ON ${organizations.id} = ${offers.organizationId}
        CROSS JOIN LATERAL (
          SELECT round(avg(f.stars)::numeric, 1) AS average, count(*) AS n FROM offer_feedback f JOIN offers o ON o.id = f.offer_id
          WHERE o.organization_id = ${offers.organizationId} AND ${boughtBy(sql`f.offer_id`, sql`f.email`)}) org
        WHERE ${offers.id} = ${id} AND ${offers.status} = 'active'`,
  );
  if (!row?.card) return null;
  const { card, description, conditions, sold, org_average, org_count, reviews, ...contact } = row;
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
  };
}

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
    .where(and(eq(offers.id, id), eq(offers.status, "active")));
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
