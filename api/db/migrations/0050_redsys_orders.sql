-- Redsys knows a payment only by its order number (Ds_Merchant_Order: 4 to 12 characters, the
-- first 4 digits), never by our uuids: each transaction gets one of its own (a new one when the
-- buyer switches between card and Bizum), and what Redsys signed about it is kept here
-- (docs/decisions/040-redsys-orders-and-notifications.md).
CREATE TABLE IF NOT EXISTS redsys_orders (
  order_number text PRIMARY KEY CHECK (order_number ~ '^[0-9]{4}[0-9A-Za-z]{0,8}$'),
  transaction_id uuid NOT NULL REFERENCES payment_transactions(id) ON DELETE CASCADE,
  pay_method text NOT NULL CHECK (pay_method IN ('card','bizum')),
  -- The signed request's Ds_MerchantParameters, as the buyer's browser posts it to Redsys.
  merchant_parameters text NOT NULL,
  -- Redsys's signed word about the payment (its notification, or the buyer's signed return):
  -- Ds_Response 0–99 authorised, 9915 cancelled by the buyer, anything else from 100 up denied.
  response_code integer,
  amount_cents integer,
  currency text,
  authorisation_code text,
  notified_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS redsys_orders_transaction_idx ON redsys_orders (transaction_id, created_at);
