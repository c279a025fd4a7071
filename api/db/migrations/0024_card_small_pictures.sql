-- Each picture of a card carries small_url: its smallest rendition when that is smaller than the
-- picture (uploads keep 800x500 and 400x250 in variants), else null. A phone shows a card's
-- picture 136 px wide and loaded the 800 px one; with srcset it loads the 400 px one.
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
           coalesce((SELECT ('[' || string_agg(row_to_json((SELECT img FROM (SELECT i.image_url, i.cover, i.logo, i.width, i.height, i.alt,
                                                                            (SELECT v->>'url' FROM jsonb_array_elements(i.variants) v
                                                                             WHERE (v->>'width')::int < i.width
                                                                             ORDER BY (v->>'width')::int LIMIT 1) AS small_url) img))::text,
                                               ',' ORDER BY i.cover DESC, i.position) || ']')::json
                     FROM offer_images i WHERE i.offer_id = o.id), '[]'::json) AS images
  ) card
  WHERE o.id = ANY(offer_ids)
  -- One order for every writer, so two statements refreshing the same heads cannot deadlock.
  ORDER BY o.id
  ON CONFLICT (offer_id) DO UPDATE SET head = EXCLUDED.head, rating_count = EXCLUDED.rating_count, rating_average = EXCLUDED.rating_average
$refresh$;

-- Written again into an empty table, as 0021 explains: rewritten in place, each head would leave a
-- dead copy behind that PGlite never vacuums.
TRUNCATE offer_card_heads;

-- The demo catalogue's photos have their 400x250 copies under /images/demo/400/ (the seed now
-- says so itself; databases seeded before did not). Its trigger writes these offers' heads anew.
UPDATE offer_images
SET variants = jsonb_build_array(jsonb_build_object('url', image_url, 'width', width, 'height', height),
                                 jsonb_build_object('url', '/images/demo/400/' || substr(image_url, length('/images/demo/') + 1), 'width', 400, 'height', 250))
WHERE image_url ~ '^/images/demo/[a-z0-9-]+\.webp$' AND NOT logo AND width = 800 AND height = 500 AND variants = '[]'::jsonb;

SELECT offer_card_heads_refresh(ARRAY(SELECT o.id FROM offers o WHERE NOT EXISTS (SELECT 1 FROM offer_card_heads h WHERE h.offer_id = o.id)));
