/**
 * Giving back a charge that pays for nothing (settlement.ts marks such a charge attempt
 * `reversal_due`): voided while Maya still allows it (the same Manila day, before settlement), else
 * refunded within Maya's 180 days, as Maya documents. Every void and refund is itself an attempt in the
 * ledger, written before the call, so the record says what was given back and how.
 *
 * Exactly once: one reversal in flight per charge is held by the database (gateway_attempts_one_reversal);
 * Maya is read before any call, so a retry after a crash or a second process finds the reversal made.
 */
import { MANILA_OFFSET_MS } from '../../src/lib/product';
import { toMayaValue, type MayaPayment } from '../gateway/maya';
import { now } from '../platform/clock';
import type { BillingDeps } from './deps';
import { issueCreditMemo } from './invoices';
import { classifyError, openAttempt, resolveAttempt, type AttemptRow } from './ledger';
import { decideAndSchedule } from './settlement';

/** How long a reversal attempt may stay open (real time): one left by a killed process is read again after this. */
export const REVERSAL_LEASE_MS = 2 * 60 * 1000;
/** Maya refunds a payment for 180 days; after that only by hand. */
export const REFUND_WINDOW_DAYS = 180;

const manilaDay = (at: Date) => new Date(at.getTime() + MANILA_OFFSET_MS).toISOString().slice(0, 10);
const REASON = 'Sine Bisaya: a payment for a period already paid, replaced or ended';

type Deps = Pick<BillingDeps, 'db' | 'gateway' | 'log'>;

interface Due {
  id: string;
  record_id: string;
  kind: AttemptRow['kind'];
  maya_id: string | null;
  amount: string;
  currency: string;
  reference_id: string;
}

/**
 * Gives back one charge attempt marked reversal_due. Answers 'reversed', 'due' (not possible now: it is
 * tried again by the reconciler), or 'none' (nothing due, or another process is at it).
 */
export async function reverseAttempt(deps: Deps, attemptId: string): Promise<'reversed' | 'due' | 'none'> {
  const { db, gateway, log } = deps;
  const charge = (
    await db.query<Due>(
      `SELECT id, record_id, kind, maya_id, amount::text AS amount, currency, reference_id FROM gateway_attempts
       WHERE id = $1 AND reversal_due AND outcome = 'SUCCEEDED' AND reverses IS NULL`,
      [attemptId],
    )
  ).rows[0];
  if (!charge) return 'none';
  // A reversal of a process killed mid-way: once its lease is over, Maya is read again below.
  await db.query(
    `UPDATE gateway_attempts SET outcome = 'FAILED', reason = 'abandoned; Maya read again', resolved_at = $2
     WHERE reverses = $1 AND outcome IN ('OPEN', 'UNKNOWN') AND made_at < $3`,
    [attemptId, await now(db), new Date(Date.now() - REVERSAL_LEASE_MS)],
  );
  let reversalId: string;
  try {
    // Held by the database: one reversal in flight per charge.
    reversalId = await openAttempt(db, { recordId: charge.record_id, kind: 'VOID', referenceId: charge.reference_id, amount: charge.amount, currency: charge.currency, reverses: charge.id, at: await now(db) });
  } catch (error) {
    if ((error as { code?: string }).code === '23505') return 'none';
    throw error;
  }
  const done = async (kind: 'VOID' | 'REFUND', status: string) => {
    const at = await now(db);
    await db.transaction(async (tx) => {
      // The record first, as settlement.ts locks it before its attempts.
      const applied = (await tx.query<{ applied: boolean }>('SELECT applied_attempt_id = $2 AS applied FROM payment_records WHERE id = $1 FOR UPDATE', [charge.record_id, charge.id])).rows[0]?.applied;
      await tx.query(`UPDATE gateway_attempts SET kind = $2, outcome = 'SUCCEEDED', gateway_status = $3, resolved_at = $4 WHERE id = $1`, [reversalId, kind, status, at]);
      await tx.query(`UPDATE gateway_attempts SET outcome = 'REVERSED', reversal_due = false, resolved_at = COALESCE(resolved_at, $2) WHERE id = $1`, [charge.id, at]);
      // The charge that paid the record (and was invoiced) given back: its credit memo, in this transaction (invoices.ts).
      if (applied) await issueCreditMemo(tx, charge.record_id, at);
    });
    await decideAndSchedule(db, charge.record_id);
    log(`billing: payment ${charge.maya_id ?? charge.id} (${charge.reference_id}) paid for nothing and was ${kind === 'VOID' ? 'voided' : 'refunded'}`);
    return 'reversed' as const;
  };
  let paid: MayaPayment | undefined;
  try {
    const payments = await gateway.getPaymentsByReference(charge.reference_id);
    const others = new Set(
      (await db.query<{ maya_id: string }>(`SELECT maya_id FROM gateway_attempts WHERE record_id = $1 AND id <> $2 AND maya_id IS NOT NULL`, [charge.record_id, charge.id])).rows.map((r) => r.maya_id),
    );
    paid = payments.find((p) => p.id === charge.maya_id) ?? payments.find((p) => !others.has(p.id) && ['PAYMENT_SUCCESS', 'CAPTURED', 'VOIDED', 'REFUNDED'].includes(p.status));
  } catch (error) {
    await resolveAttempt(db, reversalId, { ...classifyError(error, 'VOID'), outcome: 'FAILED' }, await now(db));
    log(`billing: reversal of ${charge.reference_id} waits: Maya could not be read (${error instanceof Error ? error.message : String(error)})`);
    return 'due';
  }
  if (!paid) {
    await resolveAttempt(db, reversalId, { outcome: 'FAILED', reason: 'Maya shows no such payment yet' }, await now(db));
    return 'due';
  }
  if (paid.status === 'VOIDED' || paid.status === 'REFUNDED') return done(paid.status === 'VOIDED' ? 'VOID' : 'REFUND', paid.status);
  const at = await now(db);
  const voidable = canVoid(paid, at);
  if (!voidable && at.getTime() - new Date(paid.createdAt).getTime() > REFUND_WINDOW_DAYS * 24 * 60 * 60 * 1000) {
    await resolveAttempt(db, reversalId, { outcome: 'FAILED', reason: 'past the refund window: to be refunded by hand' }, at);
    log(`ALERT billing: payment ${paid.id} (${charge.reference_id}) pays for nothing and is past Maya's refund window: refund it by hand`);
    return 'due';
  }
  try {
    if (voidable) {
      const answer = await gateway.voidPayment(paid.id, { reason: REASON });
      return done('VOID', answer.status ?? 'VOIDED');
    }
    await db.query(`UPDATE gateway_attempts SET kind = 'REFUND' WHERE id = $1`, [reversalId]);
    const answer = await gateway.refundPayment(paid.id, { totalAmount: { amount: toMayaValue(charge.amount), currency: charge.currency }, reason: REASON });
    return done('REFUND', answer.status ?? 'REFUNDED');
  } catch (error) {
    // Unknown or refused: the next pass reads Maya first (and finds a void that was made after all).
    const result = classifyError(error, 'VOID');
    await resolveAttempt(db, reversalId, { ...result, outcome: 'FAILED' }, await now(db));
    log(`${result.outcome === 'UNKNOWN' ? '' : 'ALERT '}billing: reversal of payment ${paid.id} (${charge.reference_id}) failed, to be tried again: ${error instanceof Error ? error.message : String(error)}`);
    return 'due';
  }
}

/** Every charge of the record still due to be given back. Answers the record's status afterwards. */
export async function reverseDue(deps: Deps, recordId: string): Promise<string> {
  const due = await deps.db.query<{ id: string }>(`SELECT id FROM gateway_attempts WHERE record_id = $1 AND reversal_due ORDER BY seq`, [recordId]);
  for (const row of due.rows) await reverseAttempt(deps, row.id);
  return (await deps.db.query<{ status: string }>('SELECT status FROM payment_records WHERE id = $1', [recordId])).rows[0]?.status ?? 'UNKNOWN';
}

/** Maya says whether a payment can still be voided; without the flag, a void is for the day of the payment (Asia/Manila). */
function canVoid(payment: MayaPayment, at: Date): boolean {
  if (payment.canVoid !== undefined) return payment.canVoid;
  return manilaDay(new Date(payment.createdAt)) === manilaDay(at);
}
