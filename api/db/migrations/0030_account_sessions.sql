-- A session is one login on one device: the family of its rotating refresh tokens. Access tokens
-- name their session (claim sid) and the API looks it up on every authenticated request, so ending
-- a session (logout, «Dispositivos con sesión abierta», a password change, an erasure) ends its
-- access tokens at once too, not when they expire.
CREATE TABLE account_sessions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- The User-Agent of the login, as the person's browser sent it (the storefront forwards it).
  device text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  -- Moves with each rotation: the newest refresh token's expiry.
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX account_sessions_user_idx ON account_sessions (user_id) WHERE revoked_at IS NULL;

-- Every family already issued becomes a session; families of accounts whose address was never
-- proven end here (they could only come from an address nobody proved).
INSERT INTO account_sessions (id, user_id, created_at, last_used_at, expires_at, revoked_at)
SELECT r.family_id, r.user_id, min(r.created_at), max(coalesce(r.used_at, r.created_at)), max(r.expires_at),
       CASE WHEN bool_or(r.revoked_at IS NULL) AND bool_and(u.email_verified_at IS NOT NULL) THEN NULL ELSE coalesce(max(r.revoked_at), now()) END
FROM refresh_tokens r JOIN users u ON u.id = r.user_id
GROUP BY r.family_id, r.user_id;

-- Revocation lives on the session from now on; a used token remembers its successor, so a replay
-- inside the grace window gets that same successor instead of starting a second branch.
ALTER TABLE refresh_tokens DROP COLUMN revoked_at;
ALTER TABLE refresh_tokens ADD COLUMN replaced_by uuid;
ALTER TABLE refresh_tokens ADD CONSTRAINT refresh_tokens_session_fk FOREIGN KEY (family_id) REFERENCES account_sessions(id) ON DELETE CASCADE;

-- An address with too many wrong passwords in a row logs in only by code until its owner does so
-- (or resets the password). Keyed by address, whether or not it has an account, so the answer
-- never tells which addresses do.
CREATE TABLE password_lockouts (
  email text PRIMARY KEY CHECK (email = lower(email)),
  locked_at timestamptz NOT NULL DEFAULT now()
);
