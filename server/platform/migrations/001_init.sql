CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  first_name text NOT NULL,
  middle_name text,
  last_name text NOT NULL,
  phone_number text,
  gender text,
  birthdate date,
  photo text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE plans (
  id integer PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  name text NOT NULL,
  description text NOT NULL,
  type text NOT NULL CHECK (type IN ('FREE', 'PREMIUM', 'VOUCHER')),
  price numeric(10, 2) NOT NULL,
  currency text NOT NULL DEFAULT 'PHP',
  duration integer NOT NULL,
  billing_cycle text NOT NULL,
  trial_days integer NOT NULL DEFAULT 0,
  sort_order integer NOT NULL DEFAULT 0,
  is_active boolean NOT NULL DEFAULT true,
  features jsonb NOT NULL DEFAULT '[]',
  popular boolean NOT NULL DEFAULT false
);

CREATE TABLE subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  plan_id integer NOT NULL REFERENCES plans (id),
  status text NOT NULL,
  start_date timestamptz NOT NULL DEFAULT now(),
  end_date timestamptz,
  payment_method text,
  payment_details jsonb,
  auto_renew boolean NOT NULL DEFAULT true,
  canceled_date timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscriptions_user ON subscriptions (user_id, created_at DESC);

CREATE TABLE vouchers (
  code text PRIMARY KEY,
  days integer NOT NULL,
  amount numeric(10, 2) NOT NULL,
  reusable boolean NOT NULL DEFAULT false,
  active boolean NOT NULL DEFAULT true
);

CREATE TABLE voucher_redemptions (
  code text NOT NULL REFERENCES vouchers (code),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  subscription_id uuid REFERENCES subscriptions (id),
  redeemed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (code, user_id)
);

CREATE TABLE saved_cards (
  card_token_id text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  card_type text NOT NULL,
  first6 text NOT NULL,
  last4 text NOT NULL,
  state text NOT NULL DEFAULT 'VERIFIED',
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE refresh_tokens (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);

CREATE TABLE sign_in_failures (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  failed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_failures_user ON sign_in_failures (user_id, failed_at);
