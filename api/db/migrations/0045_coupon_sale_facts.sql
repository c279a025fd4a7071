-- Safe to run again (IF NOT EXISTS, OR REPLACE): an operator may re-apply the newest migration by hand.
-- «Ventas» of a busy month reads one organisation's coupons by the day they were paid. Walking
-- offers → sale items → sales for 20,000 coupons cost ~200 ms a query, so each coupon carries the
-- facts it is counted by, copied from its sale when it is written: whose offer, which offer, when
-- paid and at what price. None of them changes once the sale is paid; a refund is `refunded_at`.
ALTER TABLE coupons
  ADD COLUMN IF NOT EXISTS organization_id uuid,
  ADD COLUMN IF NOT EXISTS offer_id uuid,
  ADD COLUMN IF NOT EXISTS paid_at timestamptz,
  ADD COLUMN IF NOT EXISTS paid_unit_cents integer;

-- A coupon written for a sale that is no longer paid is refunded from the start, so `refunded_at`
-- alone says refunded (0040 marks those whose sale stops being paid later).
CREATE OR REPLACE FUNCTION coupons_sale_facts() RETURNS trigger LANGUAGE plpgsql AS $facts$
BEGIN
  SELECT o.organization_id, si.offer_id, s.paid_at, si.paid_unit_cents,
         CASE WHEN s.paid_at IS NOT NULL AND s.status <> 'paid' THEN coalesce(NEW.refunded_at, s.paid_at) ELSE NEW.refunded_at END
    INTO NEW.organization_id, NEW.offer_id, NEW.paid_at, NEW.paid_unit_cents, NEW.refunded_at
    FROM sale_items si JOIN sales s ON s.id = si.sale_id JOIN offers o ON o.id = si.offer_id
    WHERE si.id = NEW.sale_item_id;
  RETURN NEW;
END
$facts$;
DROP TRIGGER IF EXISTS coupons_sale_facts ON coupons;
CREATE TRIGGER coupons_sale_facts BEFORE INSERT ON coupons FOR EACH ROW EXECUTE FUNCTION coupons_sale_facts();

-- Capture writes coupons after the sale is paid; a sale paid after its coupons were written
-- (fixtures, imports) passes the moment on.
CREATE OR REPLACE FUNCTION coupons_paid_with_sale() RETURNS trigger LANGUAGE plpgsql AS $paid$
BEGIN
  UPDATE coupons c SET paid_at = NEW.paid_at
    FROM sale_items si
    WHERE si.sale_id = NEW.id AND c.sale_item_id = si.id;
  RETURN NULL;
END
$paid$;
DROP TRIGGER IF EXISTS sales_paid_coupons ON sales;
CREATE TRIGGER sales_paid_coupons AFTER UPDATE OF paid_at ON sales
  FOR EACH ROW WHEN (OLD.paid_at IS DISTINCT FROM NEW.paid_at) EXECUTE FUNCTION coupons_paid_with_sale();

UPDATE coupons c SET organization_id = o.organization_id, offer_id = si.offer_id, paid_at = s.paid_at,
       paid_unit_cents = si.paid_unit_cents,
       refunded_at = CASE WHEN s.paid_at IS NOT NULL AND s.status <> 'paid' THEN coalesce(c.refunded_at, s.paid_at) ELSE c.refunded_at END
  FROM sale_items si JOIN sales s ON s.id = si.sale_id JOIN offers o ON o.id = si.offer_id
  WHERE si.id = c.sale_item_id AND (c.organization_id IS NULL OR c.paid_unit_cents IS NULL);

-- A partner's month, newest first (its page is the index's first rows), and staff's across partners.
CREATE INDEX IF NOT EXISTS coupons_organization_paid_idx ON coupons (organization_id, paid_at DESC, code);
CREATE INDEX IF NOT EXISTS coupons_paid_idx ON coupons (paid_at DESC, code);
