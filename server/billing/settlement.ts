/**
 * The API's side of a Maya payment: start one (a PENDING payment record), learn its outcome from the
 * gateway (never from a webhook body or a return address), and apply it to the subscription exactly
 * once. "Exactly once" is one guarded UPDATE ... WHERE status = 'PENDING' in the transaction that
 * also writes the subscription: a return, a webhook, or both racing, find nothing left to change.
 */
import type { BillingCycle, PaymentMethod } from '../../src/api/schemas';
import { now, type Queryable } from '../platform/clock';
import type { Services } from '../context';
import { HttpError } from '../platform/http';
import { newReferenceId, recordPayment } from './payments';
import { applyPlanChange } from './planChange';
import { currentSubscription, findPlan } from './subscriptions';
import { GatewayError, fromMayaValue, isFinalStatus, type MayaPayment } from '../gateway/maya';

export const PAYMENT_MESSAGES = {
  alreadyPremium: 'You already have a Premium subscription. Change your plan or payment method from the Subscription page instead.',
  pending: 'A payment for this plan is already in progress. Finish it, or try again after it expires in 15 minutes.',
  notPremiumPlan: 'Choose a Premium plan to subscribe to.',
  planInactive: 'This plan is no longer offered.',
  gatewayDown: 'The payment gateway could not be reached. Please try again.',
  declined: 'Your payment was declined. Please try another card or payment method.',
  walletFailed: 'Your Maya wallet payment failed. Please try again or use another payment method.',
  paid: 'Payment successful. Your Premium subscription is active.',
} as const;

/* ----------------------------------------------------------------- billing periods */

const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000; // Asia/Manila has no daylight saving time

/**
 * The end of a period that starts at `start`: calendar months and years in Asia/Manila (31 January
 * plus one month is 28 or 29 February, the last day of that month), fixed lengths for the rest.
 */
export function addBillingPeriod(start: Date, cycle: BillingCycle | string, duration: number): Date {
  const fixed: Record<string, number> = { week: 7 * 86_400_000, day: 86_400_000, hour: 3_600_000, minute: 60_000 };
  if (cycle in fixed) return new Date(start.getTime() + duration * fixed[cycle]!);
  const months = cycle === 'year' ? 12 * duration : cycle === 'month' ? duration : null;
  if (months === null) throw new Error(`No calendar period for billing cycle ${cycle}`);
  const local = new Date(start.getTime() + MANILA_OFFSET_MS);
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(local.getUTCDate(), lastDay);
  const end = Date.UTC(year, month, day, local.getUTCHours(), local.getUTCMinutes(), local.getUTCSeconds(), local.getUTCMilliseconds());
  return new Date(end - MANILA_OFFSET_MS);
}

/* ----------------------------------------------------------------- starting a payment */

export interface PendingPayment {
  id: string;
  referenceId: string;
  amount: string;
  currency: string;
  planId: number;
  planName: string;
  planSlug: string;
  planDescription: string;
}

interface RecordRow {
  id: string;
  user_id: string;
  plan_id: number | null;
  checkout_id: string | null;
  reference_id: string;
  status: string;
  amount: string;
  payment_method: PaymentMethod;
  payment_details: Record<string, unknown> | null;
  created_at: Date;
}

const RECORD_SELECT = `SELECT id, user_id, plan_id, checkout_id, reference_id, status, amount::text AS amount, payment_method,
  gateway_response->'details' AS payment_details, created_at FROM payment_records`;

/**
 * Checks the viewer may buy the plan and writes the PENDING record. Stale pending payments of the
 * viewer are asked about first, so an abandoned checkout that has expired no longer blocks.
 */
export async function beginPayment(
  services: Services,
  userId: string,
  planId: number,
  method: PaymentMethod,
  details: Record<string, unknown>,
): Promise<PendingPayment> {
  const { db } = services;
  const plan = await findPlan(db, String(planId));
  if (plan.id !== planId) throw new HttpError(404, 'Plan not found');
  // A plan of another type (FREE, VOUCHER) cannot be bought here.
  const type = (await db.query<{ type: string }>('SELECT type FROM plans WHERE id = $1', [plan.id])).rows[0]?.type;
  if (type !== 'PREMIUM') throw new HttpError(400, PAYMENT_MESSAGES.notPremiumPlan);
  if (!plan.isActive) throw new HttpError(400, PAYMENT_MESSAGES.planInactive);
  await refreshPending(services, userId);
  return db.transaction(async (tx) => {
    const at = await now(tx);
    const current = await currentSubscription(tx, userId, at);
    if (current && current.plan_type !== 'FREE') throw new HttpError(409, PAYMENT_MESSAGES.alreadyPremium);
    const pending = await tx.query(`SELECT 1 FROM payment_records WHERE user_id = $1 AND plan_id = $2 AND status = 'PENDING'`, [userId, plan.id]);
    if (pending.rows.length) throw new HttpError(409, PAYMENT_MESSAGES.pending);
    try {
      const record = await recordPayment(tx, {
        userId, planId: plan.id, status: 'PENDING', amount: plan.price, paymentMethod: method, referenceId: newReferenceId(),
        gatewayResponse: { details }, at,
      });
      return {
        id: record.id, referenceId: record.referenceId, amount: plan.price, currency: plan.currency, planId: plan.id, planName: plan.name,
        planSlug: plan.slug, planDescription: plan.description,
      };
    } catch (error) {
      // Another process wrote a pending payment for this plan between the check and the insert.
      if ((error as { code?: string }).code === '23505') throw new HttpError(409, PAYMENT_MESSAGES.pending);
      throw error;
    }
  });
}

/** Stores Maya's id (and hosted page) on the record once the gateway has answered the creation. */
export async function attachGatewayId(services: Services, recordId: string, gatewayId: string, paymentLink: string | null): Promise<void> {
  const at = await now(services.db);
  await services.db.query('UPDATE payment_records SET checkout_id = $2, payment_link = $3, updated_at = $4 WHERE id = $1', [recordId, gatewayId, paymentLink, at]);
}

/** The gateway call that should have created the payment failed: the record says so, the viewer gets a 502. */
export async function failToStart(services: Services, recordId: string, error: unknown): Promise<never> {
  const reason = error instanceof GatewayError ? { code: error.code, message: error.message } : { message: 'gateway error' };
  await applyOutcome(services.db, recordId, 'PAYMENT_FAILED', { error: reason });
  if (error instanceof GatewayError && error.status >= 400 && error.status < 500) throw new HttpError(400, error.message);
  throw new HttpError(502, PAYMENT_MESSAGES.gatewayDown);
}

/* ----------------------------------------------------------------- learning and applying outcomes */

async function findRecord(q: Queryable, where: 'id' | 'reference_id', value: string): Promise<RecordRow | null> {
  return (await q.query<RecordRow>(`${RECORD_SELECT} WHERE ${where} = $1`, [value])).rows[0] ?? null;
}

/**
 * Asks the gateway about a PENDING record and applies a final answer. `gatewayId` is used when the
 * record does not know Maya's id yet (a webhook that arrives while the creation call is still open).
 * Returns the record's status afterwards.
 */
export async function settlePayment(services: Services, recordId: string, gatewayId?: string): Promise<string> {
  const record = await findRecord(services.db, 'id', recordId);
  if (!record) return 'UNKNOWN';
  if (record.status !== 'PENDING') return record.status;
  const mayaId = record.checkout_id ?? gatewayId;
  if (!mayaId) return record.status;
  let payment: MayaPayment;
  try {
    payment = record.payment_method === 'MAYA_WALLET' ? await services.gateway.getWalletPayment(mayaId) : await services.gateway.getPayment(mayaId);
  } catch (error) {
    services.log(`gateway: could not read payment ${mayaId}: ${error instanceof Error ? error.message : String(error)}`);
    return record.status;
  }
  return applyGatewayAnswer(services, record, payment);
}

/** Applies what the gateway said about the record's payment, after checking it is that payment. */
export async function applyGatewayAnswer(services: Services, record: Pick<RecordRow, 'id' | 'reference_id' | 'amount'>, payment: MayaPayment): Promise<string> {
  if (!isFinalStatus(payment.status)) return 'PENDING';
  let amount: string | null;
  try {
    amount = fromMayaValue(payment.amount);
  } catch {
    amount = null;
  }
  const matches = payment.requestReferenceNumber === record.reference_id && amount === record.amount && payment.currency === 'PHP';
  if (!matches) {
    services.log(`gateway: payment ${payment.id} does not match record ${record.id} (reference, amount or currency); not applied`);
    return 'PENDING';
  }
  const response = { id: payment.id, status: payment.status, amount: payment.amount, currency: payment.currency, updatedAt: payment.updatedAt };
  return applyOutcome(services.db, record.id, payment.status, response, payment.id);
}

/**
 * The one place an outcome is written: the record leaves PENDING once; on success the new PREMIUM
 * subscription is written in the same transaction. Returns the record's status afterwards.
 */
export async function applyOutcome(db: Services['db'], recordId: string, status: string, gatewayResponse: Record<string, unknown>, gatewayId?: string): Promise<string> {
  return db.transaction(async (tx) => {
    const at = await now(tx);
    const updated = await tx.query<RecordRow>(
      `UPDATE payment_records SET status = $2, gateway_response = COALESCE(gateway_response, '{}'::jsonb) || $3::jsonb,
         checkout_id = COALESCE(checkout_id, $4), updated_at = $5
       WHERE id = $1 AND status = 'PENDING'
       RETURNING id, user_id, plan_id, checkout_id, reference_id, status, amount::text AS amount, payment_method, gateway_response->'details' AS payment_details, created_at`,
      [recordId, status, JSON.stringify({ gateway: gatewayResponse }), gatewayId ?? null, at],
    );
    const record = updated.rows[0];
    if (!record) return (await findRecord(tx, 'id', recordId))?.status ?? 'UNKNOWN';
    if (status !== 'PAYMENT_SUCCESS' || record.plan_id === null) return status;
    // A paid plan change replaces the subscription it names (server/planChange.ts).
    if (await applyPlanChange(tx, { ...record, plan_id: record.plan_id }, at)) return status;

    const plan = (await tx.query<{ billing_cycle: string; duration: number }>('SELECT billing_cycle, duration FROM plans WHERE id = $1', [record.plan_id])).rows[0]!;
    // Paid time is never lost: a subscription still running (bought meanwhile) is followed, not overlapped.
    const current = await currentSubscription(tx, record.user_id, at);
    const start = current?.end_date && current.plan_type !== 'FREE' && current.end_date > at ? current.end_date : at;
    const end = addBillingPeriod(start, plan.billing_cycle, plan.duration);
    const details = { ...(record.payment_details ?? {}), ...(record.checkout_id && record.payment_method === 'MAYA_CHECKOUT' ? { checkoutId: record.checkout_id } : {}) };
    const subscription = await tx.query<{ id: string }>(
      `INSERT INTO subscriptions (user_id, plan_id, status, start_date, end_date, payment_method, payment_details, auto_renew, created_at, updated_at)
       VALUES ($1, $2, 'ACTIVE', $3, $4, $5, $6, $7, $8, $8) RETURNING id`,
      [record.user_id, record.plan_id, start, end, record.payment_method, JSON.stringify(details), record.payment_method !== 'MAYA_CHECKOUT', at],
    );
    await tx.query('UPDATE payment_records SET subscription_id = $2 WHERE id = $1', [record.id, subscription.rows[0]!.id]);
    return status;
  });
}

/** Asks the gateway about the viewer's pending payments (an abandoned checkout reads as expired after 15 minutes). */
export async function refreshPending(services: Services, userId: string): Promise<void> {
  const pending = await services.db.query<{ id: string }>(`SELECT id FROM payment_records WHERE user_id = $1 AND status = 'PENDING'`, [userId]);
  for (const row of pending.rows) await settlePayment(services, row.id);
}

/** A webhook (already verified) names a payment by Maya's id and our reference: settle that record. */
export async function settleFromWebhook(services: Services, gatewayId: string, referenceId: string): Promise<string> {
  const record = await findRecord(services.db, 'reference_id', referenceId);
  if (!record) return 'UNKNOWN';
  if (record.checkout_id && record.checkout_id !== gatewayId) return record.status;
  return settlePayment(services, record.id, gatewayId);
}

/** Where the browser lands after a return: the app's payment result page. */
export function resultStatus(status: string): 'success' | 'failed' | 'canceled' {
  if (status === 'PAYMENT_SUCCESS') return 'success';
  if (status === 'PAYMENT_CANCELLED') return 'canceled';
  return 'failed';
}
