-- «Cerca de aquí» on an offer's page ordered every active offer by its distance to this one: at
-- 100,000 offers a scan of the whole table, ~120 ms of PGlite's single backend for each offer page
-- not in the storefront's cache. A GiST index on the position answers the nearest ones by walking
-- the tree (<-> on points is PostgreSQL's own KNN, no extension). It orders by plain degrees;
-- nearbyOffers() then ranks its candidates by the shop's distance, which shrinks longitude by the
-- cosine of the latitude, and asks for more when the last candidate could still be beaten.
CREATE INDEX offers_nearby_idx ON offers USING gist (point(longitude, latitude))
  WHERE status = 'active' AND latitude IS NOT NULL AND longitude IS NOT NULL;
