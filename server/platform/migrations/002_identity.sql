-- One-time codes for sign-up and recovery (product.md#security-codes).
CREATE TABLE otp_challenges (
  token_hash text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('signup', 'recovery')),
  email text NOT NULL,
  user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  -- false when no code may ever pass: an unknown email (recovery) or an existing account (sign-up)
  deliverable boolean NOT NULL,
  payload jsonb,
  attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  last_sent_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE otp_sends (
  email text NOT NULL,
  purpose text NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX otp_sends_email ON otp_sends (email, purpose, sent_at);

CREATE TABLE reset_tokens (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);

CREATE TABLE login_links (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);

CREATE TABLE mailbox (
  id serial PRIMARY KEY,
  to_email text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  otp text,
  sent_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mailbox_to ON mailbox (to_email, sent_at DESC);
