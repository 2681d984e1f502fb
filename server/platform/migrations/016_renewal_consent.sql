-- Auto-renewal told, agreed and reminded (issue 34; docs/product.md#renewal-consent).
--
-- Every purchase, plan change, change of payment method or reactivation that renews on a card or Maya
-- wallet carries the viewer's consent: the words the app showed (and their language), the server's own
-- rendering of the same sentence with the date and price it computed, the price and date themselves,
-- and who, from where, when. Rows are only ever added.
CREATE TABLE renewal_consents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The subscription it renews, when known when the consent is given (a reactivation, a method change, a plan change).
  subscription_id uuid REFERENCES subscriptions (id) ON DELETE SET NULL,
  -- The payment it was given for (a purchase, a plan change charged now).
  payment_record_id uuid REFERENCES payment_records (id) ON DELETE SET NULL,
  action text NOT NULL CHECK (action IN ('PURCHASE', 'PLAN_CHANGE', 'METHOD_CHANGE', 'REACTIVATE')),
  payment_method text NOT NULL CHECK (payment_method IN ('MAYA_VAULT', 'MAYA_WALLET')),
  language text NOT NULL,
  shown_text text NOT NULL,
  server_text text NOT NULL,
  -- The client's words are the server's own, letter for letter (else they matched the sentence with another date or price).
  text_matches boolean NOT NULL,
  price numeric(12, 2) NOT NULL,
  currency text NOT NULL,
  renews_on timestamptz NOT NULL,
  client_address text,
  given_at timestamptz NOT NULL
);
CREATE INDEX renewal_consents_user ON renewal_consents (user_id, given_at);

-- The mail 7 days before a yearly renewal: once per period (a renewed period is its own row).
ALTER TABLE subscriptions ADD COLUMN renewal_notice_at timestamptz;
CREATE INDEX subscriptions_renewal_notice_due ON subscriptions (end_date)
  WHERE renewal_notice_at IS NULL AND status = 'ACTIVE' AND auto_renew AND payment_method IN ('MAYA_VAULT', 'MAYA_WALLET');

-- A saved card's expiry (month and year as the viewer typed them when saving it; Maya's card answer has
-- none). `expires_at` is the first instant after the card's last valid day (Manila). The expiry notice
-- (mail and banner) goes once per card.
ALTER TABLE saved_cards
  ADD COLUMN exp_month smallint,
  ADD COLUMN exp_year smallint,
  ADD COLUMN expires_at timestamptz,
  ADD COLUMN expiry_notice_at timestamptz;
