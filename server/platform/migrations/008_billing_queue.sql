-- The billing engine queues due subscriptions in chunks (server/billing/engine.ts): a subscription taken
-- into a queued job is marked, so that no sweep of any process queues it again while that job waits or
-- runs; the mark is cleared when the job is done (real time, not the billing clock).
ALTER TABLE subscriptions ADD COLUMN queued_at timestamptz;
