/**
 * How a search box text becomes search terms, written once for the API (and any test that needs
 * to reason about it). The database folds offers with ofertas_fold() (unaccent + lower); this
 * folds the query the same way, then keeps the words that carry meaning.
 */

/** Shorter words are skipped: the search box starts at 3 characters, and a trigram needs 3. */
export const SEARCH_MIN_WORD = 3;
/** A query word this long or longer may match a misspelling ("masage" → "masaje"). */
export const SEARCH_FUZZY_MIN_WORD = 4;
/** How alike a misspelled word must be to a word of the catalogue (pg_trgm word_similarity, 0–1). */
export const SEARCH_FUZZY_THRESHOLD = 0.5;
/** A misspelled word is searched as at most this many of the catalogue's words most like it. */
export const SEARCH_CORRECTIONS = 3;
/** At most this many words of a query are used: each one is a condition on every candidate. */
export const SEARCH_MAX_WORDS = 6;

const STOPWORDS = new Set(["con", "para", "por", "los", "las", "del", "una", "unos", "unas", "que", "sin", "mas", "muy", "the", "and"]);

/**
 * Words people type for what offers describe in other words. "spa" must find the thermal
 * circuits and baths, which rarely say "spa" in their title.
 */
const SYNONYMS: Record<string, string[]> = {
  spa: ["termal", "termas", "balneario"],
  termal: ["spa", "termas", "balneario"],
  balneario: ["spa", "termal", "termas"],
};

/** Lower case, accents removed: the same result as ofertas_fold() in the database. */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");
}

/** Every word of a query, folded: only [a-z0-9] survives, so a word is safe in a tsquery or a regular expression. */
export function queryWords(query: string): string[] {
  return foldText(query)
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** The query's words that carry meaning, each with the spellings that count as that word. */
export function searchTerms(query: string): string[][] {
  const words = queryWords(query).filter((w) => w.length >= SEARCH_MIN_WORD && !STOPWORDS.has(w));
  return [...new Set(words)].slice(0, SEARCH_MAX_WORDS).map((w) => [w, ...(SYNONYMS[w] ?? [])]);
}
