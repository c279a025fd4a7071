-- Cards written as compact JSON: json_build_object() puts a space on each side of every colon and
-- after every comma, and json_agg() a line break between elements. A listing page of 24 cards was
-- 31.1 KB, of which 2.6 KB were that whitespace; every API page carries it through the database,
-- the worker's message, gzip (the main thread's largest cost for a listing) and the client's parse.
-- The same values, keys and order: row_to_json() writes each value as json_build_object() does.
CREATE OR REPLACE FUNCTION offer_card_heads_refresh(offer_ids uuid[]) RETURNS void LANGUAGE sql AS $refresh$
  INSERT INTO offer_card_heads (offer_id, head, rating_count, rating_average)
  SELECT o.id, left(row_to_json(card)::text, -1), r.count, r.average
  FROM offers o
  JOIN organizations g ON g.id = o.organization_id
  CROSS JOIN LATERAL (SELECT count(*)::int AS count, round(avg(f.stars)::numeric, 1)::float8 AS average
                      FROM offer_feedback f WHERE f.offer_id = o.id) r
  CROSS JOIN LATERAL (
    SELECT o.id AS uuid, o.title, o.summary, o.category, o.province AS region, o.address, o.latitude, o.longitude,
           o.offer_type, o.valid_from, o.valid_until,
           (SELECT row_to_json(org) FROM (SELECT g.id AS uuid, g.name) org) AS organization,
           coalesce((SELECT ('[' || string_agg(row_to_json((SELECT img FROM (SELECT i.image_url, i.cover, i.logo, i.width, i.height, i.alt) img))::text,
                                               ',' ORDER BY i.cover DESC, i.position) || ']')::json
                     FROM offer_images i WHERE i.offer_id = o.id), '[]'::json) AS images
  ) card
  WHERE o.id = ANY(offer_ids)
  -- One order for every writer, so two statements refreshing the same heads cannot deadlock.
  ORDER BY o.id
  ON CONFLICT (offer_id) DO UPDATE SET head = EXCLUDED.head, rating_count = EXCLUDED.rating_count, rating_average = EXCLUDED.rating_average
$refresh$;

-- Every head is written again into an empty table: rewriting them in place would leave a dead
-- copy of each behind, which PGlite never vacuums (at 100,000 offers a page's cards were read
-- through twice the pages: listing 638 against 777 req/s before), and PostgreSQL's table kept
-- 193 MB where 137 MB had held them.
TRUNCATE offer_card_heads;
SELECT offer_card_heads_refresh(ARRAY(SELECT id FROM offers));

-- offer_cards() (0019) with the same separators: no space around colons and after commas.
CREATE OR REPLACE FUNCTION offer_cards(ids uuid[], min_ratings integer, active_only boolean) RETURNS text
  LANGUAGE plpgsql STABLE SET enable_bitmapscan = off AS $cards$
BEGIN
  RETURN (
    SELECT '[' || string_agg(h.head
             || ',"price_options":[' || coalesce((
                  SELECT string_agg('{"uuid":"' || p.id || '","title":' || to_json(p.title)
                                    || ',"actual_price":"' || p.actual_price || '","regular_price":"' || p.regular_price
                                    || '","available":' || p.available || ',"per_customer":' || coalesce(p.per_customer::text, 'null') || '}',
                                    ',' ORDER BY p.position)
                  FROM price_options p WHERE p.offer_id = h.offer_id), '')
             || '],"rating":' || CASE WHEN h.rating_count >= min_ratings
                                     THEN '{"average":' || coalesce(to_json(h.rating_average)::text, 'null') || ',"count":' || h.rating_count || '}'
                                     ELSE 'null' END
             || '}', ',' ORDER BY wanted.n) || ']'
    FROM unnest(ids) WITH ORDINALITY AS wanted(id, n)
    JOIN offer_card_heads h ON h.offer_id = wanted.id
    WHERE NOT active_only OR EXISTS (SELECT 1 FROM offers o WHERE o.id = h.offer_id AND o.status = 'active'));
END
$cards$;
