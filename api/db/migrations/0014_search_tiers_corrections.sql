-- A search's first statement also corrects its misspellings: "masage" cost four statements
-- (tiers, corrections, tiers again, the page), now two, as any search. On PGlite every
-- statement is a turn of the server's one thread.
DROP FUNCTION offer_search_tiers(text[]);

-- How many active offers a search finds, by ranking tier, from search_words alone. `terms` holds
-- one entry per query word: its spellings separated by spaces ("spa termal termas balneario"),
-- each matching the vocabulary words it begins. Words no active offer has are left out; when
-- that leaves none, each typed word of at least `fuzzy_min` letters is read as the `corrections`
-- vocabulary words most like it (search_corrections(), 0013) and counted instead.
-- Answers `used`, the terms counted, in the same form, and `tiers`: `tiers[1]` the offers having
-- every used term, then `tiers[2 + j]` those with exactly j of them in the title (j = 0 … number
-- used). At most six terms (SEARCH_MAX_WORDS in lib/search.ts): h1…h6 hold the offers with at
-- least that many title hits, built one term at a time.
CREATE FUNCTION offer_search_tiers(terms text[], fuzzy_min integer, threshold real, corrections integer, OUT used text[], OUT tiers integer[])
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
  w record;
BEGIN
  FOR attempt IN 1..2 LOOP
    used := '{}';
    k := 0;
    h1 := '{}'; h2 := '{}'; h3 := '{}'; h4 := '{}'; h5 := '{}'; h6 := '{}';
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
      CONTINUE WHEN term_all = '{}';
      used := used || term;
      k := k + 1;
      every := CASE WHEN k = 1 THEN term_all ELSE every & term_all END;
      h6 := h6 | (h5 & term_title); h5 := h5 | (h4 & term_title); h4 := h4 | (h3 & term_title);
      h3 := h3 | (h2 & term_title); h2 := h2 | (h1 & term_title); h1 := h1 | term_title;
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
  IF k = 0 THEN RETURN; END IF;
  at_least := ARRAY[icount(every), icount(h1 & every), icount(h2 & every), icount(h3 & every), icount(h4 & every), icount(h5 & every), icount(h6 & every), 0];
  tiers := ARRAY[at_least[1]];
  FOR j IN 0..k LOOP
    tiers := tiers || (at_least[j + 1] - at_least[j + 2]);
  END LOOP;
END
$tiers$;

-- Statistics for the vocabulary, which 0013 created and filled: without them the planner
-- guessed at its size. (PostgreSQL's autovacuum keeps them; PGlite has none, and a vocabulary
-- grows slowly.)
ANALYZE search_words;
