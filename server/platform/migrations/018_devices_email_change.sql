-- Issue 36, part 1: the viewer's signed-in devices and a change of email address.
--
-- A session remembers the device it was opened on (the browser's User-Agent, the client's address, the
-- country a trusted proxy named, if any), when its tokens were last issued (sign-in, or fresh tokens for
-- the same session) and when it was last used (written at most once a minute, never on every read).
ALTER TABLE sessions
  ADD COLUMN user_agent text,
  ADD COLUMN client_address text,
  ADD COLUMN place text,
  ADD COLUMN tokens_issued_at timestamptz,
  ADD COLUMN last_used_at timestamptz;
UPDATE sessions SET tokens_issued_at = created_at, last_used_at = created_at;
CREATE INDEX sessions_user_open ON sessions (user_id) WHERE revoked_at IS NULL;

-- The code sent to a new address is a one-time code like sign-up's (server/identity/codes.ts).
ALTER TABLE otp_challenges DROP CONSTRAINT otp_challenges_purpose_check;
ALTER TABLE otp_challenges ADD CONSTRAINT otp_challenges_purpose_check CHECK (purpose IN ('signup', 'recovery', 'email_change'));

-- "This wasn't me": the link mailed to the old address after a change. Valid 7 days, single use; it
-- restores `old_email` and ends every session of the account.
CREATE TABLE email_change_undos (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  old_email text NOT NULL,
  new_email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);
CREATE INDEX email_change_undos_user ON email_change_undos (user_id);
CREATE INDEX email_change_undos_old_email ON email_change_undos (old_email) WHERE consumed_at IS NULL;
