/**
 * Change plan (takes effect at once): the new plan's price is charged now with the subscription's
 * current method (its card token, its wallet link, or a hosted checkout whose link the viewer is sent
 * to), through the one charge path (charge.ts), and the time left on the current subscription is
 * added to the new period (periods.ts `planChangeNumbers`). The switch is written only when the
 * gateway says the charge succeeded, in the transaction that applies the outcome exactly once
 * (settlement.ts, activation.ts): a declined or abandoned charge leaves the plan as it was.
 */
import type { PaymentMethod, Plan } from '../../src/api/schemas';
import { now, type Queryable } from '../platform/clock';
import { HttpError } from '../platform/http';
import { CHANGE_KEY } from './activation';
import { charge, type ChargeMethod } from './charge';
import type { BillingDeps } from './deps';
import { PLAN_CHANGE_MESSAGES } from './messages';
import { chargeableCard } from './paymentMethods';
import { planChangeNumbers } from './periods';
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
}

/** What a change to `planId` would do now, in numbers (nothing is written). */
export async function previewPlanChange(deps: Pick<BillingDeps, 'db'>, userId: string, planId: number): Promise<PlanChangePreview> {
  const { db } = deps;
  const at = await now(db);
  const current = await changeableSubscription(db, userId, at, null, PLAN_CHANGE_MESSAGES.voucherPlan);
  const plan = await targetPlan(db, planId, current);
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
export async function changePlan(deps: BillingDeps, userId: string, subscriptionId: string, planId: number, language: Language = 'en'): Promise<PlanChangeResult> {
  const { db } = deps;
  await refreshPending(deps, userId);
  const begun = await db.transaction(async (tx) => {
    const at = await now(tx);
    const current = await changeableSubscription(tx, userId, at, subscriptionId, PLAN_CHANGE_MESSAGES.voucherPlan);
    const plan = await targetPlan(tx, planId, current);
    const method = current.payment_method;
    if (method !== 'MAYA_VAULT' && method !== 'MAYA_WALLET' && method !== 'MAYA_CHECKOUT') throw new HttpError(400, PLAN_CHANGE_MESSAGES.noMethod);
    const details = { ...(current.payment_details ?? {}), [CHANGE_KEY]: current.id };
    const payment = await writePendingPayment(tx, { userId, plan, method, details, at });
    return { payment, plan, method, details: current.payment_details ?? {} };
  });
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
