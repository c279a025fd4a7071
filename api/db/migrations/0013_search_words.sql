-- Search at 100,000 offers: the count and the first page of a search without reading
-- every matching offer. Measured before this: «cena» matches 6,670 offers, and counting them
-- through the word index still visits each one's row (8 ms on PostgreSQL, 30 ms on PGlite),
-- then ranking sorts them all. Now:
--   * the count comes from search_words, an inverted index of the catalogue's words kept by
--     triggers: for every word, the numbers of the active offers that have it (anywhere, and in
--     the title), as sorted integer arrays that intarray unites and intersects in C;
--   * a page walks offers in catalogue order through offers_search_walk_idx, a covering index
--     that carries each offer's words, so finding 24 title matches reads a few hundred index
--     entries and no rows (api/services/offers.ts says which tier of the ranking to walk);
--   * a misspelled word ("masage") is corrected against the vocabulary (search_words.word, with
--     a trigram index) and then searched as a word, instead of comparing it with every title.
-- intarray is a trusted contrib extension shipped with PostgreSQL and PGlite (api/db/client.ts).
CREATE EXTENSION IF NOT EXISTS intarray WITH SCHEMA public;

-- A small number for each offer: the arrays hold these instead of 16-byte uuids. A table of its
-- own rather than a column of offers: filling a new column rewrites every offer, and a rewritten
-- table has no visibility map until the next VACUUM (which PGlite never runs by itself), so
-- every listing's index-only scan would read the rows again.
CREATE TABLE search_offer_numbers (
  offer_id uuid PRIMARY KEY,
  no integer GENERATED ALWAYS AS IDENTITY UNIQUE
);
INSERT INTO search_offer_numbers (offer_id) SELECT id FROM offers ORDER BY created_at, id;

-- Words exactly as search_vector holds them (folded, 'simple' configuration). COLLATE "C" so a
-- prefix (word LIKE 'cena%') is a range of the primary key whatever the database's locale.
-- EXTERNAL: the arrays are read whole on every search; uncompressed, reading one is a copy.
CREATE TABLE search_words (
  word text COLLATE "C" PRIMARY KEY,
  offers integer[] NOT NULL,
  title_offers integer[] NOT NULL
);
ALTER TABLE search_words ALTER COLUMN offers SET STORAGE EXTERNAL, ALTER COLUMN title_offers SET STORAGE EXTERNAL;
CREATE INDEX search_words_trgm_idx ON search_words USING gin (word gin_trgm_ops);

-- The words of some offers (active ones only): each with those offers' numbers, all and title.
CREATE OR REPLACE FUNCTION search_words_of(rows_offers offers[]) RETURNS TABLE (word text, nos integer[], title_nos integer[])
  LANGUAGE sql STABLE AS $of$
  SELECT u.lexeme, sort(array_agg(n.no)), sort(coalesce(array_agg(n.no) FILTER (WHERE 'A' = ANY (u.weights)), '{}'))
  FROM unnest(rows_offers) AS o
  JOIN search_offer_numbers n ON n.offer_id = o.id
  CROSS JOIN LATERAL unnest(o.search_vector) AS u
  WHERE o.status = 'active'
  GROUP BY u.lexeme
$of$;

INSERT INTO search_words (word, offers, title_offers)
  SELECT u.lexeme, sort(array_agg(n.no)), sort(coalesce(array_agg(n.no) FILTER (WHERE 'A' = ANY (u.weights)), '{}'))
  FROM offers o
  JOIN search_offer_numbers n ON n.offer_id = o.id
  CROSS JOIN LATERAL unnest(o.search_vector) AS u
  WHERE o.status = 'active'
  GROUP BY u.lexeme;

-- Statement triggers, like offer_counts (0006): a batch of 5,000 inserted offers updates each of
-- its words once. Only rows whose status or words changed are applied (an edit of the price or
-- the rank leaves the arrays alone). A word no active offer has any more leaves the vocabulary,
-- so a misspelling is never corrected to it.
CREATE OR REPLACE FUNCTION search_words_apply() RETURNS trigger LANGUAGE plpgsql AS $apply$
DECLARE
  gone offers[];
  came offers[];
BEGIN
  IF TG_OP = 'UPDATE' THEN
    SELECT array_agg(o), array_agg(n) INTO gone, came
      FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (o.status, o.search_vector) IS DISTINCT FROM (n.status, n.search_vector);
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o) INTO gone FROM old_rows o;
  ELSE
    SELECT array_agg(n) INTO came FROM new_rows n;
  END IF;
  IF gone IS NOT NULL THEN
    WITH w AS (SELECT * FROM search_words_of(gone) ORDER BY 1)
    UPDATE search_words s SET offers = s.offers - w.nos, title_offers = s.title_offers - w.title_nos
      FROM w WHERE s.word = w.word;
  END IF;
  IF came IS NOT NULL THEN
    INSERT INTO search_offer_numbers (offer_id) SELECT c.id FROM unnest(came) AS c ORDER BY 1 ON CONFLICT DO NOTHING;
    INSERT INTO search_words (word, offers, title_offers)
      SELECT * FROM search_words_of(came) ORDER BY 1
      ON CONFLICT (word) DO UPDATE SET offers = search_words.offers | EXCLUDED.offers, title_offers = search_words.title_offers | EXCLUDED.title_offers;
  END IF;
  IF gone IS NOT NULL THEN
    DELETE FROM search_words s WHERE s.word IN (SELECT w.word FROM search_words_of(gone) w) AND s.offers = '{}';
  END IF;
  IF TG_OP = 'DELETE' THEN
    DELETE FROM search_offer_numbers n USING old_rows o WHERE n.offer_id = o.id;
  END IF;
  RETURN NULL;
END
$apply$;

CREATE TRIGGER search_words_insert AFTER INSERT ON offers REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_apply();
CREATE TRIGGER search_words_update AFTER UPDATE ON offers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_apply();
CREATE TRIGGER search_words_delete AFTER DELETE ON offers REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_apply();

-- How many active offers a search finds, by ranking tier, from search_words alone. `terms` holds
-- one entry per query word: its spellings separated by spaces ("spa termal termas balneario"),
-- each matching the vocabulary words it begins. Answers, per term, whether any active offer has
-- it (`known`), and for the found terms together: `tiers[1]` the offers having every one, then
-- `tiers[2 + j]` those with exactly j of them in the title (j = 0 … number found). At most six
-- terms (SEARCH_MAX_WORDS in lib/search.ts): h1…h6 hold the offers with at least that many
-- title hits, built one term at a time.
CREATE OR REPLACE FUNCTION offer_search_tiers(terms text[], OUT known boolean[], OUT tiers integer[])
  LANGUAGE plpgsql STABLE AS $tiers$
DECLARE
  every integer[];
  term_all integer[];
  term_title integer[];
  h1 integer[] := '{}'; h2 integer[] := '{}'; h3 integer[] := '{}';
  h4 integer[] := '{}'; h5 integer[] := '{}'; h6 integer[] := '{}';
  at_least integer[];
  k integer := 0;
  term text;
  spelling text;
  w record;
BEGIN
  known := '{}';
  FOREACH term IN ARRAY terms LOOP
    term_all := '{}';
    term_title := '{}';
    FOREACH spelling IN ARRAY string_to_array(term, ' ') LOOP
      -- A range of the primary key: the words that begin with this spelling.
      FOR w IN SELECT s.offers, s.title_offers FROM search_words s
               WHERE s.word >= spelling AND s.word < spelling || chr(1114111) AND starts_with(s.word, spelling) LOOP
        term_all := term_all | w.offers;
        term_title := term_title | w.title_offers;
      END LOOP;
    END LOOP;
    known := known || (term_all <> '{}');
    CONTINUE WHEN term_all = '{}';
    k := k + 1;
    every := CASE WHEN k = 1 THEN term_all ELSE every & term_all END;
    h6 := h6 | (h5 & term_title); h5 := h5 | (h4 & term_title); h4 := h4 | (h3 & term_title);
    h3 := h3 | (h2 & term_title); h2 := h2 | (h1 & term_title); h1 := h1 | term_title;
  END LOOP;
  tiers := '{}';
  IF k = 0 THEN RETURN; END IF;
  at_least := ARRAY[icount(every), icount(h1 & every), icount(h2 & every), icount(h3 & every), icount(h4 & every), icount(h5 & every), icount(h6 & every), 0];
  tiers := ARRAY[at_least[1]];
  FOR j IN 0..k LOOP
    tiers := tiers || (at_least[j + 1] - at_least[j + 2]);
  END LOOP;
END
$tiers$;

-- Vocabulary words a misspelled word may have meant: the `n` most alike by pg_trgm's
-- word_similarity, at least `threshold` (SEARCH_FUZZY_THRESHOLD in lib/search.ts), through the
-- trigram index. set_config(…, true) lasts until the end of the caller's transaction only.
CREATE OR REPLACE FUNCTION search_corrections(typed text, threshold real, n integer) RETURNS text[]
  LANGUAGE plpgsql STABLE AS $corr$
BEGIN
  PERFORM set_config('pg_trgm.word_similarity_threshold', threshold::text, true);
  RETURN ARRAY(SELECT s.word FROM search_words s WHERE typed <% s.word
               ORDER BY word_similarity(typed, s.word) DESC, similarity(typed, s.word) DESC, s.word LIMIT n);
END
$corr$;

-- Search pages walk this in catalogue order, reading each offer's words from the index itself.
CREATE INDEX offers_search_walk_idx ON offers (rank, created_at, id) INCLUDE (search_vector) WHERE status = 'active';

-- The misspelling pass compared the query with every title by trigrams; the vocabulary does that now.
DROP INDEX offers_title_trgm_idx;
ALTER TABLE offers DROP COLUMN title_fold;
