-- Renewals (issue 18): card and wallet subscriptions renew at their end date; a failed renewal makes
-- the subscription PAST_DUE (access kept) and is tried again 1, 3, 5 and 7 days after the end date.

ALTER TABLE subscriptions
  -- PAST_DUE: when the next automatic attempt is due (null: none, e.g. after a hard decline).
  ADD COLUMN next_attempt_at timestamptz,
  -- Why the last renewal failed, for the viewer ('Your card was declined', ...).
  ADD COLUMN renewal_failure text,
  -- Checkout subscriptions: when the renewal reminder was mailed (once per period).
  ADD COLUMN reminded_at timestamptz,
  -- When the end-of-subscription notice was mailed (once).
  ADD COLUMN end_notice_at timestamptz;

-- What the engine scans: renewable subscriptions by end date, past-due ones by next attempt.
CREATE INDEX subscriptions_renewal_due ON subscriptions (end_date) WHERE status = 'ACTIVE' AND auto_renew AND payment_method IN ('MAYA_VAULT', 'MAYA_WALLET');
CREATE INDEX subscriptions_retry_due ON subscriptions (next_attempt_at) WHERE status = 'PAST_DUE';
CREATE INDEX subscriptions_end_notice_due ON subscriptions (end_date) WHERE end_notice_at IS NULL;
