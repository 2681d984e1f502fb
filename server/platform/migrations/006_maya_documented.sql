-- Maya as documented (issue 17): at most one purchase in flight per viewer, cards usable only once
-- verified, reversals of duplicate charges, and the local sandbox's 3-D Secure passkeys, card
-- verification pages, webhook registrations, voids and refunds.

-- One payment in flight per viewer, whatever the plan or method. A database of before may hold two
-- (one per plan): all but the newest are marked for a look at the gateway, which settles them.
UPDATE payment_records r SET status = 'PAYMENT_EXPIRED', gateway_response = COALESCE(r.gateway_response, '{}'::jsonb) || '{"superseded": true}'::jsonb
WHERE r.status = 'PENDING' AND EXISTS (
  SELECT 1 FROM payment_records n WHERE n.user_id = r.user_id AND n.status = 'PENDING' AND (n.created_at, n.seq) > (r.created_at, r.seq)
);
DROP INDEX payment_records_one_pending;
CREATE UNIQUE INDEX payment_records_one_in_flight ON payment_records (user_id) WHERE status = 'PENDING';
-- Successful charges that paid nothing (a second success for a period already paid) wait here to be voided or refunded.
CREATE INDEX payment_records_reversal_due ON payment_records (user_id) WHERE status = 'REVERSAL_DUE';

-- A card is chargeable once Maya says it is verified (3-D Secure at save time); it becomes the
-- default then, and only if the viewer asked for it. Where the viewer goes back to after the bank.
ALTER TABLE saved_cards
  ADD COLUMN wants_default boolean NOT NULL DEFAULT false,
  ADD COLUMN verification_ref text UNIQUE,
  ADD COLUMN return_to text;

/* ------------------------------------------------------------------ the local sandbox ("Maya") */

ALTER TABLE sandbox_payment_tokens ADD COLUMN passkey text;
ALTER TABLE sandbox_cards
  ADD COLUMN passkey text,
  ADD COLUMN redirect_success text,
  ADD COLUMN redirect_failure text,
  ADD COLUMN redirect_cancel text;
ALTER TABLE sandbox_payments
  ADD COLUMN refunded_amount numeric(12, 2) NOT NULL DEFAULT 0,
  ADD COLUMN receipt_number text;
CREATE INDEX sandbox_payments_rrn ON sandbox_payments (request_reference_number);

CREATE TABLE sandbox_webhooks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL UNIQUE,
  callback_url text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- The sandbox's webhook signing key pair, made once and shared by every API process on the database
-- (the API checks the sandbox's webhooks with its public key, as it checks Maya's with Maya's).
CREATE TABLE sandbox_signing_key (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  private_pem text NOT NULL,
  public_pem text NOT NULL
);
