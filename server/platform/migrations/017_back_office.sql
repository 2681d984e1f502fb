-- The back office (issue 35, docs/product.md#back-office, docs/operations.md#back-office): operators
-- with a role and a second factor, their short sessions, the append-only audit log of every operator
-- action, webhooks and mails as received and sent (for the viewer's timeline), dunning an operator
-- stopped, and voucher campaigns.

/* ------------------------------------------------------------------ operators */

-- An account with a role is an operator. Granted by `npm run ops:grant` or an admin.
CREATE TABLE operator_roles (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('support', 'finance', 'admin')),
  -- Who granted it: an operator's email, or 'cli'.
  granted_by text NOT NULL,
  granted_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- The TOTP secret (RFC 6238: SHA1, 6 digits, 30 s), encrypted with a key derived from JWT_SECRET
-- (AES-256-GCM). Unconfirmed while confirmed_at is null (a new enrolment replaces it). A code's time
-- step is used once: last_used_step.
CREATE TABLE operator_totp (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret_encrypted text NOT NULL,
  confirmed_at timestamptz,
  last_used_step bigint,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- Ten single-use recovery codes per enrolment (hashed).
CREATE TABLE operator_recovery_codes (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, code_hash)
);

-- Ops sessions: an opaque token (stored hashed), idle 15 minutes, at most 8 hours, tied to the viewer
-- session it was opened from (that session ending ends it).
CREATE TABLE ops_sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  viewer_session_id uuid REFERENCES sessions (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  last_used_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  client text,
  user_agent text
);
CREATE INDEX ops_sessions_user ON ops_sessions (user_id) WHERE revoked_at IS NULL;

/* ------------------------------------------------------------------ the audit log */

-- Every operator action, written in the action's own transaction. No foreign keys: an entry outlives
-- what it names (an account deleted later), and is never changed by a cascade.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT clock_timestamp(),
  actor_user_id uuid,
  actor_email text NOT NULL,
  -- support, finance, admin, or cli
  actor_role text NOT NULL,
  action text NOT NULL,
  target_user_id uuid,
  target_type text,
  target_id text,
  reason text,
  before jsonb,
  after jsonb,
  request_id text
);
CREATE INDEX audit_log_target_user ON audit_log (target_user_id, id DESC);
CREATE INDEX audit_log_actor ON audit_log (actor_email, id DESC);

-- Append only: no entry is edited or deleted (TRUNCATE, the dev reset's act on a demo database, is not a row's edit).
CREATE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only (% of entry %)', TG_OP, OLD.id USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER audit_log_never_changes BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change();

-- An action's confirmation key (the console makes one when the confirmation opens): the same key
-- answers the first result, whoever presses again.
CREATE TABLE ops_requests (
  request_key text PRIMARY KEY,
  action text NOT NULL,
  target_id text NOT NULL,
  actor_user_id uuid NOT NULL,
  -- null while the action is on its way
  result jsonb,
  status integer,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

/* ------------------------------------------------------------------ what the timeline shows */

-- Maya's webhooks as received: verified or not, why, and what they named (no body, no signature).
CREATE TABLE webhook_events (
  id bigserial PRIMARY KEY,
  received_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  verified boolean NOT NULL,
  reason text,
  maya_payment_id text,
  reference_id text,
  status text,
  user_id uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX webhook_events_user ON webhook_events (user_id, id DESC);
CREATE INDEX webhook_events_unverified ON webhook_events (id DESC) WHERE NOT verified;

-- Every mail sent (not those carrying a one-time code), in English as written, with the language it
-- went out in: the timeline lists them and an operator can send one again.
CREATE TABLE mail_log (
  id bigserial PRIMARY KEY,
  user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  to_email text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  language text NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX mail_log_user ON mail_log (user_id, id DESC);

/* ------------------------------------------------------------------ money and state */

-- An operator stopped the retries of a PAST_DUE subscription (renewals.ts charges no retry while set).
ALTER TABLE subscriptions ADD COLUMN dunning_stopped_at timestamptz;

-- A void or refund an operator made: the audit entry that records it (docs/product.md#back-office:
-- an operator's reversal of a period the viewer keeps is a goodwill refund).
ALTER TABLE gateway_attempts ADD COLUMN operator_audit_id bigint, ADD COLUMN operator_request_key text;

/* ------------------------------------------------------------------ voucher campaigns */

CREATE TABLE voucher_batches (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  partner text NOT NULL,
  -- The PREMIUM plan whose terms the codes stand for.
  plan_id integer NOT NULL REFERENCES plans (id),
  days integer NOT NULL CHECK (days BETWEEN 1 AND 366),
  -- The last Manila day a code can be redeemed.
  expires_on date NOT NULL,
  per_account boolean NOT NULL,
  use_limit integer CHECK (use_limit IS NULL OR use_limit >= 1),
  count integer NOT NULL CHECK (count BETWEEN 1 AND 5000),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  disabled_at timestamptz
);
ALTER TABLE vouchers
  ADD COLUMN batch_id uuid REFERENCES voucher_batches (id),
  ADD COLUMN disabled_at timestamptz,
  ADD COLUMN use_limit integer CHECK (use_limit IS NULL OR use_limit >= 1);
CREATE INDEX vouchers_batch ON vouchers (batch_id) WHERE batch_id IS NOT NULL;
CREATE INDEX voucher_redemptions_user ON voucher_redemptions (user_id);

/* ------------------------------------------------------------------ refunds in parts */

-- An operator may refund a payment in parts, up to what was charged (the back office). The ledger still
-- holds one reversal in flight per charge, and the system's own reversal (of a charge that pays for
-- nothing, reversals.ts) once done; an operator's parts (operator_request_key set when each is opened)
-- may each be done.
DROP INDEX gateway_attempts_one_reversal;
CREATE UNIQUE INDEX gateway_attempts_one_reversal ON gateway_attempts (reverses)
  WHERE reverses IS NOT NULL AND (outcome IN ('OPEN', 'UNKNOWN') OR (outcome = 'SUCCEEDED' AND operator_request_key IS NULL));

-- Each part given back has its own credit memo, naming the reversal it documents; a memo of the whole
-- (the system's, or one made before this) stays one per invoice.
ALTER TABLE tax_documents ADD COLUMN reversal_attempt_id uuid REFERENCES gateway_attempts (id);
DROP INDEX tax_documents_one_memo;
CREATE UNIQUE INDEX tax_documents_one_memo ON tax_documents (invoice_id) WHERE kind = 'CREDIT_MEMO' AND reversal_attempt_id IS NULL;
CREATE UNIQUE INDEX tax_documents_one_memo_per_reversal ON tax_documents (reversal_attempt_id) WHERE reversal_attempt_id IS NOT NULL;
