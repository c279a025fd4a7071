-- Correcting a misspelling compared it with every word of the vocabulary (word_similarity() on
-- all 671 words at 100,000 offers: 0.6 ms on PostgreSQL, several on PGlite, and a real
-- catalogue's vocabulary is ten times larger). The trigram index of 0013 was never used: built on
-- the COLLATE "C" column, the planner does not match pg_trgm's operators to it. This one indexes
-- the word in the default collation, which the candidates' query names the same way.
DROP INDEX search_words_trgm_idx;
CREATE INDEX search_words_trgm_idx ON search_words USING gin ((word COLLATE "default") gin_trgm_ops);

-- The vocabulary words like `typed` by pg_trgm's word_similarity (at least the session's
-- pg_trgm.word_similarity_threshold), best first. A plain SQL function, so a query of it is
-- planned as this statement itself (tests/api/large-catalogue.test.ts explains it).
CREATE FUNCTION search_correction_candidates(typed text) RETURNS TABLE (word text)
  LANGUAGE sql STABLE AS $cand$
  SELECT s.word FROM search_words s
  WHERE typed <% (s.word COLLATE "default")
  ORDER BY word_similarity(typed, s.word) DESC, similarity(typed, s.word) DESC, s.word
$cand$;

-- Vocabulary words a misspelled word may have meant: the `n` most alike, at least `threshold`
-- (SEARCH_FUZZY_THRESHOLD in lib/search.ts). set_config(…, true) lasts until the end of the
-- caller's transaction only. enable_seqscan off for this function alone: the planner prices
-- word_similarity() like an addition and would compare every word rather than read the index.
CREATE OR REPLACE FUNCTION search_corrections(typed text, threshold real, n integer) RETURNS text[]
  LANGUAGE plpgsql STABLE SET enable_seqscan = off AS $corr$
BEGIN
  PERFORM set_config('pg_trgm.word_similarity_threshold', threshold::text, true);
  RETURN ARRAY(SELECT c.word FROM search_correction_candidates(typed) c LIMIT n);
END
$corr$;
