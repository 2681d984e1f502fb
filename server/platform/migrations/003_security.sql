-- Issue 11: sessions that a password change or reset can end, throttling kept in the database,
-- and code sends counted per client as well as per email.

CREATE TABLE sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX sessions_user ON sessions (user_id);

ALTER TABLE refresh_tokens ADD COLUMN session_id uuid REFERENCES sessions (id) ON DELETE CASCADE;

-- One row per throttled key (an account's email, a client address, or the pair): growing delays.
CREATE TABLE auth_throttle (
  key text PRIMARY KEY,
  failures integer NOT NULL DEFAULT 0,
  last_failure_at timestamptz NOT NULL DEFAULT now(),
  blocked_until timestamptz
);

ALTER TABLE otp_sends ADD COLUMN client text NOT NULL DEFAULT '';
CREATE INDEX otp_sends_client ON otp_sends (email, purpose, client, sent_at);

-- Replaced by auth_throttle (the old table locked an account for an hour after 100 failures).
DROP TABLE sign_in_failures;
