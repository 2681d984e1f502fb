-- Billing (issue 7): the QA clock, payment records, voucher terms, and the subscription fields that
-- the voucher subscription entity of product.md#voucher-subscription needs.

-- At most one row: the instant POST /dev/clock fixed (server/clock.ts). No row: NOW or the system clock.
CREATE TABLE server_clock (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  fixed_at timestamptz NOT NULL
);

-- seq breaks ties between rows written at the same (fixed) instant, so "newest first" is stable.
ALTER TABLE subscriptions
  ADD COLUMN seq bigserial,
  ADD COLUMN canceled_reason text,
  ADD COLUMN previous_plan_id integer REFERENCES plans (id);
CREATE INDEX subscriptions_user_start ON subscriptions (user_id, start_date DESC, seq DESC);

ALTER TABLE vouchers
  -- the VOUCHER plan a redemption subscribes to
  ADD COLUMN plan_id integer REFERENCES plans (id),
  -- the PREMIUM plan whose terms the voucher stands for (originalVoucherTerms)
  ADD COLUMN terms_plan_id integer REFERENCES plans (id),
  -- last instant the code can be redeemed; null: no end
  ADD COLUMN valid_until timestamptz;

-- product.md#payment-record. discounted_amount is the discount taken off amount; total_amount is what
-- was charged (amount - discounted_amount).
CREATE TABLE payment_records (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  subscription_id uuid REFERENCES subscriptions (id) ON DELETE SET NULL,
  plan_id integer REFERENCES plans (id),
  checkout_id text,
  reference_id text NOT NULL UNIQUE,
  status text NOT NULL,
  amount numeric(10, 2) NOT NULL CHECK (amount >= 0),
  discounted_amount numeric(10, 2) NOT NULL DEFAULT 0 CHECK (discounted_amount >= 0),
  total_amount numeric(10, 2) NOT NULL CHECK (total_amount >= 0),
  currency text NOT NULL DEFAULT 'PHP',
  payment_method text NOT NULL CHECK (payment_method IN ('MAYA_VAULT', 'MAYA_WALLET', 'MAYA_CHECKOUT', 'VOUCHER')),
  payment_link text,
  gateway_response jsonb,
  retry_count integer NOT NULL DEFAULT 0,
  last_retry_date timestamptz,
  seq bigserial,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX payment_records_user ON payment_records (user_id, created_at DESC, seq DESC);
CREATE UNIQUE INDEX payment_records_checkout ON payment_records (checkout_id) WHERE checkout_id IS NOT NULL;
