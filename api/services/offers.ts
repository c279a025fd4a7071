import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { POPULAR_DAYS } from "#lib/constants";
import { SEARCH_FUZZY_MIN_WORD, SEARCH_FUZZY_THRESHOLD, searchTerms } from "#lib/search";
import type { CategoryId } from "#lib/categories";
import type { OfferDetail, OfferSummary } from "#lib/schemas/offer";
import { query, type Database, type Executor } from "#api/db/client";
import { offerCounts, offers, organizations, saleItems, sales } from "#api/db/schema";
import { MIN_RATINGS_SHOWN } from "#lib/schemas/feedback";

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

/** One way of matching a search: its ids query, and whether it needs the fuzzy threshold set. */
export type SearchPass = { fuzzy: boolean; ids: (limit: number, offset: number) => SQL };

/**
 * A search in up to three passes, each tried only when the one before matches nothing at all:
 * every word at a word start; any word (ranked by how many); then misspellings by trigram
 * similarity with the title. Title matches rank before summary-only ones, then the catalogue's
 * own order. Words are [a-z0-9] only (searchTerms), so they are safe inside a tsquery.
 * Exported so the plan test (tests/api/large-catalogue.test.ts) explains exactly these queries.
 */
export function searchPasses(filters: OfferFilters, terms: string[][]): SearchPass[] {
  const base = filterWhere(filters);
  const vector = offers.searchVector;
  const titleHits = sql.join(terms.map((t) => sql`(${vector} @@ ${tsquery(wordQuery(t, true))})::int`), sql` + `);
  const ranked = (where: SQL, order: SQL) => (limit: number, offset: number) =>
    sql`SELECT ${offers.id} AS id, count(*) OVER ()::int AS total FROM ${offers} WHERE ${base} AND (${where}) ORDER BY ${order}, ${ORDER} LIMIT ${limit} OFFSET ${offset}`;

  const all = tsquery(terms.map((t) => wordQuery(t)).join(" & "));
  const passes: SearchPass[] = [{ fuzzy: false, ids: ranked(sql`${vector} @@ ${all}`, sql`${titleHits} DESC`) }];
  if (terms.length > 1) {
    const any = tsquery(terms.map((t) => wordQuery(t)).join(" | "));
    const textHits = sql.join(terms.map((t) => sql`(${vector} @@ ${tsquery(wordQuery(t))})::int`), sql` + `);
    passes.push({ fuzzy: false, ids: ranked(sql`${vector} @@ ${any}`, sql`${textHits} DESC, ${titleHits} DESC`) });
  }
  const fuzzy = terms.map((t) => t[0]).filter((w) => w.length >= SEARCH_FUZZY_MIN_WORD);
  if (fuzzy.length > 0) {
    const near = sql.join(fuzzy.map((w) => sql`${w} <% ${offers.titleFold}`), sql` OR `);
    const likeness = sql.join(fuzzy.map((w) => sql`word_similarity(${w}, ${offers.titleFold})`), sql` + `);
    passes.push({ fuzzy: true, ids: ranked(near, sql`${likeness} DESC`) });
  }
  return passes;
}

/** Runs a pass; the fuzzy one sets its threshold with SET LOCAL, so only for this transaction. */
export async function runSearchPass<T = Ranked>(db: Database, pass: SearchPass, statement: SQL): Promise<T[]> {
  if (!pass.fuzzy) return query<T>(db, statement);
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`SET LOCAL pg_trgm.word_similarity_threshold = ${SEARCH_FUZZY_THRESHOLD}`));
    return query<T>(tx, statement);
  });
}

/**
 * Which of the terms some active offer has at all, in one statement, through the word index only.
 * The planner would answer EXISTS by walking the table (or the status index) until a row matches,
 * which for a word no offer has is all of it: 70–120 ms at 100,000 offers instead of 0.1 ms.
 * The category and region are left out: a word found only elsewhere keeps the any-word pass.
 */
async function termsFound(db: Database, terms: string[][]): Promise<boolean[]> {
  const found = terms.map((t) => sql`EXISTS (SELECT 1 FROM ${offers} WHERE ${offers.searchVector} @@ ${tsquery(wordQuery(t))} AND ${offers.status} = 'active')`);
  const [row] = await db.transaction(async (tx) => {
    await tx.execute(sql.raw("SET LOCAL enable_seqscan = off"));
    await tx.execute(sql.raw("SET LOCAL enable_indexscan = off"));
    return query<{ found: boolean[] }>(tx, sql`SELECT json_build_array(${sql.join(found, sql`, `)}) AS found`);
  });
  return row.found;
}

async function searchPage(db: Database, filters: OfferFilters, terms: string[][], limit: number, offset: number): Promise<{ count: number; ids: string[] }> {
  for (const [i, pass] of searchPasses(filters, terms).entries()) {
    const rows = await runSearchPass(db, pass, pass.ids(limit, offset));
    if (rows.length > 0) return { count: rows[0].total, ids: rows.map((r) => r.id) };
    // A page past the end of a pass that does match: its count, no rows, and no looser pass.
    if (offset > 0) {
      const [first] = await runSearchPass(db, pass, pass.ids(1, 0));
      if (first) return { count: first.total, ids: [] };
    }
    // A word no offer has at all is left out before anything looser: "cena romántica" in a
    // catalogue without "romántica" is "cena" with every word required, not any of both words
    // (at 100,000 offers a third of the work, and the dinners first all the same).
    if (i === 0 && terms.length > 1) {
      const found = await termsFound(db, terms);
      const kept = terms.filter((_, k) => found[k]);
      if (kept.length > 0 && kept.length < terms.length) return searchPage(db, filters, kept, limit, offset);
    }
  }
  return { count: 0, ids: [] };
}

/** Where a listing page starts: the catalogue-order key of its first offer. */
export type PageAnchor = { rank: number; createdAt: string; id: string };

/**
 * The ids of one listing page, in catalogue order, from a covering index: `offset` rows on from
 * the start, or from `after` (a page start seen before), which the index seeks to directly.
 */
export function listingIds(filters: OfferFilters, limit: number, offset: number, after?: PageAnchor): SQL {
  const from = after ? sql` AND (${offers.rank}, ${offers.createdAt}, ${offers.id}) >= (${after.rank}::int, ${after.createdAt}::timestamptz, ${after.id}::uuid)` : sql``;
  return sql`SELECT ${offers.id} AS id FROM ${offers} WHERE ${filterWhere(filters)}${from} ORDER BY ${ORDER} LIMIT ${limit} OFFSET ${offset}`;
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
type Anchors = Map<string, { expires: number; pages: Map<number, PageAnchor> }>;
const anchorsByDatabase = new WeakMap<Database, Anchors>();

function listingAnchors(db: Database, key: string, now = Date.now()): Map<number, PageAnchor> {
  let all = anchorsByDatabase.get(db);
  if (!all) anchorsByDatabase.set(db, (all = new Map()));
  let listing = all.get(key);
  if (!listing || listing.expires <= now) {
    all.delete(key);
    // Map order is insertion order: the oldest listing goes first.
    if (all.size >= ANCHOR_LISTINGS) all.delete(all.keys().next().value!);
    all.set(key, (listing = { expires: now + ANCHOR_MS, pages: new Map() }));
  }
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
 * JSON array (text, or NULL for none), built by the database's offer_cards() (migration 0012): one
 * statement instead of five (offers, organizations, images, price options, ratings), planned once
 * per connection, so a page costs one round trip and no per-row mapping in Node.
 */
const cardsOf = (idArray: SQL, activeOnly = false): SQL => sql`offer_cards(${idArray}, ${MIN_RATINGS_SHOWN}::int, ${activeOnly}::boolean)`;

/** The cards of these offers as JSON text (an array), in the order given; `activeOnly` skips offers no longer on sale. */
async function cardsJson(db: Executor, ids: string[], activeOnly = false): Promise<string> {
  if (ids.length === 0) return "[]";
  const [row] = await query<{ cards: string | null }>(db, sql`SELECT ${cardsOf(sql`${sql.param(ids)}::uuid[]`, activeOnly)} AS cards`);
  return row?.cards ?? "[]";
}

async function summariesJson(db: Executor, ids: string[], activeOnly = false): Promise<OfferSummary[]> {
  return JSON.parse(await cardsJson(db, ids, activeOnly)) as OfferSummary[];
}

/**
 * A listing or search page: the count, and the cards as the database wrote them (a JSON array,
 * text), so the API sends them on without parsing and serialising 24 cards again.
 */
export async function listOffers(
  db: Database,
  filters: OfferFilters,
  page: { page: number; pageSize: number },
): Promise<{ count: number; resultsJson: string }> {
  const offset = (page.page - 1) * page.pageSize;
  const search = filters.search?.trim();
  if (search) {
    const terms = searchTerms(search);
    if (terms.length === 0) return { count: 0, resultsJson: "[]" };
    const { count, ids } = await searchPage(db, filters, terms, page.pageSize, offset);
    return { count, resultsJson: await cardsJson(db, ids) };
  }
  const countWhere: SQL[] = [sql`true`];
  if (filters.category) countWhere.push(sql`${offerCounts.category} = ${filters.category}`);
  if (filters.region) countWhere.push(sql`${offerCounts.province} = ${filters.region}`);
  const anchors = page.page > 1 ? listingAnchors(db, `${filters.category ?? ""}|${filters.region ?? ""}|${page.pageSize}`) : undefined;
  const [fromPage, after] = (anchors && nearestAnchor(anchors, page.page)) ?? [1, undefined];
  // Count, page and where it starts in one statement: on PGlite every statement is a turn of its
  // single backend.
  // Page 1 starts at the start: only deeper pages read where they begin, to remember it.
  const first = anchors
    ? sql`(SELECT json_build_object('rank', ${offers.rank}, 'createdAt', ${offers.createdAt}::text, 'id', ${offers.id})
              FROM ${offers} WHERE ${offers.id} = (SELECT ids[1] FROM page))`
    : sql`NULL::json`;
  const [row] = await query<{ n: number; cards: string | null; first: PageAnchor | null }>(db, sql`
    WITH page AS MATERIALIZED (SELECT ARRAY(${listingIds(filters, page.pageSize, (page.page - fromPage) * page.pageSize, after)}) AS ids)
    SELECT (SELECT coalesce(sum(${offerCounts.n}), 0) FROM ${offerCounts} WHERE ${sql.join(countWhere, sql` AND `)})::int AS n,
           ${cardsOf(sql`(SELECT ids FROM page)`)} AS cards,
           ${first} AS first`);
  if (anchors && row?.first && anchors.size < ANCHORS_PER_LISTING) anchors.set(page.page, row.first);
  return { count: Number(row?.n ?? 0), resultsJson: row?.cards ?? "[]" };
}

export async function getOffer(db: Executor, id: string): Promise<OfferDetail | null> {
  const [[offer], [detail]] = await Promise.all([
    summariesJson(db, [id], true),
    db
      .select({
        description: offers.description,
        conditions: offers.conditions,
        email: organizations.email,
        phone: organizations.phone,
        website: organizations.website,
      })
      .from(offers)
      .innerJoin(organizations, eq(organizations.id, offers.organizationId))
      .where(and(eq(offers.id, id), eq(offers.status, "active"))),
  ]);
  if (!offer || !detail) return null;
  const { description, conditions, ...contact } = detail;
  return { ...offer, description, conditions, organization: { ...offer.organization, ...contact } };
}

/** The offers asked for, in the order asked; unknown or inactive ones are skipped. */
export async function selectedOffers(db: Executor, ids: string[]): Promise<OfferSummary[]> {
  return summariesJson(db, [...new Set(ids)], true);
}

/** Other active offers, nearest first (equirectangular distance is plenty at city scale). */
export async function nearbyOffers(db: Executor, id: string, limit: number): Promise<OfferSummary[] | null> {
  const [origin] = await db
    .select({ latitude: offers.latitude, longitude: offers.longitude })
    .from(offers)
    .where(and(eq(offers.id, id), eq(offers.status, "active")));
  if (!origin) return null;
  if (origin.latitude === null || origin.longitude === null) return [];
  const distance = sql`power(${offers.latitude} - ${origin.latitude}, 2) + power((${offers.longitude} - ${origin.longitude}) * cos(radians(${origin.latitude})), 2)`;
  const rows = await db
    .select({ id: offers.id })
    .from(offers)
    .where(and(eq(offers.status, "active"), sql`${offers.id} <> ${id}`, sql`${offers.latitude} IS NOT NULL`))
    .orderBy(distance, asc(offers.rank))
    .limit(limit);
  return summariesJson(db, rows.map((r) => r.id));
}

/**
 * «Populares ahora»: active offers by tickets sold in sales paid in the last `days` days, most
 * first, then the catalogue's order. An offer nobody bought in that time is not popular: left out.
 * Refunded or unpaid sales do not count (status 'paid' only).
 */
export async function popularOffers(db: Executor, filters: Omit<OfferFilters, "search">, limit: number, days = POPULAR_DAYS): Promise<OfferSummary[]> {
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
  return summariesJson(db, rows.map((r) => r.id));
}
