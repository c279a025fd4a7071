-- offer_search_tiers() as in 0026, but a title hit is the word the shopper typed, not one of its
-- synonyms (rules/search.ts): «spa» puts an offer with «spa» in its title above a thermal circuit
-- that has «termal» and «masaje» in its title but never says spa. Synonyms still find offers: they
-- rank with the offers that have the word in the text only. The storefront's tier queries
-- (tierQuery, searchPasses in api/services/offers/search.ts) count title hits the same way.
-- CREATE OR REPLACE: safe to run again.
CREATE OR REPLACE FUNCTION offer_search_tiers(terms text[], fuzzy_min integer, threshold real, corrections integer, OUT used text[], OUT tiers integer[], OUT active integer)
  LANGUAGE plpgsql STABLE AS $tiers$
DECLARE
  every integer[];
  term_all integer[];
  term_title integer[];
  h1 integer[]; h2 integer[]; h3 integer[]; h4 integer[]; h5 integer[]; h6 integer[];
  at_least integer[];
  k integer;
  term text;
  spelling text;
  first_spelling boolean;
  w record;
BEGIN
  FOR attempt IN 1..2 LOOP
    used := '{}';
    k := 0;
    h1 := '{}'; h2 := '{}'; h3 := '{}'; h4 := '{}'; h5 := '{}'; h6 := '{}';
    FOREACH term IN ARRAY terms LOOP
      term_all := '{}';
      term_title := '{}';
      first_spelling := true;
      FOREACH spelling IN ARRAY string_to_array(term, ' ') LOOP
        -- A range of the primary key: the words that begin with this spelling.
        FOR w IN SELECT s.offers, s.title_offers FROM search_words s
                 WHERE s.word >= spelling AND s.word < spelling || chr(1114111) AND starts_with(s.word, spelling) LOOP
          term_all := term_all | w.offers;
          -- A typed word's synonyms count anywhere, but only the word typed counts in the title;
          -- the corrections of a misspelling (attempt 2) are all guesses at the word meant.
          IF first_spelling OR attempt = 2 THEN
            term_title := term_title | w.title_offers;
          END IF;
        END LOOP;
        first_spelling := false;
      END LOOP;
      CONTINUE WHEN term_all = '{}';
      used := used || term;
      k := k + 1;
      every := CASE WHEN k = 1 THEN term_all ELSE every & term_all END;
      -- Level j can only fill from the k-th term on: the levels above stay empty, uncopied.
      IF k >= 6 THEN h6 := h6 | (h5 & term_title); END IF;
      IF k >= 5 THEN h5 := h5 | (h4 & term_title); END IF;
      IF k >= 4 THEN h4 := h4 | (h3 & term_title); END IF;
      IF k >= 3 THEN h3 := h3 | (h2 & term_title); END IF;
      IF k >= 2 THEN h2 := h2 | (h1 & term_title); END IF;
      h1 := h1 | term_title;
    END LOOP;
    EXIT WHEN k > 0 OR attempt = 2;
    -- No word is known: the misspelling pass. Its corrections are vocabulary words, so known.
    terms := ARRAY(SELECT array_to_string(c.words, ' ')
                   FROM unnest(terms) WITH ORDINALITY AS t(term, n)
                   CROSS JOIN LATERAL (SELECT search_corrections(split_part(t.term, ' ', 1), threshold, corrections) AS words) c
                   WHERE length(split_part(t.term, ' ', 1)) >= fuzzy_min AND cardinality(c.words) > 0
                   ORDER BY t.n);
  END LOOP;
  tiers := '{}';
  SELECT coalesce((SELECT c.n FROM offer_counts c WHERE c.category = '' AND c.province = ''), 0) INTO active;
  IF k = 0 THEN RETURN; END IF;
  at_least := ARRAY[icount(every)];
  FOR j IN 1..k LOOP
    at_least := at_least || icount(every & CASE j WHEN 1 THEN h1 WHEN 2 THEN h2 WHEN 3 THEN h3 WHEN 4 THEN h4 WHEN 5 THEN h5 ELSE h6 END);
  END LOOP;
  at_least := at_least || 0;
  tiers := ARRAY[at_least[1]];
  FOR j IN 0..k LOOP
    tiers := tiers || (at_least[j + 1] - at_least[j + 2]);
  END LOOP;
END
$tiers$;
