-- A sale whose money went back to the buyer through its provider is «refunded».
ALTER TABLE sales DROP CONSTRAINT IF EXISTS sales_status_check;
ALTER TABLE sales ADD CONSTRAINT sales_status_check
  CHECK (status IN ('pending','paid','cancelled','declined','expired','refund_required','refunded'));

-- Every refund asked of a provider, before it is asked: a request that never got its answer is
-- still on record (status unknown) and staff check the provider's panel before another one.
CREATE TABLE IF NOT EXISTS sale_refunds (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  sale_id uuid NOT NULL REFERENCES sales(id) ON DELETE CASCADE,
  provider text NOT NULL,
  -- What was asked (null: all that was captured) and what the provider gave back.
  requested_cents integer CHECK (requested_cents IS NULL OR requested_cents > 0),
  refunded_cents integer CHECK (refunded_cents IS NULL OR refunded_cents >= 0),
  status text NOT NULL CHECK (status IN ('pending','refunded','refused','unknown')),
  reason text NOT NULL,
  detail text,
  requested_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS sale_refunds_sale_idx ON sale_refunds (sale_id);
-- One refund in flight per sale: a double click or two staff members cannot send two.
CREATE UNIQUE INDEX IF NOT EXISTS sale_refunds_in_flight_idx ON sale_refunds (sale_id) WHERE status = 'pending';
