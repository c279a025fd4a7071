-- Each offer's card is kept ready, except its price options: offer_cards() (0012) rebuilt every
-- card of a page from five tables on every request. At 100,000 offers that was most of a listing's
-- time in the database: on PGlite, which runs on the server's own thread, 1.02 ms of a page's
-- 24 cards against 0.52 ms with the ready part (measured alternately, same page).
--
-- `head` is the card's JSON object up to its price options, without the closing brace; the rating
-- is kept as its count and average, because whether it shows depends on offer_cards()' min_ratings.
-- The price options stay live: every sale changes `available`, and a sale must lock nothing more
-- than it did. Statement triggers (as offer_counts, 0006) rebuild the heads of the offers a
-- statement touched, and only when something on the card changed: a sale, a new rank or a status
-- leaves them alone.
CREATE TABLE offer_card_heads (
  offer_id uuid PRIMARY KEY REFERENCES offers(id) ON DELETE CASCADE,
  head text NOT NULL,
  rating_count integer NOT NULL,
  rating_average double precision
);

-- Money stays a string ("12.50"), as in the contract; images come cover first, then by position.
CREATE OR REPLACE FUNCTION offer_card_heads_refresh(offer_ids uuid[]) RETURNS void LANGUAGE sql AS $refresh$
  INSERT INTO offer_card_heads (offer_id, head, rating_count, rating_average)
  SELECT o.id,
         left(json_build_object(
           'uuid', o.id, 'title', o.title, 'summary', o.summary, 'category', o.category, 'region', o.province,
           'address', o.address, 'latitude', o.latitude, 'longitude', o.longitude, 'offer_type', o.offer_type,
           'valid_from', o.valid_from, 'valid_until', o.valid_until,
           'organization', json_build_object('uuid', g.id, 'name', g.name),
           'images', coalesce((
             SELECT json_agg(json_build_object('image_url', i.image_url, 'cover', i.cover, 'logo', i.logo, 'width', i.width, 'height', i.height, 'alt', i.alt)
                             ORDER BY i.cover DESC, i.position)
             FROM offer_images i WHERE i.offer_id = o.id), '[]'::json))::text, -1),
         r.count, r.average
  FROM offers o
  JOIN organizations g ON g.id = o.organization_id
  CROSS JOIN LATERAL (SELECT count(*)::int AS count, round(avg(f.stars)::numeric, 1)::float8 AS average
                      FROM offer_feedback f WHERE f.offer_id = o.id) r
  WHERE o.id = ANY(offer_ids)
  -- One order for every writer, so two statements refreshing the same heads cannot deadlock.
  ORDER BY o.id
  ON CONFLICT (offer_id) DO UPDATE SET head = EXCLUDED.head, rating_count = EXCLUDED.rating_count, rating_average = EXCLUDED.rating_average
$refresh$;

CREATE OR REPLACE FUNCTION offer_card_heads_apply() RETURNS trigger LANGUAGE plpgsql AS $apply$
BEGIN
  IF TG_TABLE_NAME = 'offers' THEN
    IF TG_OP = 'INSERT' THEN
      PERFORM offer_card_heads_refresh(ARRAY(SELECT n.id FROM new_rows n));
    ELSE
      PERFORM offer_card_heads_refresh(ARRAY(
        SELECT n.id FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (o.title, o.summary, o.category, o.province, o.address, o.latitude, o.longitude, o.offer_type, o.valid_from, o.valid_until, o.organization_id)
              IS DISTINCT FROM (n.title, n.summary, n.category, n.province, n.address, n.latitude, n.longitude, n.offer_type, n.valid_from, n.valid_until, n.organization_id)));
    END IF;
  ELSIF TG_TABLE_NAME = 'organizations' THEN
    PERFORM offer_card_heads_refresh(ARRAY(
      SELECT f.id FROM old_rows o JOIN new_rows n ON n.id = o.id JOIN offers f ON f.organization_id = n.id
      WHERE o.name IS DISTINCT FROM n.name));
  -- offer_images and offer_feedback: whatever changed, the offers it belongs or belonged to.
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM offer_card_heads_refresh(ARRAY(SELECT DISTINCT n.offer_id FROM new_rows n));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM offer_card_heads_refresh(ARRAY(SELECT DISTINCT o.offer_id FROM old_rows o));
  ELSE
    PERFORM offer_card_heads_refresh(ARRAY(SELECT o.offer_id FROM old_rows o UNION SELECT n.offer_id FROM new_rows n));
  END IF;
  RETURN NULL;
END
$apply$;

CREATE TRIGGER offer_card_heads_insert AFTER INSERT ON offers REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION offer_card_heads_apply();
CREATE TRIGGER offer_card_heads_update AFTER UPDATE ON offers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION offer_card_heads_apply();
CREATE TRIGGER offer_card_heads_update AFTER UPDATE ON organizations REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION offer_card_heads_apply();
CREATE TRIGGER offer_card_heads_insert AFTER INSERT ON offer_images REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION offer_card_heads_apply();
CREATE TRIGGER offer_card_heads_update AFTER UPDATE ON offer_images REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION offer_card_heads_apply();
CREATE TRIGGER offer_card_heads_delete AFTER DELETE ON offer_images REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION offer_card_heads_apply();
CREATE TRIGGER offer_card_heads_insert AFTER INSERT ON offer_feedback REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION offer_card_heads_apply();
CREATE TRIGGER offer_card_heads_update AFTER UPDATE ON offer_feedback REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION offer_card_heads_apply();
CREATE TRIGGER offer_card_heads_delete AFTER DELETE ON offer_feedback REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION offer_card_heads_apply();

SELECT offer_card_heads_refresh(ARRAY(SELECT id FROM offers));

-- The same cards as before (0012), from the heads and the live price options; `active_only` skips
-- offers no longer on sale. Text, not json_agg: the heads are already text.
CREATE OR REPLACE FUNCTION offer_cards(ids uuid[], min_ratings integer, active_only boolean) RETURNS text
  LANGUAGE plpgsql STABLE SET enable_bitmapscan = off AS $cards$
BEGIN
  RETURN (
    SELECT '[' || string_agg(h.head
             || ', "price_options" : ' || coalesce((
                  SELECT json_agg(json_build_object('uuid', p.id, 'title', p.title, 'actual_price', p.actual_price::text, 'regular_price', p.regular_price::text,
                                                    'available', p.available, 'per_customer', p.per_customer)
                                  ORDER BY p.position)
                  FROM price_options p WHERE p.offer_id = h.offer_id), '[]'::json)::text
             || ', "rating" : ' || CASE WHEN h.rating_count >= min_ratings
                                        THEN json_build_object('average', h.rating_average, 'count', h.rating_count)::text
                                        ELSE 'null' END
             || '}', ', ' ORDER BY wanted.n) || ']'
    FROM unnest(ids) WITH ORDINALITY AS wanted(id, n)
    JOIN offer_card_heads h ON h.offer_id = wanted.id
    WHERE NOT active_only OR EXISTS (SELECT 1 FROM offers o WHERE o.id = h.offer_id AND o.status = 'active'));
END
$cards$;
