/**
 * A move down (to a cheaper plan) while paid time runs on an ACTIVE subscription is not charged: it is
 * scheduled for the end of the paid period (product.md#scheduled-downgrade; subscriptions.scheduled_plan_id),
 * where the renewal bills and starts the next period on that plan (renewals.ts, renewNow.ts,
 * activation.ts), and it can be undone until then (`undoScheduledChange`). A CANCELED subscription does
 * not renew, so a move down of one is refused (reactivate first); a PAST_DUE one has no paid time left
 * and changes at once, as below. Both are written under the viewer's lock, as a payment's outcome is.
 *
 * Change plan (takes effect at once, any other change): the new plan's price is charged now with the subscription's
 * current method (its card token, its wallet link, or a hosted checkout whose link the viewer is sent
 * to), through the one charge path (charge.ts), and the time left on the current subscription is
 * added to the new period (periods.ts `planChangeNumbers`). The switch is written only when the
 * gateway says the charge succeeded, in the transaction that applies the outcome exactly once
 * (settlement.ts, activation.ts): a declined or abandoned charge leaves the plan as it was.
 */
import type { PaymentMethod, Plan } from '../../src/api/schemas';
import { formatDate } from '../../src/lib/dates';
import { DISPLAY_TIME_ZONE } from '../../src/lib/product';
import { now, type Queryable } from '../platform/clock';
import { HttpError } from '../platform/http';
import { CHANGE_KEY } from './activation';
import { charge, type ChargeMethod } from './charge';
import type { BillingDeps } from './deps';
import { NO_CONSENT, recordRenewalConsent, renews, type ConsentRequest } from './consent';
import { PLAN_CHANGE_MESSAGES } from './messages';
import { chargeableCard } from './paymentMethods';
import { addBillingPeriod, planChangeNumbers } from './periods';
import { planNamesIn, premiumPlan } from './plans';
import type { Language } from '../platform/language';
import { writePendingPayment } from './purchase';
import { refreshPending } from './settlement';
import { changeableSubscription, type SubscriptionRow } from './subscriptions';

export { planChangeNumbers } from './periods';

async function targetPlan(q: Queryable, planId: number, current: SubscriptionRow): Promise<Plan> {
  const plan = await premiumPlan(q, planId);
  if (plan.id === current.plan_id) throw new HttpError(409, PLAN_CHANGE_MESSAGES.currentPlan);
  return plan;
}

export interface PlanChangePreview {
  amountDue: string;
  currency: string;
  carriedDays: number;
  newEndDate: string;
  /** A scheduled move down: the day the plan changes (nothing is charged now). */
  changesOn?: string;
}

/**
 * Is a change of `current` to `plan` at `at` a move down for the end of the paid period? Yes for a
 * cheaper plan while an ACTIVE subscription has paid time running; a CANCELED one with paid time is
 * refused (it does not renew); anything else (a dearer plan, a PAST_DUE one, one whose period is due or
 * that runs on the grace of an unpaid period) changes now.
 */
function movesDownLater(current: SubscriptionRow, plan: Plan, at: Date): boolean {
  if (Number(plan.price) >= Number(current.plan_price)) return false;
  const paidTime = !current.past_due_end && current.end_date !== null && current.end_date > at;
  if (!paidTime) return false;
  if (current.status === 'CANCELED') throw new HttpError(409, PLAN_CHANGE_MESSAGES.canceledDowngrade(plan.name));
  return current.status === 'ACTIVE';
}

/** Takes the viewer's lock (settlement.ts judges payments under it): schedule, undo and outcomes go one at a time. */
async function lockViewer(q: Queryable, userId: string) {
  await q.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
}

/** What a change to `planId` would do now, in numbers (nothing is written). */
export async function previewPlanChange(deps: Pick<BillingDeps, 'db'>, userId: string, planId: number): Promise<PlanChangePreview> {
  const { db } = deps;
  const at = await now(db);
  const current = await changeableSubscription(db, userId, at, null, PLAN_CHANGE_MESSAGES.voucherPlan);
  const plan = await targetPlan(db, planId, current);
  if (movesDownLater(current, plan, at)) {
    const from = current.end_date!;
    return { amountDue: '0.00', currency: plan.currency, carriedDays: 0, newEndDate: addBillingPeriod(from, plan.billingCycle, Number(plan.duration)).toISOString(), changesOn: from.toISOString() };
  }
  // Grace is not paid time: nothing is carried from a subscription canceled while its period was unpaid.
  const numbers = planChangeNumbers(at, current.past_due_end ? null : current.end_date, plan);
  return { amountDue: plan.price, currency: plan.currency, carriedDays: numbers.carriedDays, newEndDate: numbers.newEndDate.toISOString() };
}

export interface PlanChangeResult {
  paymentMethod: PaymentMethod | null;
  paymentLink: string | null;
  message: string;
}

/** `language`: the reader's, for the new plan's name in the answer's message (product.md#plan-texts). */
export async function changePlan(
  deps: BillingDeps, userId: string, subscriptionId: string, planId: number, language: Language = 'en', consent: ConsentRequest = NO_CONSENT,
): Promise<PlanChangeResult> {
  const { db } = deps;
  await refreshPending(deps, userId);
  const begun = await db.transaction(async (tx) => {
    await lockViewer(tx, userId);
    const at = await now(tx);
    const current = await changeableSubscription(tx, userId, at, subscriptionId, PLAN_CHANGE_MESSAGES.voucherPlan);
    const plan = await targetPlan(tx, planId, current);
    // A plan that renews on a card or wallet is agreed to at its new price (product.md#renewal-consent):
    // the move down on the day it takes effect, a change now at the end of its new period.
    const consentFor = async (renewsOn: Date, paymentRecordId: string | null) => {
      if (!renews(current.payment_method)) return;
      await recordRenewalConsent(tx, consent, {
        userId, action: 'PLAN_CHANGE', paymentMethod: current.payment_method, subscriptionId: current.id, paymentRecordId, at,
        terms: { renewsOn, amount: plan.price, currency: plan.currency },
      });
    };
    if (movesDownLater(current, plan, at)) {
      await consentFor(current.end_date!, null);
      // Nothing is charged: the subscription names the plan its next period is on (a later move down replaces it).
      await tx.query('UPDATE subscriptions SET scheduled_plan_id = $2, updated_at = $3 WHERE id = $1', [current.id, plan.id, at]);
      return { scheduled: { method: current.payment_method, plan: plan.name, on: current.end_date! } };
    }
    const method = current.payment_method;
    if (method !== 'MAYA_VAULT' && method !== 'MAYA_WALLET' && method !== 'MAYA_CHECKOUT') throw new HttpError(400, PLAN_CHANGE_MESSAGES.noMethod);
    const details = { ...(current.payment_details ?? {}), [CHANGE_KEY]: current.id };
    const payment = await writePendingPayment(tx, { userId, plan, method, details, at });
    await consentFor(planChangeNumbers(at, current.past_due_end ? null : current.end_date, plan).newEndDate, payment.id);
    return { payment, plan, method, details: current.payment_details ?? {} };
  });
  if ('scheduled' in begun && begun.scheduled) {
    // The plan's name and the day as the reader's pages write them (product.md#plan-texts, #server-dates).
    const name = (await planNamesIn(db, language))?.get(begun.scheduled.plan) ?? begun.scheduled.plan;
    const message = PLAN_CHANGE_MESSAGES.scheduled(name, formatDate(begun.scheduled.on, DISPLAY_TIME_ZONE, language));
    return { paymentMethod: begun.scheduled.method, paymentLink: null, message };
  }
  const { payment, plan, method } = begun;
  let chargeMethod: ChargeMethod;
  if (method === 'MAYA_CHECKOUT') chargeMethod = { kind: method, itemName: `Sine Bisaya ${plan.name} (plan change)` };
  else if (method === 'MAYA_VAULT') {
    const cardTokenId = String(begun.details.cardTokenId ?? '');
    const card = await chargeableCard(db, userId, cardTokenId);
    chargeMethod = { kind: method, customerId: card?.verified ? card.customerId : null, cardTokenId };
  } else chargeMethod = { kind: method, linkId: String(begun.details.mayaWalletId ?? '') };

  const result = await charge(deps, chargeMethod, payment);
  if ('redirect' in result) {
    return { paymentMethod: method, paymentLink: result.redirect, message: method === 'MAYA_CHECKOUT' ? PLAN_CHANGE_MESSAGES.checkout : PLAN_CHANGE_MESSAGES.verify };
  }
  if ('paid' in result) {
    const name = (await planNamesIn(db, language))?.get(plan.name) ?? plan.name;
    return { paymentMethod: method, paymentLink: null, message: PLAN_CHANGE_MESSAGES.changed(name) };
  }
  return { paymentMethod: method, paymentLink: null, message: PLAN_CHANGE_MESSAGES.processing };
}

/**
 * Undo a scheduled move down ("Keep Yearly"): the subscription renews on its own plan again. Only while
 * the paid period still runs on an ACTIVE subscription (once it has ended, the renewal has billed the
 * cheaper plan); under the viewer's lock.
 */
export async function undoScheduledChange(deps: Pick<BillingDeps, 'db'>, userId: string, subscriptionId: string, language: Language = 'en'): Promise<string> {
  const undone = await deps.db.transaction(async (tx) => {
    await lockViewer(tx, userId);
    const at = await now(tx);
    const current = await changeableSubscription(tx, userId, at, subscriptionId, PLAN_CHANGE_MESSAGES.voucherPlan);
    const undone = await tx.query<{ end_date: Date }>(
      `UPDATE subscriptions SET scheduled_plan_id = NULL, updated_at = $3
       WHERE id = $1 AND user_id = $2 AND scheduled_plan_id IS NOT NULL AND status = 'ACTIVE' AND end_date > $3 RETURNING end_date`,
      [current.id, userId, at],
    );
    const row = undone.rows[0];
    if (!row) throw new HttpError(409, PLAN_CHANGE_MESSAGES.nothingScheduled);
    return { plan: current.plan_name, on: row.end_date };
  });
  const name = (await planNamesIn(deps.db, language))?.get(undone.plan) ?? undone.plan;
  return PLAN_CHANGE_MESSAGES.undone(name, formatDate(undone.on, DISPLAY_TIME_ZONE, language));
}
