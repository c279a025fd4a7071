CREATE TABLE organizations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  email text,
  phone text,
  website text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE offers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations(id),
  title text NOT NULL,
  summary text NOT NULL,
  description text NOT NULL DEFAULT '',
  conditions text NOT NULL DEFAULT '',
  category text NOT NULL CHECK (category IN ('leisure','entertainment','restaurants','health_and_beauty','services','family_plans','travel','product','training')),
  province text NOT NULL,
  address text NOT NULL DEFAULT '',
  latitude double precision,
  longitude double precision,
  offer_type text NOT NULL DEFAULT 'regular' CHECK (offer_type IN ('regular','subscription','direct','promo')),
  valid_from date,
  valid_until date,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('draft','active','archived')),
  rank integer NOT NULL DEFAULT 1000,
  -- Lower-cased and accent-free so that "cafe" finds "Café" on PGlite and PostgreSQL alike
  -- (unaccent is not available in the embedded build). Accents go first, both cases, because
  -- lower() leaves non-ASCII letters alone on a database created with the C locale.
  search_text text GENERATED ALWAYS AS (
    lower(translate(title || ' ' || summary,
      'áàäâãéèëêíìïîóòöôõúùüûñçÁÀÄÂÃÉÈËÊÍÌÏÎÓÒÖÔÕÚÙÜÛÑÇ',
      'aaaaaeeeeiiiiooooouuuuncAAAAAEEEEIIIIOOOOOUUUUNC'))
  ) STORED,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX offers_status_rank_idx ON offers (status, rank, created_at);
CREATE INDEX offers_status_category_idx ON offers (status, category, rank);
CREATE INDEX offers_status_province_idx ON offers (status, province, rank);

CREATE TABLE offer_images (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  offer_id uuid NOT NULL REFERENCES offers(id) ON DELETE CASCADE,
  image_url text NOT NULL,
  cover boolean NOT NULL DEFAULT false,
  logo boolean NOT NULL DEFAULT false,
  width integer NOT NULL,
  height integer NOT NULL,
  alt text NOT NULL DEFAULT '',
  position integer NOT NULL DEFAULT 0
);
CREATE INDEX offer_images_offer_idx ON offer_images (offer_id, position);

CREATE TABLE price_options (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  offer_id uuid NOT NULL REFERENCES offers(id) ON DELETE CASCADE,
  title text NOT NULL,
  actual_price numeric(10,2) NOT NULL CHECK (actual_price >= 0),
  regular_price numeric(10,2) NOT NULL CHECK (regular_price >= 0),
  -- Tickets still on sale: reservations take from it, expiry gives back, so it can never go below 0.
  available integer NOT NULL CHECK (available >= 0),
  per_customer integer CHECK (per_customer IS NULL OR per_customer > 0),
  position integer NOT NULL DEFAULT 0
);
CREATE INDEX price_options_offer_idx ON price_options (offer_id, position);
