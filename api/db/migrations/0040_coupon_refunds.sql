-- A refund is a fact with a time, like a redemption: a statement puts it in the period it
-- happened in. A sale that stops being paid refunds its coupons (whoever's code moves it).
ALTER TABLE coupons ADD COLUMN refunded_at timestamptz;
UPDATE coupons c SET refunded_at = coalesce(s.paid_at, s.created_at)
  FROM sale_items si JOIN sales s ON s.id = si.sale_id
  WHERE si.id = c.sale_item_id AND s.status <> 'paid';

CREATE FUNCTION coupons_refunded_with_sale() RETURNS trigger LANGUAGE plpgsql AS $refund$
BEGIN
  UPDATE coupons c SET refunded_at = now()
    FROM sale_items si
    WHERE si.sale_id = NEW.id AND c.sale_item_id = si.id AND c.refunded_at IS NULL;
  RETURN NULL;
END
$refund$;
CREATE TRIGGER sales_refund_coupons AFTER UPDATE OF status ON sales
  FOR EACH ROW WHEN (OLD.status = 'paid' AND NEW.status <> 'paid') EXECUTE FUNCTION coupons_refunded_with_sale();

-- An organisation's coupons start from its offers' sale items: «Ventas», «Mis ofertas», the
-- public «N compradas» and statements all walk offer → sale items → coupons.
CREATE INDEX sale_items_offer_idx ON sale_items (offer_id);
