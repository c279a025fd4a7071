-- Partners publish offers and redeem coupons; staff moderate. The organisation's fields the public
-- offer already shows stay where they are; the rest is what an invoice and a moderator need.
ALTER TABLE organizations ADD COLUMN tax_id text;
ALTER TABLE organizations ADD COLUMN address text NOT NULL DEFAULT '';
ALTER TABLE organizations ADD COLUMN province text;
ALTER TABLE organizations ADD COLUMN logo text;

-- Who may act for an organisation: partner accounts (0005_accounts) that are its members.
CREATE TABLE organization_members (
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX organization_members_user_idx ON organization_members (user_id);

-- draft → pending_review → active ↔ paused → archived; only staff move pending_review to active.
ALTER TABLE offers DROP CONSTRAINT offers_status_check;
ALTER TABLE offers ADD CONSTRAINT offers_status_check CHECK (status IN ('draft','pending_review','active','paused','archived'));
-- Why staff sent the offer back, shown to the partner until it is submitted again.
ALTER TABLE offers ADD COLUMN review_note text;
ALTER TABLE offers ADD COLUMN submitted_at timestamptz;
CREATE INDEX offers_organization_idx ON offers (organization_id, status);

-- Uploaded pictures, converted to WebP, kept in the database so every app process behind a load
-- balancer serves the same files without a shared disk.
CREATE TABLE media_files (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  content_type text NOT NULL,
  width integer NOT NULL,
  height integer NOT NULL,
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- The smaller renditions of an uploaded image ([{url, width, height}]), for srcset.
ALTER TABLE offer_images ADD COLUMN variants jsonb NOT NULL DEFAULT '[]';
ALTER TABLE offer_images ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();
-- One cover and one logo per offer: the database refuses a second.
CREATE UNIQUE INDEX offer_images_one_cover_idx ON offer_images (offer_id) WHERE cover;
CREATE UNIQUE INDEX offer_images_one_logo_idx ON offer_images (offer_id) WHERE logo;

-- A coupon is redeemed once; the conditional update on redeemed_at IS NULL is the guard.
ALTER TABLE coupons ADD COLUMN redeemed_at timestamptz;
ALTER TABLE coupons ADD COLUMN redeemed_by uuid REFERENCES users(id) ON DELETE SET NULL;

CREATE TABLE partner_leads (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_name text NOT NULL,
  contact_name text NOT NULL,
  email text NOT NULL,
  phone text NOT NULL,
  province text NOT NULL,
  category text NOT NULL,
  message text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'new' CHECK (status IN ('new','contacted','accepted','rejected')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX partner_leads_created_idx ON partner_leads (created_at DESC);
