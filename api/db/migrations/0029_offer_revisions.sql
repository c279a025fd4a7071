-- A change to the words or prices of an offer staff already approved waits here for staff, while
-- the approved version stays on sale unchanged (lib/offer-revisions.ts). `changes` holds only what
-- differs from the live offer: {title?, summary?, description?, conditions?, price_options?: [...]}.
CREATE TABLE offer_revisions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  offer_id uuid NOT NULL REFERENCES offers(id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','approved','rejected','withdrawn')),
  changes jsonb NOT NULL,
  submitted_by uuid REFERENCES users(id) ON DELETE SET NULL,
  submitted_at timestamptz NOT NULL DEFAULT now(),
  reviewed_by uuid REFERENCES users(id) ON DELETE SET NULL,
  reviewed_at timestamptz,
  review_note text
);
-- One change waiting per offer: a new one from its partner replaces it.
CREATE UNIQUE INDEX offer_revisions_one_pending_idx ON offer_revisions (offer_id) WHERE status = 'pending';
-- Staff's queue, oldest first.
CREATE INDEX offer_revisions_queue_idx ON offer_revisions (submitted_at, id) WHERE status = 'pending';
CREATE INDEX offer_revisions_offer_idx ON offer_revisions (offer_id, submitted_at DESC);
