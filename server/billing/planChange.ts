/**
 * Change plan and change payment method (spec §2, §4, §7; issue 9).
 *
 * Change plan takes effect at once: the new plan's price is charged now with the subscription's
 * current method (its card token, its wallet link, or a hosted checkout whose link the viewer is sent
 * to), and the time left on the current subscription is added to the new period. The switch is
 * written only when the gateway says the charge succeeded, in the transaction that applies the
 * payment outcome exactly once (gateway/billing.ts `applyOutcome` calls `applyPlanChange`): a declined
 * or abandoned charge leaves the plan as it was.
 *
 * Carried time: everything left between the moment the change is applied and the current end date,
 * to the millisecond. The new end date is the new plan's period from now (calendar months and years
 * in Asia/Manila, `addBillingPeriod`) plus that time; `carriedDays` is it in days, rounded to the
 * nearest whole day, for people to read (the date is exact).
 *
 * Change payment method takes effect in the next billing cycle: the period already paid is not
 * charged again; the subscription's method (and auto-renewal) is what its next renewal will use.
 */
import type { PaymentMethod, Plan } from '../../src/api/schemas';
import { DAY_MS, now, type Queryable } from '../platform/clock';
import type { Services } from '../context';
import { addBillingPeriod, applyGatewayAnswer, attachGatewayId, failToStart, PAYMENT_MESSAGES, refreshPending } from './settlement';
import { GatewayError, toMayaValue, type RedirectUrls } from '../gateway/maya';
import { HttpError } from '../platform/http';
import { newReferenceId, recordPayment } from './payments';
import { currentSubscription, findPlan, SUBSCRIPTION_MESSAGES, type SubscriptionRow } from './subscriptions';

export const PLAN_CHANGE_MESSAGES = {
  voucherPlan: 'Voucher subscriptions cannot change plans. Your voucher subscription will remain active until it expires.',
  voucherMethod: 'Voucher subscriptions cannot change payment methods. Your voucher subscription will remain active until it expires.',
  currentPlan: 'This is already your current plan. Please select another plan.',
  noMethod: 'This subscription has no payment method to charge. Please change your payment method first.',
  changed: (plan: string) => `Your plan has been changed to ${plan}. The remaining days of your previous plan were added.`,
  checkout: 'Complete the payment to change your plan.',
  verify: 'Confirm the payment with your bank to change your plan.',
  processing: 'Your payment is being processed. Your plan changes once it is confirmed.',
  methodUpdated: 'Your payment method has been updated. It takes effect in your next billing cycle.',
  noCard: 'Please add a card first.',
  cardNotFound: 'Card not found. Please add the card again.',
  walletNotLinked: 'Please connect your Maya wallet to continue',
  badDetails: 'paymentMethodDetails must be a JSON object.',
} as const;

/* ----------------------------------------------------------------- the arithmetic */

export interface PlanChangeNumbers {
  /** Time left on the current subscription at `at` (0 when it has ended). */
  carriedMs: number;
  /** That time in days, rounded to the nearest whole day (what people read). */
  carriedDays: number;
  newEndDate: Date;
}

/** The new end date of a change applied at `at` to a subscription that ends at `currentEnd`. */
export function planChangeNumbers(at: Date, currentEnd: Date | null, plan: Pick<Plan, 'billingCycle' | 'duration'>): PlanChangeNumbers {
  const carriedMs = currentEnd ? Math.max(0, currentEnd.getTime() - at.getTime()) : 0;
  const periodEnd = addBillingPeriod(at, plan.billingCycle, Number(plan.duration));
  return { carriedMs, carriedDays: Math.round(carriedMs / DAY_MS), newEndDate: new Date(periodEnd.getTime() + carriedMs) };
}

/* ----------------------------------------------------------------- checks shared by preview and change */

/** The viewer's current subscription, which must be the one named (when named) and not a voucher one. */
async function changeableSubscription(q: Queryable, userId: string, at: Date, subscriptionId: string | null, voucherMessage: string): Promise<SubscriptionRow> {
  const current = await currentSubscription(q, userId, at);
  // Someone else's id, an ended one and an unknown one answer alike.
  if (!current || current.plan_type === 'FREE' || (subscriptionId !== null && current.id !== subscriptionId)) {
    throw new HttpError(404, SUBSCRIPTION_MESSAGES.notFound);
  }
  if (current.payment_method === 'VOUCHER' || current.plan_type === 'VOUCHER') throw new HttpError(400, voucherMessage);
  return current;
}

async function targetPlan(q: Queryable, planId: number, current: SubscriptionRow): Promise<Plan> {
  const plan = await findPlan(q, String(planId));
  const type = (await q.query<{ type: string }>('SELECT type FROM plans WHERE id = $1', [plan.id])).rows[0]?.type;
  if (type !== 'PREMIUM') throw new HttpError(400, PAYMENT_MESSAGES.notPremiumPlan);
  if (plan.id === current.plan_id) throw new HttpError(409, PLAN_CHANGE_MESSAGES.currentPlan);
  if (!plan.isActive) throw new HttpError(400, PAYMENT_MESSAGES.planInactive);
  return plan;
}

export interface PlanChangePreview {
  amountDue: string;
  currency: string;
  carriedDays: number;
  newEndDate: string;
}

/** Design.md: what a change to `planId` would do now, in numbers (nothing is written). */
export async function previewPlanChange(services: Services, userId: string, planId: number): Promise<PlanChangePreview> {
  const { db } = services;
  const at = await now(db);
  const current = await changeableSubscription(db, userId, at, null, PLAN_CHANGE_MESSAGES.voucherPlan);
  const plan = await targetPlan(db, planId, current);
  const numbers = planChangeNumbers(at, current.end_date, plan);
  return { amountDue: plan.price, currency: plan.currency, carriedDays: numbers.carriedDays, newEndDate: numbers.newEndDate.toISOString() };
}

/* ----------------------------------------------------------------- change plan */

export interface PlanChangeResult {
  paymentMethod: PaymentMethod | null;
  paymentLink: string | null;
  message: string;
}

/** What the record keeps so that the outcome can apply the change: the subscription it replaces. */
const CHANGE_KEY = 'changesSubscriptionId';

export async function changePlan(services: Services, userId: string, subscriptionId: string, planId: number, returnUrls: (recordId: string) => RedirectUrls): Promise<PlanChangeResult> {
  const { db, gateway } = services;
  await refreshPending(services, userId);
  const begun = await db.transaction(async (tx) => {
    const at = await now(tx);
    const current = await changeableSubscription(tx, userId, at, subscriptionId, PLAN_CHANGE_MESSAGES.voucherPlan);
    const plan = await targetPlan(tx, planId, current);
    const method = current.payment_method;
    if (method !== 'MAYA_VAULT' && method !== 'MAYA_WALLET' && method !== 'MAYA_CHECKOUT') throw new HttpError(400, PLAN_CHANGE_MESSAGES.noMethod);
    const pending = await tx.query(`SELECT 1 FROM payment_records WHERE user_id = $1 AND plan_id = $2 AND status = 'PENDING'`, [userId, plan.id]);
    if (pending.rows.length) throw new HttpError(409, PAYMENT_MESSAGES.pending);
    const details = { ...(current.payment_details ?? {}), [CHANGE_KEY]: current.id };
    try {
      const record = await recordPayment(tx, {
        userId, planId: plan.id, status: 'PENDING', amount: plan.price, paymentMethod: method, referenceId: newReferenceId(),
        gatewayResponse: { details }, at,
      });
      return { record, plan, method, details: current.payment_details ?? {} };
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new HttpError(409, PAYMENT_MESSAGES.pending);
      throw error;
    }
  });
  const { record, plan, method } = begun;
  const pendingRecord = { id: record.id, reference_id: record.referenceId, amount: plan.price };
  const value = toMayaValue(plan.price);

  if (method === 'MAYA_CHECKOUT') {
    const user = (await db.query<{ email: string; first_name: string; last_name: string }>('SELECT email, first_name, last_name FROM users WHERE id = $1', [userId])).rows[0]!;
    try {
      const created = await gateway.createCheckout({
        totalAmount: { value, currency: plan.currency },
        buyer: { firstName: user.first_name, lastName: user.last_name, contact: { email: user.email } },
        items: [{ name: `Sine Bisaya ${plan.name} (plan change)`, quantity: 1, code: plan.slug, description: plan.description, amount: { value }, totalAmount: { value } }],
        redirectUrl: returnUrls(record.id),
        requestReferenceNumber: record.referenceId,
        metadata: { paymentRecordId: record.id },
      });
      await attachGatewayId(services, record.id, created.checkoutId, created.redirectUrl);
      return { paymentMethod: method, paymentLink: created.redirectUrl, message: PLAN_CHANGE_MESSAGES.checkout };
    } catch (error) {
      return failToStart(services, record.id, error);
    }
  }

  let answer;
  try {
    if (method === 'MAYA_VAULT') {
      const cardTokenId = String(begun.details.cardTokenId ?? '');
      const card = (await db.query<{ customer_id: string | null }>('SELECT customer_id FROM saved_cards WHERE card_token_id = $1 AND user_id = $2', [cardTokenId, userId])).rows[0];
      if (!card?.customer_id) throw new GatewayError(404, 'CARD', PLAN_CHANGE_MESSAGES.cardNotFound);
      answer = await gateway.payWithCard(card.customer_id, cardTokenId, {
        totalAmount: { amount: value, currency: plan.currency }, requestReferenceNumber: record.referenceId, redirectUrl: returnUrls(record.id),
      });
    } else {
      const linkId = String(begun.details.mayaWalletId ?? '');
      answer = await gateway.payWithWalletLink(linkId, { totalAmount: { value, currency: plan.currency }, requestReferenceNumber: record.referenceId });
    }
  } catch (error) {
    return failToStart(services, record.id, error);
  }
  await attachGatewayId(services, record.id, answer.id, answer.verificationUrl ?? null);
  if (answer.verificationUrl && answer.status === 'FOR_AUTHENTICATION') {
    // 3-D Secure: the viewer confirms on the bank's page; the return applies the change.
    return { paymentMethod: method, paymentLink: answer.verificationUrl, message: PLAN_CHANGE_MESSAGES.verify };
  }
  const status = await applyGatewayAnswer(services, pendingRecord, answer);
  if (status === 'PAYMENT_SUCCESS') return { paymentMethod: method, paymentLink: null, message: PLAN_CHANGE_MESSAGES.changed(plan.name) };
  if (status === 'PENDING') return { paymentMethod: method, paymentLink: null, message: PLAN_CHANGE_MESSAGES.processing };
  throw new HttpError(402, method === 'MAYA_WALLET' ? PAYMENT_MESSAGES.walletFailed : PAYMENT_MESSAGES.declined);
}

/**
 * Called by `applyOutcome` inside its transaction when a paid record changes a subscription: the old
 * subscription ends now, the new one starts now with the carried time added. Returns false when the
 * record is not a plan change (the caller then writes a new subscription as for any purchase).
 */
export async function applyPlanChange(
  tx: Queryable,
  record: { id: string; user_id: string; plan_id: number; payment_method: PaymentMethod; payment_details: Record<string, unknown> | null },
  at: Date,
): Promise<boolean> {
  const fromId = record.payment_details?.[CHANGE_KEY];
  if (typeof fromId !== 'string') return false;
  const plan = await findPlan(tx, String(record.plan_id));
  const old = (
    await tx.query<{ id: string; plan_id: number; end_date: Date | null; status: string }>(
      `SELECT id, plan_id, end_date, status FROM subscriptions WHERE id = $1 AND user_id = $2`,
      [fromId, record.user_id],
    )
  ).rows[0];
  // Only time still running is carried: a subscription that ended meanwhile carries nothing.
  const live = old && ['ACTIVE', 'CANCELED', 'PAST_DUE'].includes(old.status) && (!old.end_date || old.end_date > at);
  const numbers = planChangeNumbers(at, live ? old.end_date : null, plan);
  if (live) {
    await tx.query(
      `UPDATE subscriptions SET status = 'EXPIRED', end_date = $2, auto_renew = false, canceled_reason = $3, updated_at = $2 WHERE id = $1`,
      [old.id, at, `Changed to the ${plan.name} plan`],
    );
  }
  const { [CHANGE_KEY]: _replaced, ...details } = record.payment_details ?? {};
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO subscriptions (user_id, plan_id, status, start_date, end_date, payment_method, payment_details, auto_renew, previous_plan_id, created_at, updated_at)
     VALUES ($1, $2, 'ACTIVE', $3, $4, $5, $6, $7, $8, $3, $3) RETURNING id`,
    [record.user_id, plan.id, at, numbers.newEndDate, record.payment_method, JSON.stringify(details), record.payment_method !== 'MAYA_CHECKOUT', old?.plan_id ?? null],
  );
  await tx.query('UPDATE payment_records SET subscription_id = $2 WHERE id = $1', [record.id, inserted.rows[0]!.id]);
  return true;
}

/* ----------------------------------------------------------------- change payment method */

function parseDetails(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined || raw === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new HttpError(400, PLAN_CHANGE_MESSAGES.badDetails);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new HttpError(400, PLAN_CHANGE_MESSAGES.badDetails);
  return parsed as Record<string, unknown>;
}

export async function changePaymentMethod(
  services: Services,
  userId: string,
  request: { subscriptionId: string; paymentMethod: 'MAYA_VAULT' | 'MAYA_WALLET' | 'MAYA_CHECKOUT'; paymentMethodDetails?: string | undefined },
): Promise<string> {
  const { db, gateway } = services;
  const at = await now(db);
  const current = await changeableSubscription(db, userId, at, request.subscriptionId, PLAN_CHANGE_MESSAGES.voucherMethod);
  const given = parseDetails(request.paymentMethodDetails);
  let details: Record<string, unknown>;
  if (request.paymentMethod === 'MAYA_VAULT') {
    // The card named (ours, beyond spec §7), else the viewer's default card; it must be chargeable.
    const named = typeof given.cardTokenId === 'string' ? given.cardTokenId : null;
    const card = (
      await db.query<{ card_token_id: string; customer_id: string | null }>(
        `SELECT card_token_id, customer_id FROM saved_cards WHERE user_id = $1 AND ${named ? 'card_token_id = $2' : 'is_default'} ORDER BY updated_at DESC LIMIT 1`,
        named ? [userId, named] : [userId],
      )
    ).rows[0];
    if (!card) throw new HttpError(400, named ? PLAN_CHANGE_MESSAGES.cardNotFound : PLAN_CHANGE_MESSAGES.noCard);
    if (!card.customer_id) throw new HttpError(400, PLAN_CHANGE_MESSAGES.cardNotFound);
    details = { cardTokenId: card.card_token_id };
  } else if (request.paymentMethod === 'MAYA_WALLET') {
    const linkId = typeof given.mayaWalletId === 'string' ? given.mayaWalletId : '';
    const row = (await db.query<{ link_id: string }>('SELECT link_id FROM wallet_links WHERE user_id = $1', [userId])).rows[0];
    if (!linkId || !row || row.link_id !== linkId) throw new HttpError(400, PLAN_CHANGE_MESSAGES.walletNotLinked);
    try {
      await gateway.getWalletLink(linkId);
    } catch (error) {
      if (error instanceof GatewayError && error.status === 404) throw new HttpError(400, PLAN_CHANGE_MESSAGES.walletNotLinked);
      throw new HttpError(502, PAYMENT_MESSAGES.gatewayDown);
    }
    details = { mayaWalletId: linkId };
  } else {
    details = {};
  }
  // A canceled subscription stays canceled (it renews on nothing); an active one renews on a card or
  // wallet and reminds on checkout.
  await db.query(
    `UPDATE subscriptions SET payment_method = $2, payment_details = $3, auto_renew = (status = 'ACTIVE' AND $2 <> 'MAYA_CHECKOUT'), updated_at = $4
     WHERE id = $1 AND user_id = $5`,
    [current.id, request.paymentMethod, JSON.stringify(details), at, userId],
  );
  return PLAN_CHANGE_MESSAGES.methodUpdated;
}
