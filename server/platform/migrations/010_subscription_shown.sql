-- What the status and history reads show of a subscription's card and voucher, kept on the subscription
-- (issue 21): the card's brand and last four digits, the voucher's days and amount, and the terms of the
-- plan the voucher stands for. Read through three more joins, they cost a third of the status read on
-- PGlite. A card's brand and digits and a voucher's terms never change once written, so a copy made when
-- the subscription names its card or voucher stays true.
ALTER TABLE subscriptions
  ADD COLUMN card_type text,
  ADD COLUMN card_last4 text,
  ADD COLUMN voucher_days integer,
  ADD COLUMN voucher_amount numeric(10, 2),
  ADD COLUMN terms_cycle text,
  ADD COLUMN terms_price numeric(10, 2),
  ADD COLUMN terms_duration integer;

-- Filled by the database whenever a subscription is written with its payment method or details, so no
-- write path (charge, renewal, plan change, change of method, voucher, a test's own INSERT) can forget
-- it. A card is the subscriber's own; a method that names neither leaves the columns empty (SELECT INTO
-- with no row sets its targets to NULL).
CREATE FUNCTION subscription_shown() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT c.card_type, c.last4 INTO NEW.card_type, NEW.card_last4
    FROM saved_cards c
   WHERE NEW.payment_method = 'MAYA_VAULT' AND c.card_token_id = NEW.payment_details->>'cardTokenId' AND c.user_id = NEW.user_id;
  SELECT v.days, v.amount, tp.billing_cycle, tp.price, tp.duration
    INTO NEW.voucher_days, NEW.voucher_amount, NEW.terms_cycle, NEW.terms_price, NEW.terms_duration
    FROM vouchers v LEFT JOIN plans tp ON tp.id = v.terms_plan_id
   WHERE NEW.payment_method = 'VOUCHER' AND v.code = NEW.payment_details->>'voucherCode';
  RETURN NEW;
END
$$;

CREATE TRIGGER subscriptions_shown BEFORE INSERT OR UPDATE OF payment_method, payment_details, user_id ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION subscription_shown();

-- A card, voucher or terms plan added, corrected or removed afterwards (by hand or by a test: no path of
-- the product changes one a subscription names) is copied again onto the subscriptions that name it, so
-- the copy reads what the joins would. The two expression indexes find those subscriptions (a card is
-- added on every new card: without them each would scan every subscription). On PostgreSQL, a
-- correction committed while a subscription naming that card or voucher is being written can leave that
-- one subscription with the copy it read before; writing its payment method again copies it anew.
CREATE INDEX subscriptions_card_token ON subscriptions ((payment_details->>'cardTokenId')) WHERE payment_method = 'MAYA_VAULT';
CREATE INDEX subscriptions_voucher_code ON subscriptions ((payment_details->>'voucherCode')) WHERE payment_method = 'VOUCHER';

CREATE FUNCTION subscription_shown_source_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- OLD is NULL after an INSERT and NEW after a DELETE; IN skips the NULL.
  IF TG_TABLE_NAME = 'saved_cards' THEN
    UPDATE subscriptions SET payment_details = payment_details
     WHERE payment_method = 'MAYA_VAULT' AND payment_details->>'cardTokenId' IN (OLD.card_token_id, NEW.card_token_id);
  ELSIF TG_TABLE_NAME = 'vouchers' THEN
    UPDATE subscriptions SET payment_details = payment_details
     WHERE payment_method = 'VOUCHER' AND payment_details->>'voucherCode' IN (OLD.code, NEW.code);
  ELSE
    UPDATE subscriptions SET payment_details = payment_details
     WHERE payment_method = 'VOUCHER'
       AND payment_details->>'voucherCode' IN (SELECT code FROM vouchers WHERE terms_plan_id IN (OLD.id, NEW.id));
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER saved_cards_shown AFTER INSERT OR DELETE OR UPDATE OF card_token_id, card_type, last4, user_id ON saved_cards
  FOR EACH ROW EXECUTE FUNCTION subscription_shown_source_changed();
CREATE TRIGGER vouchers_shown AFTER INSERT OR DELETE OR UPDATE OF code, days, amount, terms_plan_id ON vouchers
  FOR EACH ROW EXECUTE FUNCTION subscription_shown_source_changed();
CREATE TRIGGER plans_shown AFTER INSERT OR DELETE OR UPDATE OF id, billing_cycle, price, duration ON plans
  FOR EACH ROW EXECUTE FUNCTION subscription_shown_source_changed();

-- The subscriptions written before: the trigger fills them.
UPDATE subscriptions SET payment_details = payment_details WHERE payment_method IN ('MAYA_VAULT', 'VOUCHER');
