-- Search that finds what people mean, and listings that stay fast at 100,000 offers.
-- unaccent and pg_trgm are contrib extensions: trusted (a database owner may create them) and
-- shipped with PostgreSQL's server package and with PGlite (loaded in api/db/client.ts).
CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public;
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

-- unaccent() is only STABLE (its dictionary could change), so generated columns and indexes need
-- this IMMUTABLE wrapper naming the dictionary explicitly. Accents go first, then lower(): on a
-- database created with the C locale lower() leaves non-ASCII letters alone.
CREATE OR REPLACE FUNCTION ofertas_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $fold$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, value)) $fold$;

-- Words at word starts: a tsvector of the folded title (weight A, ranked first) and summary (B),
-- searched with prefix queries ('spa:*' matches "spa" and "spas", never "espana"). The 'simple'
-- configuration keeps words as written (no stemming), so prefixes behave predictably.
ALTER TABLE offers DROP COLUMN search_text;
ALTER TABLE offers ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('simple', ofertas_fold(title)), 'A') || setweight(to_tsvector('simple', ofertas_fold(summary)), 'B')
) STORED;
CREATE INDEX offers_search_vector_idx ON offers USING gin (search_vector);
-- Misspellings ("masage") are found by trigram similarity against the folded title.
ALTER TABLE offers ADD COLUMN title_fold text GENERATED ALWAYS AS (ofertas_fold(title)) STORED;
CREATE INDEX offers_title_trgm_idx ON offers USING gin (title_fold gin_trgm_ops);

-- Listing order is (rank, created_at, id); with every column in the index a page of any depth is
-- an index-only walk followed by 24 row fetches (listOffers in api/services/offers.ts).
DROP INDEX offers_status_rank_idx;
DROP INDEX offers_status_category_idx;
DROP INDEX offers_status_province_idx;
CREATE INDEX offers_list_idx ON offers (status, rank, created_at, id);
CREATE INDEX offers_category_list_idx ON offers (status, category, rank, created_at, id);
CREATE INDEX offers_province_list_idx ON offers (status, province, rank, created_at, id);
CREATE INDEX offers_category_province_list_idx ON offers (status, category, province, rank, created_at, id);

-- Active offers per (category, province), kept by statement triggers, so a listing's count is a
-- sum over at most 450 rows instead of counting 100,000.
CREATE TABLE offer_counts (
  category text NOT NULL,
  province text NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (category, province)
);
INSERT INTO offer_counts (category, province, n)
  SELECT category, province, count(*) FROM offers WHERE status = 'active' GROUP BY category, province;

CREATE OR REPLACE FUNCTION offer_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $counts$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO offer_counts (category, province, n)
      SELECT category, province, -count(*) FROM old_rows WHERE status = 'active' GROUP BY category, province
      ON CONFLICT (category, province) DO UPDATE SET n = offer_counts.n + EXCLUDED.n; END IF; -- rows that stop counting
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO offer_counts (category, province, n)
      SELECT category, province, count(*) FROM new_rows WHERE status = 'active' GROUP BY category, province
      ON CONFLICT (category, province) DO UPDATE SET n = offer_counts.n + EXCLUDED.n; END IF; -- rows that start counting
  RETURN NULL; END
$counts$;

CREATE TRIGGER offer_counts_insert AFTER INSERT ON offers REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION offer_counts_apply();
CREATE TRIGGER offer_counts_update AFTER UPDATE ON offers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION offer_counts_apply();
CREATE TRIGGER offer_counts_delete AFTER DELETE ON offers REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION offer_counts_apply();
