-- What a partner is owed, the terms: its legal name for invoices, the moment a coupon becomes
-- payable, dated commission rates, and the IBAN payouts go to.

-- The name on invoices («Restaurante La Barca S.L.»); the name buyers see may be a brand.
ALTER TABLE organizations ADD COLUMN legal_name text;
-- Which fact makes a coupon payable to the partner (rules/payable.ts, ADR 035).
ALTER TABLE organizations ADD COLUMN payable_on text NOT NULL DEFAULT 'redeemed'
  CHECK (payable_on IN ('sold', 'redeemed', 'expiry'));

-- Commission rates, dated: a coupon pays the rate in force on the Madrid day it was sold, the
-- newest row of that day winning. Rows are added, never edited: a correction is a new row.
CREATE TABLE commission_rates (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  valid_from date NOT NULL,
  percent_bp integer NOT NULL CHECK (percent_bp BETWEEN 0 AND 10000),
  fixed_cents integer NOT NULL DEFAULT 0 CHECK (fixed_cents BETWEEN 0 AND 100000),
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX commission_rates_organization_idx ON commission_rates (organization_id, valid_from DESC, created_at DESC);

-- Where payouts go. Added, never edited (a changed IBAN is how payouts get stolen: each change
-- stays on record, with who made it); the newest is the one in use.
CREATE TABLE payout_accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  iban text NOT NULL CHECK (iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$'),
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX payout_accounts_organization_idx ON payout_accounts (organization_id, created_at DESC);
