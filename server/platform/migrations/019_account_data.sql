-- Issue 36: "Download my data" and "Delete my account" (docs/product.md#data-export, #erasure).

/* ------------------------------------------------------------------ the export */

-- One row per export asked for. A job fills `json` and `html` (state READY) and they are offered for
-- 24 hours (`expires_at`); after that, or once the account is deleted, the files are dropped.
CREATE TABLE data_exports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  state text NOT NULL CHECK (state IN ('PREPARING', 'READY', 'FAILED', 'EXPIRED')),
  requested_at timestamptz NOT NULL,
  ready_at timestamptz,
  expires_at timestamptz,
  json text,
  html text,
  attempts integer NOT NULL DEFAULT 0
);
CREATE INDEX data_exports_user ON data_exports (user_id, requested_at DESC);

-- A download link: single use, for one file of one export, only with its owner's session (the route
-- checks the bearer token as well). Only the token's SHA-256 is kept.
CREATE TABLE data_export_links (
  token_hash text PRIMARY KEY,
  export_id uuid NOT NULL REFERENCES data_exports (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  format text NOT NULL CHECK (format IN ('json', 'html')),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

/* ------------------------------------------------------------------ erasure */

-- An erased account keeps its row (its payment records and tax documents point at it) without any of
-- its personal data; `deleted_at` says when. Its email is replaced by one that can never be typed, so
-- the address is free for a new sign-up.
ALTER TABLE users ADD COLUMN deleted_at timestamptz;

-- What must still be removed at Maya after an erasure (a saved card, the vault customer, a wallet
-- link): written in the erasure's transaction, done after it and retried by a job until Maya agrees.
CREATE TABLE maya_erasures (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('CARD', 'WALLET_LINK')),
  customer_id text,
  ref text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL,
  done_at timestamptz
);
CREATE INDEX maya_erasures_open ON maya_erasures (created_at) WHERE done_at IS NULL;

-- Tax documents stay unchanged for the retention period, with one exception: an erasure blanks the
-- buyer's name, email and TIN (to '[erased]', '' and null) and nothing else. Every other UPDATE, and
-- every DELETE, is refused as before (docs/product.md#erasure).
CREATE OR REPLACE FUNCTION tax_documents_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND NEW.buyer_name = '[erased]' AND NEW.buyer_email = '' AND NEW.buyer_tin IS NULL
     AND (to_jsonb(NEW) - 'buyer_name' - 'buyer_email' - 'buyer_tin') = (to_jsonb(OLD) - 'buyer_name' - 'buyer_email' - 'buyer_tin')
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'tax documents are never edited or deleted (% of %)', TG_OP, OLD.number USING ERRCODE = 'restrict_violation';
END;
$$;
