-- Accounts: customers, partners and staff. Email is the identity, stored lower-case; a person
-- who erases their account loses this row, and their sales keep only an anonymised address.
CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL UNIQUE CHECK (email = lower(email)),
  password_hash text,
  is_active boolean NOT NULL DEFAULT true,
  role text NOT NULL DEFAULT 'customer' CHECK (role IN ('customer','partner','staff')),
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  email_verified_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_login_at timestamptz
);

-- Refresh tokens rotate: each use marks its row used and issues a successor in the same family.
-- A used token that comes back (stolen and replayed) revokes the whole family.
CREATE TABLE refresh_tokens (
  jti uuid PRIMARY KEY,
  family_id uuid NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id);

-- One-time codes sent by mail: login, activation, password reset, new email. Only a hash is kept.
CREATE TABLE login_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL CHECK (email = lower(email)),
  purpose text NOT NULL CHECK (purpose IN ('login','activation','reset_password','reset_email')),
  code_hash text NOT NULL,
  user_id uuid REFERENCES users(id) ON DELETE CASCADE,
  new_email text,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX login_codes_email_idx ON login_codes (email, purpose, created_at DESC);

-- A sale belongs to the account that bought it, or to a guest email until that email is proven.
ALTER TABLE sales ADD COLUMN user_id uuid REFERENCES users(id) ON DELETE SET NULL;
CREATE INDEX sales_user_idx ON sales (user_id, created_at DESC);

CREATE TABLE favorites (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  offer_id uuid NOT NULL REFERENCES offers(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, offer_id)
);

-- The logged-in customer's cart, the same shape as the cart cookie, so it follows them between devices.
CREATE TABLE customer_carts (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  cart jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A client without cookies (a mobile app) keeps a cart and favourites under an anonymous token;
-- they merge into the account at login.
CREATE TABLE anonymous_sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  favorites jsonb NOT NULL DEFAULT '[]',
  cart jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  merged_into uuid REFERENCES users(id) ON DELETE SET NULL
)
