-- What each member may do for its organisation (rules/partner-roles.ts). Everyone who was a member
-- before roles could do everything, so they stay owners. Safe to apply twice.
ALTER TABLE organization_members ADD COLUMN IF NOT EXISTS role text NOT NULL DEFAULT 'owner'
  CHECK (role IN ('owner', 'manager', 'cashier'));

-- An owner's invitation by email: it becomes a membership only when someone logged in with that
-- address accepts it, so an address is trusted only once its owner proved it.
CREATE TABLE IF NOT EXISTS member_invitations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'manager', 'cashier')),
  invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL DEFAULT now() + interval '14 days',
  accepted_at timestamptz,
  accepted_by uuid REFERENCES users(id) ON DELETE SET NULL
);
-- One open invitation per address and organisation: inviting again changes its role, not its link.
CREATE UNIQUE INDEX IF NOT EXISTS member_invitations_open ON member_invitations (organization_id, email) WHERE accepted_at IS NULL;
