-- Safe to run again (IF NOT EXISTS): an operator may re-apply the newest migration by hand.
-- Reminders about unused coupons (api/services/reminders/): «Tu cupón caduca en N días» and
-- «Recuerda reservar». The pass walks in from offers whose validity ends soon and from recent
-- payments, never over every coupon: this index and sale_items_offer_idx (0040) are its ways in.
CREATE INDEX IF NOT EXISTS offers_valid_until_idx ON offers (valid_until) WHERE valid_until IS NOT NULL;

-- One row per coupon, kind and N (days before expiry, or days after paying): its key is what makes
-- a reminder once. 'due' rows wait to be claimed (FOR UPDATE SKIP LOCKED) and turned into mail;
-- 'queued' went to mail_outbox; 'skipped' was not sent (its buyer stopped that kind).
CREATE TABLE IF NOT EXISTS coupon_reminders (
  coupon_id uuid NOT NULL REFERENCES coupons(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('expiry', 'booking')),
  days integer NOT NULL CHECK (days > 0),
  status text NOT NULL DEFAULT 'due' CHECK (status IN ('due', 'queued', 'skipped')),
  created_at timestamptz NOT NULL DEFAULT now(),
  done_at timestamptz,
  PRIMARY KEY (coupon_id, kind, days)
);
CREATE INDEX IF NOT EXISTS coupon_reminders_due_idx ON coupon_reminders (created_at) WHERE status = 'due';

-- Addresses (lower-case) that asked, by the link in a reminder, to get no more of that kind.
CREATE TABLE IF NOT EXISTS reminder_stops (
  email text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('expiry', 'booking')),
  stopped_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (email, kind)
);
