/**
 * Learning a payment's outcome and applying it exactly once. The outcome comes from the gateway,
 * never from a webhook body or a return address. "Exactly once" is one guarded
 * UPDATE ... WHERE status = 'PENDING' in the transaction that also writes the subscription
 * (activation.ts): a return, a webhook, or both racing, find nothing left to change.
 */
import type { PaymentMethod } from '../../src/api/schemas';
import { fromMayaValue, isFinalStatus, type MayaPayment } from '../gateway/maya';
import { now, type Queryable } from '../platform/clock';
import type { Db } from '../platform/db';
import { activatePaidRecord } from './activation';
import type { BillingDeps } from './deps';

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

/** Stores Maya's id (and hosted page) on the record once the gateway has answered the creation. */
export async function attachGatewayId(db: Db, recordId: string, gatewayId: string, paymentLink: string | null): Promise<void> {
  const at = await now(db);
  await db.query('UPDATE payment_records SET checkout_id = $2, payment_link = $3, updated_at = $4 WHERE id = $1', [recordId, gatewayId, paymentLink, at]);
}

/**
 * Asks the gateway about a PENDING record and applies a final answer. `gatewayId` is used when the
 * record does not know Maya's id yet (a webhook that arrives while the creation call is still open).
 * Returns the record's status afterwards.
 */
export async function settlePayment(deps: SettleDeps, recordId: string, gatewayId?: string): Promise<string> {
  const record = await findRecord(deps.db, 'id', recordId);
  if (!record) return 'UNKNOWN';
  if (record.status !== 'PENDING') return record.status;
  const mayaId = record.checkout_id ?? gatewayId;
  if (!mayaId) return record.status;
  let payment: MayaPayment;
  try {
    payment = record.payment_method === 'MAYA_WALLET' ? await deps.gateway.getWalletPayment(mayaId) : await deps.gateway.getPayment(mayaId);
  } catch (error) {
    deps.log(`gateway: could not read payment ${mayaId}: ${error instanceof Error ? error.message : String(error)}`);
    return record.status;
  }
  return applyGatewayAnswer(deps, record, payment);
}

/** Applies what the gateway said about the record's payment, after checking it is that payment. */
export async function applyGatewayAnswer(
  deps: Pick<BillingDeps, 'db' | 'log'>,
  record: Pick<RecordRow, 'id' | 'reference_id' | 'amount'>,
  payment: MayaPayment,
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
  const response = { id: payment.id, status: payment.status, amount: payment.amount, currency: payment.currency, updatedAt: payment.updatedAt };
  return applyOutcome(deps.db, record.id, payment.status, response, payment.id);
}

/**
 * The one place an outcome is written: the record leaves PENDING once; on success the subscription it
 * pays for is written in the same transaction. Returns the record's status afterwards.
 */
export async function applyOutcome(db: Db, recordId: string, status: string, gatewayResponse: Record<string, unknown>, gatewayId?: string): Promise<string> {
  return db.transaction(async (tx) => {
    const at = await now(tx);
    const updated = await tx.query<RecordRow>(
      `UPDATE payment_records SET status = $2, gateway_response = COALESCE(gateway_response, '{}'::jsonb) || $3::jsonb,
         checkout_id = COALESCE(checkout_id, $4), updated_at = $5
       WHERE id = $1 AND status = 'PENDING'
       RETURNING ${RECORD_COLUMNS}`,
      [recordId, status, JSON.stringify({ gateway: gatewayResponse }), gatewayId ?? null, at],
    );
    const record = updated.rows[0];
    if (!record) return (await findRecord(tx, 'id', recordId))?.status ?? 'UNKNOWN';
    if (status === 'PAYMENT_SUCCESS' && record.plan_id !== null) await activatePaidRecord(tx, { ...record, plan_id: record.plan_id }, at);
    return status;
  });
}

/** Asks the gateway about the viewer's pending payments (an abandoned checkout reads as expired after 15 minutes). */
export async function refreshPending(deps: SettleDeps, userId: string): Promise<void> {
  const pending = await deps.db.query<{ id: string }>(`SELECT id FROM payment_records WHERE user_id = $1 AND status = 'PENDING'`, [userId]);
  for (const row of pending.rows) await settlePayment(deps, row.id);
}

/** A webhook (already verified) names a payment by Maya's id and our reference: settle that record. */
export async function settleFromWebhook(deps: SettleDeps, gatewayId: string, referenceId: string): Promise<string> {
  const record = await findRecord(deps.db, 'reference_id', referenceId);
  if (!record) return 'UNKNOWN';
  if (record.checkout_id && record.checkout_id !== gatewayId) return record.status;
  return settlePayment(deps, record.id, gatewayId);
}

/** Where the browser lands after a return: the app's payment result page. */
export function resultStatus(status: string): 'success' | 'failed' | 'canceled' {
  if (status === 'PAYMENT_SUCCESS') return 'success';
  if (status === 'PAYMENT_CANCELLED') return 'canceled';
  return 'failed';
}
