-- A GIN index's new entries wait in a pending list, read in full by every search through the
-- index, until a VACUUM merges them. PostgreSQL's autovacuum does so; PGlite never runs it, so
-- the list only empties when it reaches gin_pending_list_limit (4 MB). At 100,000 offers the
-- vocabulary's trigram index had 41 pending pages after seeding: correcting «masage» took
-- 1.55 ms in that index scan alone, against 0.05 ms once merged (a whole misspelled search in
-- the database 2.7 → 0.45 ms). These indexes change only when offers do, so each entry now goes
-- straight into the index, and what is pending is merged now (ALTER INDEX does not do that).
ALTER INDEX search_words_trgm_idx SET (fastupdate = off);
ALTER INDEX offers_search_vector_idx SET (fastupdate = off);
SELECT gin_clean_pending_list('search_words_trgm_idx'::regclass);
SELECT gin_clean_pending_list('offers_search_vector_idx'::regclass);
