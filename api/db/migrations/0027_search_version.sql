-- A number that moves with search_words (0013): every statement that changes the vocabulary's
-- arrays moves it, in the same transaction. A search's tiers (offer_search_tiers, 0026) are read
-- from search_words alone, so tiers read under one number still hold while the number stands,
-- in any process: the API keeps them by search terms and reads the number with each page it
-- serves from them (offers.ts, keptTiers). A row rather than a sequence: a sequence's value is
-- seen before its transaction commits, this row only after, with the words it counts.
CREATE TABLE search_version (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  v bigint NOT NULL
);
INSERT INTO search_version (v) VALUES (1);

CREATE OR REPLACE FUNCTION search_version_bump() RETURNS trigger LANGUAGE plpgsql AS $bump$
BEGIN
  UPDATE search_version SET v = v + 1;
  RETURN NULL;
END
$bump$;

CREATE TRIGGER search_version_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON search_words
  FOR EACH STATEMENT EXECUTE FUNCTION search_version_bump();
