import { sql, type SQL } from "drizzle-orm";
import { Recent } from "#platform/recent";
import { SEARCH_CORRECTIONS, SEARCH_FUZZY_MIN_WORD, SEARCH_FUZZY_THRESHOLD } from "#rules/search";
import { query, type Database, type Utf8Text } from "#api/db/client";
import { offers } from "#api/db/schema";
import { cardsOf } from "./cards";
import { filterWhere, ORDER, wholeNumber, type OfferFilters } from "./filters";

/** A prefix query for one word and its synonyms; `title` restricts it to the title's words. */
const wordQuery = (alternatives: string[], title = false) => `(${alternatives.map((w) => `${w}:*${title ? "A" : ""}`).join(" | ")})`;
const tsquery = (text: string) => sql`to_tsquery('simple', ${text})`;

/**
 * A term's spellings that count in the title: the word typed, not the synonyms rules/search.ts
 * adds («spa» ranks «spa» in a title above «termal»); for a misspelling's corrections (`corrected`),
 * every one, as offer_search_tiers() counts them (migration 0065).
 */
const titleQuery = (term: string[], corrected: boolean) => wordQuery(corrected ? term : term.slice(0, 1), true);

type Ranked = { id: string; total: number };

/**
 * Matching by rows, for what search_words cannot answer: a search within a category or region
 * (the arrays know words, not filters) and the any-word pass. Each query finds every match
 * through the word index and ranks them all, so its cost grows with the number of matches.
 * Title matches rank before summary-only ones, then the catalogue's own order.
 */
export function searchPasses(filters: OfferFilters, terms: string[][], corrected = false): ((limit: number, offset: number) => SQL)[] {
  const base = filterWhere(filters);
  const vector = offers.searchVector;
  const titleHits = sql.join(
    terms.map((t) => sql`(${vector} @@ ${tsquery(titleQuery(t, corrected))})::int`),
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

export const everyWord = (terms: string[][]) => terms.map((t) => wordQuery(t)).join(" & ");

/** The tsquery of "at least `j` of these terms in the title": any j of them, all of those. */
function titleAtLeast(terms: string[][], j: number, corrected: boolean): string {
  const pick = (from: number, left: number): string[][] =>
    left === 0
      ? [[]]
      : from >= terms.length
        ? []
        : [...pick(from + 1, left - 1).map((rest) => [titleQuery(terms[from], corrected), ...rest]), ...pick(from + 1, left)];
  return `(${pick(0, j)
    .map((all) => `(${all.join(" & ")})`)
    .join(" | ")})`;
}

/**
 * The tsquery of one ranking tier: every term somewhere, exactly `titleHits` of them in the
 * title. Tiers go from all terms in the title down to none, as offer_search_tiers() counts them.
 */
export function tierQuery(terms: string[][], titleHits: number, corrected = false): string {
  // Every term in the title already has every term: the top tier tests the title words alone.
  const parts = titleHits === terms.length ? [] : [everyWord(terms)];
  if (titleHits > 0) parts.push(titleAtLeast(terms, titleHits, corrected));
  if (titleHits < terms.length) parts.push(`!${titleAtLeast(terms, titleHits + 1, corrected)}`);
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

type Tiers = { used: string[][]; corrected: boolean; tiers: number[]; active: number; version: string };

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
  const typed = new Set(terms.map((t) => t.join(" ")));
  // The function uses the terms typed, or, when none is known, only corrections.
  const corrected = row.used.length > 0 && !typed.has(row.used[0]);
  return { used: row.used.map((t) => t.split(" ")), corrected, tiers: row.tiers, active: Number(row.active), version: row.version };
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
export async function searchPage(
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
  for (const ids of searchPasses(filters, terms, found.corrected)) {
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
  const parts = reads.map(
    (r) => sql`ARRAY(${tierIds(tierQuery(terms, r.hits, found.corrected), fixed ? limit : r.take, r.skip, r.walk, fixed)})`,
  );
  const [row] = await query<{ cards_utf8: Utf8Text | null; version: string }>(
    db,
    sql`SELECT ${cardsOf(sql.join(parts, sql` || `))} AS cards_utf8, ${SEARCH_VERSION} AS version`,
  );
  return { result: { count: total, cards: row?.cards_utf8 ?? "[]" }, version: String(row?.version) };
}
