-- A move down to a cheaper plan while paid time runs (docs/product.md#scheduled-downgrade) takes
-- effect at the end of the paid period, with nothing charged now: the subscription keeps its plan and
-- names the plan its next period is on. The renewal (the engine's charge, Renew now by checkout) bills
-- that period on this plan at its price and starts it on this plan; the viewer can undo it until then
-- (the column back to NULL). A cancel clears it: a subscription that does not renew changes to nothing.
ALTER TABLE subscriptions ADD COLUMN scheduled_plan_id integer REFERENCES plans (id);
