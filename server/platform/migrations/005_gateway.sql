-- The Maya gateway (issue 8): what the API keeps of the gateway (customer ids, card tokens, wallet
-- links; never card numbers), one pending payment per viewer and plan, and the local sandbox's own
-- state ("Maya's side", tables sandbox_*), kept in the database so every API process agrees.

-- The Maya Vault customer that holds a viewer's cards.
CREATE TABLE maya_customers (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  customer_id text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL
);

-- Maya's masked number and the customer the card token belongs to (null for seeded cards).
ALTER TABLE saved_cards
  ADD COLUMN masked_pan text,
  ADD COLUMN customer_id text;

-- The viewer's Maya wallet link (one at a time); linked_at is set once Maya reports it linked.
CREATE TABLE wallet_links (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  link_id text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- The server refuses a second pending payment for the same viewer and plan (double clicks, two tabs).
CREATE UNIQUE INDEX payment_records_one_pending ON payment_records (user_id, plan_id) WHERE status = 'PENDING';

/* ------------------------------------------------------------------ the local sandbox ("Maya") */

CREATE TABLE sandbox_payment_tokens (
  id text PRIMARY KEY,
  brand text NOT NULL,
  first6 text NOT NULL,
  last4 text NOT NULL,
  -- what the test card does: APPROVE, DECLINE or THREE_DS
  behaviour text NOT NULL,
  state text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE sandbox_customers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  phone text,
  created_at timestamptz NOT NULL
);

CREATE TABLE sandbox_cards (
  card_token_id text PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES sandbox_customers (id) ON DELETE CASCADE,
  brand text NOT NULL,
  first6 text NOT NULL,
  last4 text NOT NULL,
  behaviour text NOT NULL,
  state text NOT NULL,
  is_default boolean NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE sandbox_payments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('CHECKOUT', 'VAULT', 'WALLET')),
  status text NOT NULL,
  amount numeric(12, 2) NOT NULL,
  currency text NOT NULL,
  request_reference_number text NOT NULL,
  description text NOT NULL DEFAULT '',
  redirect_success text,
  redirect_failure text,
  redirect_cancel text,
  card_token_id text,
  link_id text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE sandbox_wallet_links (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  status text NOT NULL CHECK (status IN ('PENDING', 'LINKED', 'FAILED', 'CANCELLED', 'UNLINKED')),
  request_reference_number text NOT NULL,
  redirect_success text NOT NULL,
  redirect_failure text NOT NULL,
  redirect_cancel text NOT NULL,
  profile_id uuid NOT NULL DEFAULT gen_random_uuid(),
  email text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
