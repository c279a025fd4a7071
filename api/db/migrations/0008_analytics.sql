-- The server-side purchase event. Same shape as the mail outbox (api/mail/outbox.ts):
-- written in the transaction of its cause, one row per cause, claimed with FOR UPDATE SKIP LOCKED.
-- Unlike mail, a resend is harmless (Amplitude drops a repeated insert_id), so a row abandoned by
-- a dead process goes back to the queue instead of failing.
CREATE TABLE analytics_outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  dedupe_key text NOT NULL UNIQUE,
  event jsonb NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  send_after timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz,
  last_status integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);

CREATE INDEX analytics_outbox_due ON analytics_outbox (send_after) WHERE status = 'queued';

-- The buyer's analytics consent at the moment of paying, and the browser's analytics device id
-- when there was one: without this row the purchase is never sent.
CREATE TABLE sale_analytics (
  sale_id uuid PRIMARY KEY REFERENCES sales (id) ON DELETE CASCADE,
  device_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
