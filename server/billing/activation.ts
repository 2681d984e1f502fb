/**
 * What a paid payment record does to the viewer's subscriptions, inside the transaction that applies
 * the outcome exactly once (settlement.ts): a purchase starts a new PREMIUM subscription; a plan
 * change (the record names the subscription it replaces) ends that one now and starts the new plan
 * with the time left carried over.
 */
import type { PaymentMethod } from '../../src/api/schemas';
import type { Queryable } from '../platform/db';
import { addBillingPeriod, planChangeNumbers } from './periods';
import { findPlan } from './plans';

/** What a plan change's record keeps so that its outcome can apply the change: the subscription it replaces. */
export const CHANGE_KEY = 'changesSubscriptionId';
/** What a renewal's record keeps (renewals.ts, or "Renew now" by checkout): the subscription whose next period it pays. */
export const RENEWS_KEY = 'renewsSubscriptionId';

/** The record's own keys, not the subscription's payment details. */
const RECORD_KEYS = [CHANGE_KEY, RENEWS_KEY, 'periodStart'];
const subscriptionDetails = (details: Record<string, unknown> | null) =>
  Object.fromEntries(Object.entries(details ?? {}).filter(([key]) => !RECORD_KEYS.includes(key)));

export interface PaidRecord {
  id: string;
  user_id: string;
  plan_id: number;
  checkout_id: string | null;
  payment_method: PaymentMethod;
  payment_details: Record<string, unknown> | null;
}

/**
 * One live subscription per viewer (the database holds it: subscriptions_one_live). Every path that
 * starts a subscription first closes the viewer's live rows, whatever their state (running, ended but
 * not yet marked, PAST_DUE, canceled): none of them is ever charged or retried again. A row still
 * running ends now; one whose period is over keeps its end date.
 */
export async function closeLive(tx: Queryable, userId: string, at: Date, reason: string | null): Promise<void> {
  await tx.query(
    `UPDATE subscriptions SET status = 'EXPIRED', auto_renew = false, next_attempt_at = NULL, end_date = LEAST(end_date, $2),
       canceled_reason = COALESCE($3, canceled_reason), updated_at = $2, end_notice_at = COALESCE(end_notice_at, $2)
     WHERE user_id = $1 AND status IN ('ACTIVE', 'PAST_DUE', 'CANCELED')`,
    [userId, at, reason],
  );
}

/** Writes the subscription a paid record buys; called once per record, in the outcome's transaction. */
export async function activatePaidRecord(tx: Queryable, record: PaidRecord, at: Date): Promise<void> {
  // A renewal (thousands at once from the billing engine) writes the record's new subscription in the same statement.
  if (typeof record.payment_details?.[RENEWS_KEY] === 'string') return startNextPeriod(tx, record, at);
  const subscriptionId =
    typeof record.payment_details?.[CHANGE_KEY] === 'string' ? await replaceForPlanChange(tx, record, at) : await startPurchased(tx, record, at);
  await tx.query('UPDATE payment_records SET subscription_id = $2 WHERE id = $1', [record.id, subscriptionId]);
}

/** A purchase (settlement.ts has checked the viewer has no paid period running): a new period from now. */
async function startPurchased(tx: Queryable, record: PaidRecord, at: Date): Promise<string> {
  const plan = (await tx.query<{ billing_cycle: string; duration: number }>('SELECT billing_cycle, duration FROM plans WHERE id = $1', [record.plan_id])).rows[0]!;
  await closeLive(tx, record.user_id, at, null);
  const end = addBillingPeriod(at, plan.billing_cycle, plan.duration);
  const details = { ...subscriptionDetails(record.payment_details), ...(record.checkout_id && record.payment_method === 'MAYA_CHECKOUT' ? { checkoutId: record.checkout_id } : {}) };
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO subscriptions (user_id, plan_id, status, start_date, end_date, payment_method, payment_details, auto_renew, created_at, updated_at)
     VALUES ($1, $2, 'ACTIVE', $3, $4, $5, $6, $7, $3, $3) RETURNING id`,
    [record.user_id, record.plan_id, at, end, record.payment_method, JSON.stringify(details), record.payment_method !== 'MAYA_CHECKOUT'],
  );
  return inserted.rows[0]!.id;
}

/**
 * A renewal: the next period starts exactly at the old end date (no gap, no overlap, also when paid
 * late while PAST_DUE), as a new history item on the plan the record billed it at: the same plan, or
 * the one a scheduled move down named (product.md#scheduled-downgrade), so what was charged is what
 * is granted whatever was scheduled or undone meanwhile. It renews on the method the
 * subscription has NOW (a card or wallet given while PAST_DUE, product.md#dunning), whichever way this
 * period was paid (the engine's charge, or Renew now by checkout). settlement.ts has checked, under
 * lock, that the old row is still live at that end date.
 */
async function startNextPeriod(tx: Queryable, record: PaidRecord, at: Date): Promise<void> {
  const renewedId = record.payment_details![RENEWS_KEY] as string;
  // The old period is over: ended and read (with its plan's period and its method) in one statement.
  // It was renewed, so no end-of-subscription notice is due for it (end_notice_at: handled).
  const old = (
    await tx.query<{ plan_id: number; end_date: Date; billing_cycle: string; duration: number; payment_method: PaymentMethod; payment_details: Record<string, unknown> | null }>(
      `UPDATE subscriptions s SET status = 'EXPIRED', auto_renew = false, next_attempt_at = NULL, renewal_failure = NULL, updated_at = $3,
         end_notice_at = COALESCE(s.end_notice_at, $3)
       FROM plans p WHERE p.id = COALESCE($4::int, s.plan_id) AND s.id = $1 AND s.user_id = $2
       RETURNING s.plan_id, s.end_date, p.billing_cycle, p.duration, s.payment_method, s.payment_details`,
      [renewedId, record.user_id, at, record.plan_id],
    )
  ).rows[0];
  if (!old) throw new Error(`Renewal of an unknown subscription ${renewedId}`);
  const start = old.end_date;
  const end = addBillingPeriod(start, old.billing_cycle, old.duration);
  const renewing = old.payment_method === 'MAYA_VAULT' || old.payment_method === 'MAYA_WALLET';
  await tx.query(
    `WITH next AS (
       INSERT INTO subscriptions (user_id, plan_id, status, start_date, end_date, payment_method, payment_details, auto_renew, previous_plan_id, created_at, updated_at)
       VALUES ($1, $2, 'ACTIVE', $3, $4, $5, $6, $7, $10, $8, $8) RETURNING id)
     UPDATE payment_records SET subscription_id = next.id FROM next WHERE payment_records.id = $9`,
    [record.user_id, record.plan_id, start, end, old.payment_method, JSON.stringify(old.payment_details ?? {}), renewing, at, record.id, old.plan_id],
  );
}

/**
 * A plan change: the old subscription ends now, whatever its state (running, PAST_DUE, or ended and
 * not yet renewed by the engine): it is never charged again. The new plan starts now with the time
 * still running on the old one added.
 */
async function replaceForPlanChange(tx: Queryable, record: PaidRecord, at: Date): Promise<string> {
  const fromId = record.payment_details![CHANGE_KEY] as string;
  const plan = await findPlan(tx, String(record.plan_id));
  const old = (
    await tx.query<{ id: string; plan_id: number; end_date: Date | null; status: string; past_due_end: Date | null }>(
      `SELECT id, plan_id, end_date, status, past_due_end FROM subscriptions WHERE id = $1 AND user_id = $2`,
      [fromId, record.user_id],
    )
  ).rows[0];
  // Only time still running is carried: a PAST_DUE subscription or one that ended meanwhile carries nothing.
  // A subscription canceled while its period was unpaid (past_due_end) runs on grace, not on paid time.
  const running = old && !old.past_due_end && (old.status === 'ACTIVE' || old.status === 'CANCELED') && (!old.end_date || old.end_date > at);
  const numbers = planChangeNumbers(at, running ? old.end_date : null, plan);
  await closeLive(tx, record.user_id, at, `Changed to the ${plan.name} plan`);
  const details = subscriptionDetails(record.payment_details);
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO subscriptions (user_id, plan_id, status, start_date, end_date, payment_method, payment_details, auto_renew, previous_plan_id, created_at, updated_at)
     VALUES ($1, $2, 'ACTIVE', $3, $4, $5, $6, $7, $8, $3, $3) RETURNING id`,
    [record.user_id, plan.id, at, numbers.newEndDate, record.payment_method, JSON.stringify(details), record.payment_method !== 'MAYA_CHECKOUT', old?.plan_id ?? null],
  );
  return inserted.rows[0]!.id;
}
