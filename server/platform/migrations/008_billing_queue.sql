-- The billing engine queues due subscriptions in chunks (server/billing/engine.ts): a subscription taken
-- into a queued job is marked, so that no sweep of any process queues it again while that job waits or
-- runs; the mark is cleared when the job is done (real time, not the billing clock).
ALTER TABLE subscriptions ADD COLUMN queued_at timestamptz;

-- What a sweep scans is what is due and not queued yet, so that a sweep costs what it takes, not the
-- whole backlog (100,000 renewals due at once are queued 500 at a time).
DROP INDEX subscriptions_renewal_due;
DROP INDEX subscriptions_retry_due;
DROP INDEX subscriptions_end_notice_due;
CREATE INDEX subscriptions_renewal_due ON subscriptions (end_date)
  WHERE status = 'ACTIVE' AND auto_renew AND payment_method IN ('MAYA_VAULT', 'MAYA_WALLET') AND queued_at IS NULL;
CREATE INDEX subscriptions_retry_due ON subscriptions (next_attempt_at) WHERE status = 'PAST_DUE' AND queued_at IS NULL;
-- End notices: periods that ended without renewing (canceled, expired) and running ones that will not renew.
CREATE INDEX subscriptions_end_notice_ended ON subscriptions (end_date)
  WHERE end_notice_at IS NULL AND status IN ('CANCELED', 'EXPIRED') AND queued_at IS NULL;
CREATE INDEX subscriptions_end_notice_running ON subscriptions (end_date)
  WHERE end_notice_at IS NULL AND status = 'ACTIVE' AND NOT (auto_renew AND payment_method IN ('MAYA_VAULT', 'MAYA_WALLET')) AND queued_at IS NULL;
CREATE INDEX subscriptions_remind_due ON subscriptions (end_date)
  WHERE status = 'ACTIVE' AND payment_method = 'MAYA_CHECKOUT' AND reminded_at IS NULL AND queued_at IS NULL;
-- Marks left by a job the queue lost, found again after an hour.
CREATE INDEX subscriptions_queued ON subscriptions (queued_at) WHERE queued_at IS NOT NULL;
