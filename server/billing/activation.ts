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
import { currentSubscription, LIVE_STATUSES } from './subscriptions';

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

/** Writes the subscription a paid record buys; called once per record, in the outcome's transaction. */
export async function activatePaidRecord(tx: Queryable, record: PaidRecord, at: Date): Promise<void> {
  // A renewal (thousands at once from the billing engine) writes the record's new subscription in the same statement.
  if (typeof record.payment_details?.[RENEWS_KEY] === 'string') return startNextPeriod(tx, record, at);
  const subscriptionId =
    typeof record.payment_details?.[CHANGE_KEY] === 'string' ? await replaceForPlanChange(tx, record, at) : await startPurchased(tx, record, at);
  await tx.query('UPDATE payment_records SET subscription_id = $2 WHERE id = $1', [record.id, subscriptionId]);
}

/** A purchase: paid time is never lost, so a subscription still running (bought meanwhile) is followed, not overlapped. */
async function startPurchased(tx: Queryable, record: PaidRecord, at: Date): Promise<string> {
  const plan = (await tx.query<{ billing_cycle: string; duration: number }>('SELECT billing_cycle, duration FROM plans WHERE id = $1', [record.plan_id])).rows[0]!;
  const current = await currentSubscription(tx, record.user_id, at);
  const start = current?.end_date && current.plan_type !== 'FREE' && current.end_date > at ? current.end_date : at;
  const end = addBillingPeriod(start, plan.billing_cycle, plan.duration);
  const details = { ...(record.payment_details ?? {}), ...(record.checkout_id && record.payment_method === 'MAYA_CHECKOUT' ? { checkoutId: record.checkout_id } : {}) };
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO subscriptions (user_id, plan_id, status, start_date, end_date, payment_method, payment_details, auto_renew, created_at, updated_at)
     VALUES ($1, $2, 'ACTIVE', $3, $4, $5, $6, $7, $8, $8) RETURNING id`,
    [record.user_id, record.plan_id, start, end, record.payment_method, JSON.stringify(details), record.payment_method !== 'MAYA_CHECKOUT', at],
  );
  return inserted.rows[0]!.id;
}

/**
 * A renewal: the next period starts exactly at the old end date (no gap, no overlap, also when paid
 * late while PAST_DUE), as a new history item on the same plan, method and card or wallet; the old
 * period is over.
 */
async function startNextPeriod(tx: Queryable, record: PaidRecord, at: Date): Promise<void> {
  const renewedId = record.payment_details![RENEWS_KEY] as string;
  // The old period is over: ended and read (with its plan's period) in one statement, which also locks it.
  // It was renewed, so no end-of-subscription notice is due for it (end_notice_at: handled).
  const old = (
    await tx.query<{ plan_id: number; end_date: Date; billing_cycle: string; duration: number }>(
      `UPDATE subscriptions s SET status = 'EXPIRED', auto_renew = false, next_attempt_at = NULL, renewal_failure = NULL, updated_at = $3,
         end_notice_at = COALESCE(s.end_notice_at, $3)
       FROM plans p WHERE p.id = s.plan_id AND s.id = $1 AND s.user_id = $2
       RETURNING s.plan_id, s.end_date, p.billing_cycle, p.duration`,
      [renewedId, record.user_id, at],
    )
  ).rows[0];
  if (!old) throw new Error(`Renewal of an unknown subscription ${renewedId}`);
  const start = old.end_date;
  const end = addBillingPeriod(start, old.billing_cycle, old.duration);
  const renewing = record.payment_method !== 'MAYA_CHECKOUT';
  await tx.query(
    `WITH next AS (
       INSERT INTO subscriptions (user_id, plan_id, status, start_date, end_date, payment_method, payment_details, auto_renew, previous_plan_id, created_at, updated_at)
       VALUES ($1, $2, 'ACTIVE', $3, $4, $5, $6, $7, $2, $8, $8) RETURNING id)
     UPDATE payment_records SET subscription_id = next.id FROM next WHERE payment_records.id = $9`,
    [record.user_id, old.plan_id, start, end, record.payment_method, JSON.stringify(subscriptionDetails(record.payment_details)), renewing, at, record.id],
  );
}

/** A plan change: the old subscription ends now, the new one starts now with the time left added. */
async function replaceForPlanChange(tx: Queryable, record: PaidRecord, at: Date): Promise<string> {
  const fromId = record.payment_details![CHANGE_KEY] as string;
  const plan = await findPlan(tx, String(record.plan_id));
  const old = (
    await tx.query<{ id: string; plan_id: number; end_date: Date | null; status: string }>(
      `SELECT id, plan_id, end_date, status FROM subscriptions WHERE id = $1 AND user_id = $2`,
      [fromId, record.user_id],
    )
  ).rows[0];
  // Only time still running is carried: a subscription that ended meanwhile carries nothing.
  const live = old && (LIVE_STATUSES as readonly string[]).includes(old.status) && (!old.end_date || old.end_date > at);
  const numbers = planChangeNumbers(at, live ? old.end_date : null, plan);
  if (live) {
    await tx.query(
      `UPDATE subscriptions SET status = 'EXPIRED', end_date = $2, auto_renew = false, canceled_reason = $3, updated_at = $2,
         end_notice_at = COALESCE(end_notice_at, $2) WHERE id = $1`, // replaced, not ended: no end notice
      [old.id, at, `Changed to the ${plan.name} plan`],
    );
  }
  const details = subscriptionDetails(record.payment_details);
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO subscriptions (user_id, plan_id, status, start_date, end_date, payment_method, payment_details, auto_renew, previous_plan_id, created_at, updated_at)
     VALUES ($1, $2, 'ACTIVE', $3, $4, $5, $6, $7, $8, $3, $3) RETURNING id`,
    [record.user_id, plan.id, at, numbers.newEndDate, record.payment_method, JSON.stringify(details), record.payment_method !== 'MAYA_CHECKOUT', old?.plan_id ?? null],
  );
  return inserted.rows[0]!.id;
}
