CREATE TABLE promo_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  code text NOT NULL UNIQUE,
  discount_type text NOT NULL CHECK (discount_type IN ('percent','amount','fixed_price')),
  discount_value text NOT NULL,
  offer_id uuid REFERENCES offers(id) ON DELETE CASCADE,
  valid_from timestamptz,
  valid_until timestamptz,
  max_uses integer CHECK (max_uses IS NULL OR max_uses >= 0),
  per_customer_limit integer CHECK (per_customer_limit IS NULL OR per_customer_limit > 0),
  used_count integer NOT NULL DEFAULT 0 CHECK (used_count >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A validated order waiting to become a sale; the token is what the storefront carries.
CREATE TABLE checkout_sessions (
  token text PRIMARY KEY,
  email text NOT NULL,
  items jsonb NOT NULL,
  checkout_data jsonb NOT NULL,
  total_cents integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);

CREATE TABLE sales (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  session_token text NOT NULL UNIQUE,
  email text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending','paid','cancelled','declined','expired','refund_required')),
  provider text NOT NULL,
  total_cents integer NOT NULL CHECK (total_cents >= 0),
  currency text NOT NULL DEFAULT 'EUR',
  checkout_data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  paid_at timestamptz
);
CREATE INDEX sales_pending_expiry_idx ON sales (expires_at) WHERE status = 'pending';
CREATE INDEX sales_email_idx ON sales (lower(email), status);

CREATE TABLE sale_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  sale_id uuid NOT NULL REFERENCES sales(id) ON DELETE CASCADE,
  offer_id uuid NOT NULL REFERENCES offers(id),
  price_option_id uuid NOT NULL REFERENCES price_options(id),
  quantity integer NOT NULL CHECK (quantity > 0),
  unit_price_cents integer NOT NULL,
  paid_unit_cents integer NOT NULL,
  promo_code text,
  slot_id text,
  for_present boolean NOT NULL DEFAULT false
);
CREATE INDEX sale_items_sale_idx ON sale_items (sale_id);
CREATE INDEX sale_items_option_idx ON sale_items (price_option_id);

CREATE TABLE promo_code_uses (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  promo_code_id uuid NOT NULL REFERENCES promo_codes(id) ON DELETE CASCADE,
  sale_id uuid NOT NULL REFERENCES sales(id) ON DELETE CASCADE,
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (promo_code_id, sale_id)
);
CREATE INDEX promo_code_uses_email_idx ON promo_code_uses (promo_code_id, lower(email));

CREATE TABLE payment_transactions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  sale_id uuid NOT NULL REFERENCES sales(id) ON DELETE CASCADE,
  provider text NOT NULL,
  provider_ref text,
  amount_cents integer NOT NULL,
  currency text NOT NULL DEFAULT 'EUR',
  status text NOT NULL CHECK (status IN ('created','approved','declined','cancelled','captured')),
  redirect_url text,
  return_url text NOT NULL,
  cancel_url text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_transactions_sale_idx ON payment_transactions (sale_id);
CREATE UNIQUE INDEX payment_transactions_ref_idx ON payment_transactions (provider, provider_ref) WHERE provider_ref IS NOT NULL;

CREATE TABLE coupons (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  sale_item_id uuid NOT NULL REFERENCES sale_items(id) ON DELETE CASCADE,
  code text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX coupons_item_idx ON coupons (sale_item_id);

-- Providers resend webhooks; one row per event makes the second delivery a no-op.
CREATE TABLE webhook_events (
  provider text NOT NULL,
  event_id text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);
