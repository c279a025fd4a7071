-- One row per message, written in the same transaction as its cause; the worker sends it later.
-- 'skipped': the template found at send time that the message no longer applies (unsubscribed).
-- dedupe_key names the cause ("purchase:<sale>", "digest:<run>:<email>"), so a cause queues once.
CREATE TABLE mail_outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL,
  recipient text NOT NULL,
  dedupe_key text NOT NULL UNIQUE,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued','sending','sent','failed','skipped')),
  attempts integer NOT NULL DEFAULT 0,
  send_after timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz,
  last_error text,
  message_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (send_after) WHERE status = 'queued';
CREATE INDEX mail_outbox_claimed_idx ON mail_outbox (claimed_until) WHERE status = 'sending';
CREATE INDEX mail_outbox_recipient_idx ON mail_outbox (recipient, kind);

-- Proof of marketing consent, keyed by address (lower-case): when, and where it was given.
-- Unsubscribing keeps the row; only a new consent clears unsubscribed_at.
CREATE TABLE mail_subscriptions (
  email text PRIMARY KEY,
  consented_at timestamptz NOT NULL,
  consent_source text NOT NULL,
  unsubscribed_at timestamptz
);

-- One rating per buyer (email) and offer: a later rating replaces the earlier one.
CREATE TABLE offer_feedback (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  offer_id uuid NOT NULL REFERENCES offers(id) ON DELETE CASCADE,
  email text NOT NULL,
  stars integer NOT NULL CHECK (stars BETWEEN 1 AND 5),
  comment text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (offer_id, email)
);

-- The scheduled digest runs once per period, whichever process gets there first.
CREATE TABLE digest_runs (
  period text PRIMARY KEY,
  started_at timestamptz NOT NULL DEFAULT now()
);
