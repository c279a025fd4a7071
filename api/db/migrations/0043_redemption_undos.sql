-- A redemption undone at the till: who redeemed it and when, who undid it and when. The coupon
-- itself goes back to unredeemed; this row keeps the record. Safe to apply twice.
CREATE TABLE IF NOT EXISTS redemption_undos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  coupon_id uuid NOT NULL REFERENCES coupons(id) ON DELETE CASCADE,
  redeemed_at timestamptz NOT NULL,
  redeemed_by uuid,
  undone_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  undone_by uuid NOT NULL
);
CREATE INDEX IF NOT EXISTS redemption_undos_coupon ON redemption_undos (coupon_id);
