/**
 * Learning a payment's outcome and applying it exactly once. The outcome comes from the gateway, read
 * where Maya documents it (a checkout by its id, card and wallet payments by our reference number),
 * never from a webhook body or a return address. "Exactly once" is one guarded
 * UPDATE ... WHERE status = 'PENDING' in the transaction that also writes the subscription
 * (activation.ts): a return, a webhook, or both racing, find nothing left to change.
 *
 * Money is never taken twice: a success that pays for nothing (the viewer already has the period
 * paid, or the record had been given up as failed or expired) is not stacked; the record becomes
 * REVERSAL_DUE and the charge is voided (same day) or refunded (reversals.ts), and recorded.
 */
import type { PaymentMethod } from '../../src/api/schemas';
import { fromMayaValue, isFinalStatus, recordStatusOf, type Gateway, type MayaPayment } from '../gateway/maya';
import { clockSql, now, unsetClock, type Queryable } from '../platform/clock';
import type { Db } from '../platform/db';
import { activatePaidRecord, CHANGE_KEY, RENEWS_KEY } from './activation';
import type { BillingDeps } from './deps';
import { reverseDuplicate } from './reversals';
import { currentSubscription } from './subscriptions';

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

const RECORD_COLUMNS = `id, user_id, plan_id, checkout_id, reference_id, status, amount::text AS amount, payment_method,
  gateway_response->'details' AS payment_details, created_at`;

async function findRecord(q: Queryable, where: 'id' | 'reference_id', value: string): Promise<RecordRow | null> {
  return (await q.query<RecordRow>(`SELECT ${RECORD_COLUMNS} FROM payment_records WHERE ${where} = $1`, [value])).rows[0] ?? null;
}

type SettleDeps = Pick<BillingDeps, 'db' | 'gateway' | 'log'>;

/** What the gateway says of one attempt, whichever way it was read. */
export interface GatewayOutcome {
  id: string;
  status: string;
  amount: number | string;
  currency: string;
  requestReferenceNumber: string;
  updatedAt?: string | null | undefined;
}

/** Stores Maya's id (and hosted page) on the record once the gateway has answered the creation. */
export async function attachGatewayId(db: Db, recordId: string, gatewayId: string, paymentLink: string | null): Promise<void> {
  const at = await now(db);
  await db.query('UPDATE payment_records SET checkout_id = $2, payment_link = $3, updated_at = $4 WHERE id = $1', [recordId, gatewayId, paymentLink, at]);
}

/** The attempt that counts among several with one reference: a success if there is one, else the one named, else the latest. */
export function decisiveAttempt(payments: MayaPayment[], gatewayId?: string | null): MayaPayment | null {
  return (
    payments.find((p) => isFinalStatus(p.status) && recordStatusOf(p.status) === 'PAYMENT_SUCCESS') ??
    payments.find((p) => p.id === gatewayId) ??
    [...payments].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0] ??
    null
  );
}

/** Reads the record's outcome where Maya documents it: a checkout by its id, card and wallet payments by reference number. */
async function readOutcome(gateway: Gateway, record: RecordRow, gatewayId: string | null): Promise<GatewayOutcome | null> {
  if (record.payment_method === 'MAYA_CHECKOUT') {
    if (!gatewayId) return null;
    const checkout = await gateway.getCheckout(gatewayId);
    return {
      id: checkout.id, status: checkout.paymentStatus, amount: checkout.totalAmount.value ?? checkout.totalAmount.amount ?? '',
      currency: checkout.totalAmount.currency, requestReferenceNumber: checkout.requestReferenceNumber, updatedAt: checkout.updatedAt,
    };
  }
  const payment = decisiveAttempt(await gateway.getPaymentsByReference(record.reference_id), gatewayId);
  return payment ? { ...payment } : null;
}

/**
 * Asks the gateway about a PENDING record and applies a final answer. `gatewayId` is used when the
 * record does not know Maya's id yet (a webhook that arrives while the creation call is still open).
 * Returns the record's status afterwards.
 */
export async function settlePayment(deps: SettleDeps, recordId: string, gatewayId?: string): Promise<string> {
  const record = await findRecord(deps.db, 'id', recordId);
  if (!record) return 'UNKNOWN';
  if (record.status === 'REVERSAL_DUE') return reverseDuplicate(deps, record.id);
  if (record.status !== 'PENDING') return record.status;
  const mayaId = record.checkout_id ?? gatewayId ?? null;
  if (!mayaId && record.payment_method === 'MAYA_CHECKOUT') return record.status;
  let outcome: GatewayOutcome | null;
  try {
    outcome = await readOutcome(deps.gateway, record, mayaId);
  } catch (error) {
    deps.log(`gateway: could not read payment ${mayaId ?? record.reference_id}: ${error instanceof Error ? error.message : String(error)}`);
    return record.status;
  }
  return outcome ? applyGatewayAnswer(deps, record, outcome) : record.status;
}

/** Applies what the gateway said about the record's payment, after checking it is that payment. */
export async function applyGatewayAnswer(
  deps: SettleDeps,
  record: Pick<RecordRow, 'id' | 'reference_id' | 'amount'>,
  payment: GatewayOutcome,
): Promise<string> {
  if (!isFinalStatus(payment.status)) return 'PENDING';
  let amount: string | null;
  try {
    amount = fromMayaValue(payment.amount);
  } catch {
    amount = null;
  }
  const matches = payment.requestReferenceNumber === record.reference_id && amount === record.amount && payment.currency === 'PHP';
  if (!matches) {
    deps.log(`gateway: payment ${payment.id} does not match record ${record.id} (reference, amount or currency); not applied`);
    return 'PENDING';
  }
  const response = { id: payment.id, status: payment.status, amount: payment.amount, currency: payment.currency, updatedAt: payment.updatedAt ?? null };
  const status = await applyOutcome(deps.db, record.id, recordStatusOf(payment.status), response, payment.id);
  return status === 'REVERSAL_DUE' ? reverseDuplicate(deps, record.id) : status;
}

/** Record statuses of an attempt we had given up on: a success arriving for one of them took money that paid nothing. */
const GIVEN_UP = ['PAYMENT_FAILED', 'PAYMENT_EXPIRED', 'PAYMENT_CANCELLED'];

/**
 * The one place an outcome is written: the record leaves PENDING once; on success the subscription it
 * pays for is written in the same transaction, unless it would pay for time already paid (then
 * REVERSAL_DUE). Returns the record's status afterwards.
 */
export async function applyOutcome(db: Db, recordId: string, status: string, gatewayResponse: Record<string, unknown>, gatewayId?: string): Promise<string> {
  return db.transaction(async (tx) => {
    // The billing clock is read by the UPDATE itself (one round trip less on every outcome).
    const updated = await tx.query<RecordRow & { at: Date }>(
      `UPDATE payment_records SET status = $2, gateway_response = COALESCE(gateway_response, '{}'::jsonb) || $3::jsonb,
         checkout_id = COALESCE(checkout_id, $4), updated_at = ${clockSql('$5')}
       WHERE id = $1 AND status = 'PENDING'
       RETURNING ${RECORD_COLUMNS}, updated_at AS at`,
      [recordId, status, JSON.stringify({ gateway: gatewayResponse }), gatewayId ?? null, unsetClock()],
    );
    const row = updated.rows[0];
    if (!row) {
      const existing = await findRecord(tx, 'id', recordId);
      if (!existing) return 'UNKNOWN';
      if (status !== 'PAYMENT_SUCCESS' || !GIVEN_UP.includes(existing.status)) return existing.status;
      // Maya took the money after we had written this attempt off: give it back, never keep it silently.
      await markReversalDue(tx, recordId, existing.status, gatewayResponse, await now(tx), 'paid after it was written off');
      return 'REVERSAL_DUE';
    }
    const { at, ...record } = row;
    if (status !== 'PAYMENT_SUCCESS' || record.plan_id === null) return status;
    // A plan change or a renewal pays for a period of the viewer's paid subscription: never a duplicate by that.
    const paysOwnPeriod = typeof record.payment_details?.[CHANGE_KEY] === 'string' || typeof record.payment_details?.[RENEWS_KEY] === 'string';
    if (!paysOwnPeriod) {
      // A purchase for a viewer who already has a paid period running pays for nothing: never stacked.
      const current = await currentSubscription(tx, record.user_id, at);
      if (current && current.plan_type !== 'FREE') {
        await markReversalDue(tx, recordId, 'PAYMENT_SUCCESS', gatewayResponse, at, 'the period is already paid');
        return 'REVERSAL_DUE';
      }
    }
    await activatePaidRecord(tx, { ...record, plan_id: record.plan_id }, at);
    return status;
  });
}

async function markReversalDue(tx: Queryable, recordId: string, from: string, gatewayResponse: Record<string, unknown>, at: Date, reason: string) {
  await tx.query(
    `UPDATE payment_records SET status = 'REVERSAL_DUE', gateway_response = COALESCE(gateway_response, '{}'::jsonb) || $3::jsonb, updated_at = $4
     WHERE id = $1 AND status = $2`,
    [recordId, from, JSON.stringify({ gateway: gatewayResponse, reversal: { reason } }), at],
  );
}

/**
 * Asks the gateway about the viewer's pending payments (an abandoned checkout reads as expired after
 * its hour) and finishes any reversal still due.
 */
export async function refreshPending(deps: SettleDeps, userId: string): Promise<void> {
  const open = await deps.db.query<{ id: string }>(`SELECT id FROM payment_records WHERE user_id = $1 AND status IN ('PENDING', 'REVERSAL_DUE')`, [userId]);
  for (const row of open.rows) await settlePayment(deps, row.id);
}

/** A webhook (already verified) names a payment by Maya's id and our reference: settle that record. */
export async function settleFromWebhook(deps: SettleDeps, gatewayId: string, referenceId: string): Promise<string> {
  const record = await findRecord(deps.db, 'reference_id', referenceId);
  if (!record) return 'UNKNOWN';
  // A late success for an attempt written off is still looked at (settlePayment asks the gateway).
  if (record.status !== 'PENDING' && !GIVEN_UP.includes(record.status) && record.status !== 'REVERSAL_DUE') return record.status;
  if (record.status !== 'PENDING') return lateOutcome(deps, record);
  return settlePayment(deps, record.id, record.payment_method === 'MAYA_CHECKOUT' ? (record.checkout_id ?? gatewayId) : gatewayId);
}

/** A record already written off (or due a reversal): a success the gateway now reports for it is reversed. */
async function lateOutcome(deps: SettleDeps, record: RecordRow): Promise<string> {
  if (record.status === 'REVERSAL_DUE') return reverseDuplicate(deps, record.id);
  let outcome: GatewayOutcome | null;
  try {
    outcome = await readOutcome(deps.gateway, record, record.checkout_id);
  } catch {
    return record.status;
  }
  if (!outcome || !isFinalStatus(outcome.status) || recordStatusOf(outcome.status) !== 'PAYMENT_SUCCESS') return record.status;
  if (outcome.requestReferenceNumber !== record.reference_id) return record.status;
  const status = await applyOutcome(deps.db, record.id, 'PAYMENT_SUCCESS', { id: outcome.id, status: outcome.status, amount: outcome.amount, currency: outcome.currency }, outcome.id);
  return status === 'REVERSAL_DUE' ? reverseDuplicate(deps, record.id) : status;
}

/** The wizard's name for each method it offers (its address, src/machines/subscribe/subscribe.address.ts; the server shares only the contract and lib). */
const WIZARD_METHOD: Partial<Record<PaymentMethod, 'card' | 'maya' | 'checkout'>> = { MAYA_VAULT: 'card', MAYA_WALLET: 'maya', MAYA_CHECKOUT: 'checkout' };

/**
 * The app's result page for a settled record. A failed one names the plan and method tried, so the
 * page's "Try again" reopens the wizard on that plan (what is named comes from our record, never
 * from the address Maya sent the browser back to).
 */
export async function resultAddress(deps: Pick<SettleDeps, 'db'>, publicBaseUrl: string, recordId: string | null, status: string): Promise<string> {
  const result = resultStatus(status);
  const params = new URLSearchParams({ status: result });
  if (result === 'failed' && recordId) {
    const tried = await deps.db.query<{ slug: string; payment_method: PaymentMethod }>(
      `SELECT p.slug, r.payment_method FROM payment_records r JOIN plans p ON p.id = r.plan_id WHERE r.id = $1`,
      [recordId],
    );
    const row = tried.rows[0];
    const method = row ? WIZARD_METHOD[row.payment_method] : undefined;
    if (row) params.set('plan', row.slug);
    if (method) params.set('payment-method', method);
  }
  return `${publicBaseUrl}/payment?${params.toString()}`;
}

/** Where the browser lands after a return: the app's payment result page. */
export function resultStatus(status: string): 'success' | 'failed' | 'canceled' {
  if (status === 'PAYMENT_SUCCESS') return 'success';
  if (status === 'PAYMENT_CANCELLED') return 'canceled';
  return 'failed';
}
