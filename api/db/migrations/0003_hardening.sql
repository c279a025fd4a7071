-- Who reserved: caps on unpaid reservations per client address (hoarding), see lib/limits.ts.
ALTER TABLE sales ADD COLUMN client_address text;
CREATE INDEX sales_pending_address_idx ON sales (client_address) WHERE status = 'pending';
CREATE INDEX sales_pending_email_idx ON sales (lower(email)) WHERE status = 'pending';
-- The sweep deletes expired checkout sessions and old released sales.
CREATE INDEX checkout_sessions_expiry_idx ON checkout_sessions (expires_at);
CREATE INDEX sales_released_created_idx ON sales (created_at) WHERE status IN ('cancelled', 'declined', 'expired');
-- Staff list of payments that need a refund (refundRequiredSales).
CREATE INDEX sales_refund_required_idx ON sales (created_at) WHERE status = 'refund_required';
