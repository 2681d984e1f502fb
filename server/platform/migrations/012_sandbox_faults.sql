-- The local sandbox's fault switch (issue 32, server/sandbox/faults.ts): dev only, kept in the
-- database so that every API process sharing it plays the same faults and loses the same webhooks.

-- Faults the sandbox plays on the calls that match `on_call`; each matching call consumes one of
-- `times_left` (every `every`-th matching call, for a share of the calls).
CREATE TABLE sandbox_faults (
  id bigserial PRIMARY KEY,
  on_call text NOT NULL CHECK (on_call IN ('charge', 'read', 'checkout', 'void', 'refund', 'any')),
  mode text NOT NULL CHECK (mode IN ('timeout', 'http500', 'unreadable', 'http401', 'http429', 'charge-then-timeout')),
  times_left integer NOT NULL CHECK (times_left >= 0),
  every integer NOT NULL DEFAULT 1 CHECK (every >= 1),
  seen integer NOT NULL DEFAULT 0,
  -- how long a timed-out answer is held before the connection is dropped (milliseconds)
  hold_ms integer NOT NULL DEFAULT 0 CHECK (hold_ms BETWEEN 0 AND 120000)
);

-- At most one row: what happens to the sandbox's webhooks (no row: 'normal').
CREATE TABLE sandbox_webhook_mode (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  mode text NOT NULL CHECK (mode IN ('normal', 'lost', 'doubled'))
);

-- Webhooks lost while the mode was 'lost'; delivered late (the payment as it is then) on release.
CREATE TABLE sandbox_lost_webhooks (
  payment_id uuid NOT NULL REFERENCES sandbox_payments (id) ON DELETE CASCADE,
  status text NOT NULL,
  lost_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (payment_id, status)
);
