-- Money exactly once at every seam (issue 32): a ledger of gateway attempts, one live subscription
-- per viewer held by the database, and what the reconciler, the receipts and dunning need to know.

/* ------------------------------------------------------------------ the ledger */

-- Every gateway call that can move money (a hosted checkout, a card or wallet charge, a void, a
-- refund) is written here BEFORE it is made, then given Maya's id and its outcome. A payment record's
-- outcome is decided from its attempts (server/billing/ledger.ts, settlement.ts), never from a stale one.
CREATE TABLE gateway_attempts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq bigserial,
  record_id uuid NOT NULL REFERENCES payment_records (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('CHECKOUT', 'CARD', 'WALLET', 'VOID', 'REFUND')),
  -- A void or a refund: the charge attempt it gives back.
  reverses uuid REFERENCES gateway_attempts (id),
  reference_id text NOT NULL,
  -- Maya's id: the checkout id of a hosted checkout, the payment id of a card or wallet charge.
  maya_id text,
  amount numeric(10, 2) NOT NULL CHECK (amount >= 0),
  currency text NOT NULL DEFAULT 'PHP',
  -- What was charged: the card token or the wallet link (never a card number).
  method_details jsonb,
  -- OPEN: asked, no answer yet. UNKNOWN: the answer was lost (timeout, 5xx, unreadable): Maya is read
  -- by reference to learn it. OURS: Maya refused our request (401/403/429/validation): nothing was
  -- charged, and it is an alert for us, never a decline for the viewer. NOT_MADE: Maya holds nothing
  -- for it long after it was asked. REVERSED: a charge given back (by us, or in Maya's dashboard).
  outcome text NOT NULL DEFAULT 'OPEN'
    CHECK (outcome IN ('OPEN', 'UNKNOWN', 'SUCCEEDED', 'DECLINED', 'EXPIRED', 'CANCELLED', 'OURS', 'NOT_MADE', 'REVERSED', 'FAILED')),
  -- A decline: SOFT (try again later) or HARD (this method will not work).
  decline text CHECK (decline IN ('SOFT', 'HARD')),
  -- Why, in our words (Maya's own words and code are kept in gateway_status/reason for support).
  reason text,
  gateway_status text,
  -- When Maya says a success was paid: the receipt's date (not when the server learned of it).
  paid_at timestamptz,
  -- A success that pays nothing waits here to be voided or refunded (reversals.ts).
  reversal_due boolean NOT NULL DEFAULT false,
  -- The billing clock when asked; made_at is real time, which the reconciler's "older than" reads.
  created_at timestamptz NOT NULL,
  made_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  resolved_at timestamptz
);
CREATE INDEX gateway_attempts_record ON gateway_attempts (record_id, seq);
-- One attempt per Maya payment or checkout: the same payment found twice (an answer and a read) is one.
CREATE UNIQUE INDEX gateway_attempts_maya ON gateway_attempts (maya_id) WHERE maya_id IS NOT NULL AND reverses IS NULL;
-- One reversal in flight or done per charge.
CREATE UNIQUE INDEX gateway_attempts_one_reversal ON gateway_attempts (reverses) WHERE reverses IS NOT NULL AND outcome IN ('OPEN', 'UNKNOWN', 'SUCCEEDED');
CREATE INDEX gateway_attempts_reversal_due ON gateway_attempts (made_at) WHERE reversal_due;

/* ------------------------------------------------------------------ payment records */

ALTER TABLE payment_records
  -- When the payment was paid (the billing clock): the receipt's date, not when the record was made.
  ADD COLUMN paid_at timestamptz,
  -- The attempt whose success paid the record's period; any other success of the record is given back.
  ADD COLUMN applied_attempt_id uuid REFERENCES gateway_attempts (id),
  -- The receipt mail (server/billing/receipts.ts), once.
  ADD COLUMN receipt_mailed_at timestamptz,
  -- Real time: when the reconciler next reads this record's payments at Maya (null: nothing to look at).
  ADD COLUMN recheck_at timestamptz,
  -- The billing clock: no new renewal charge before then (the gateway was unreachable, or refused us).
  ADD COLUMN hold_until timestamptz;
CREATE INDEX payment_records_recheck ON payment_records (recheck_at) WHERE recheck_at IS NOT NULL;
CREATE INDEX payment_records_receipt_due ON payment_records (paid_at) WHERE receipt_mailed_at IS NULL AND paid_at IS NOT NULL;
-- One purchase, plan change or Renew now in flight per viewer, as before; a renewal's record no longer
-- counts: a plan change or voucher replaces a subscription whose renewal is on its way (settlement.ts
-- gives that renewal back if it succeeds), and the engine waits for the viewer's own payment instead.
DROP INDEX payment_records_one_in_flight;
CREATE UNIQUE INDEX payment_records_one_in_flight ON payment_records (user_id)
  WHERE status = 'PENDING' AND NOT (gateway_response->'details' ? 'renewsSubscriptionId');
-- Records still open before this migration are looked at by the reconciler at once.
UPDATE payment_records SET recheck_at = clock_timestamp() WHERE status IN ('PENDING', 'REVERSAL_DUE');

/* ------------------------------------------------------------------ subscriptions */

-- A PAST_DUE subscription canceled by the viewer keeps access to the end of its grace (its end date
-- moves there); the end date it had is kept here, so reactivating it makes it PAST_DUE again.
ALTER TABLE subscriptions ADD COLUMN past_due_end timestamptz;

-- One live subscription per viewer. Every path that starts a subscription closes the viewer's other
-- live rows in the same transaction (activation.ts closeLive); a database of before may hold more
-- than one (the plan-change and voucher seams of issue 32): all but the newest are closed, never charged again.
UPDATE subscriptions s SET status = 'EXPIRED', auto_renew = false, next_attempt_at = NULL,
  canceled_reason = COALESCE(s.canceled_reason, 'Replaced by a newer subscription'), end_notice_at = COALESCE(s.end_notice_at, s.updated_at)
WHERE s.status IN ('ACTIVE', 'PAST_DUE', 'CANCELED') AND EXISTS (
  SELECT 1 FROM subscriptions n
  WHERE n.user_id = s.user_id AND n.status IN ('ACTIVE', 'PAST_DUE', 'CANCELED') AND (n.start_date, n.seq) > (s.start_date, s.seq)
);
CREATE UNIQUE INDEX subscriptions_one_live ON subscriptions (user_id) WHERE status IN ('ACTIVE', 'PAST_DUE', 'CANCELED');
