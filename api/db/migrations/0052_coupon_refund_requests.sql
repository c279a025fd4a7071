-- Safe to run again (IF NOT EXISTS): an operator may re-apply the newest migration by hand.
-- «Solicitar devolución»: a buyer asks for one coupon's money back (rules/refunds.ts decides how).

-- While a request is open the coupon is held: the till's conditional update refuses a coupon
-- that is held, redeemed or refunded, and the request's refuses one that is redeemed, so on the
-- same row exactly one of the two wins. Staff refusing a request lets it go again.
ALTER TABLE coupons ADD COLUMN IF NOT EXISTS refund_requested_at timestamptz;

-- One request per coupon (asking again answers the same one). 'processing': the provider is being
-- asked; 'review': in the staff queue; 'refunded' and 'refused': what the buyer was told.
CREATE TABLE IF NOT EXISTS coupon_refund_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  coupon_id uuid NOT NULL UNIQUE REFERENCES coupons(id) ON DELETE CASCADE,
  sale_id uuid NOT NULL REFERENCES sales(id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('processing', 'review', 'refunded', 'refused')),
  -- The buyer's words for why it went to review or was refused.
  reason text NOT NULL DEFAULT '',
  -- What the provider or staff said (a refusal's code, an answer that never came).
  detail text,
  amount_cents integer NOT NULL CHECK (amount_cents >= 0),
  refunded_cents integer CHECK (refunded_cents IS NULL OR refunded_cents >= 0),
  requested_by uuid,
  decided_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS coupon_refund_requests_review_idx ON coupon_refund_requests (created_at) WHERE status IN ('review', 'processing');
CREATE INDEX IF NOT EXISTS coupon_refund_requests_sale_idx ON coupon_refund_requests (sale_id);
