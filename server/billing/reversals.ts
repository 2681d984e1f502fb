/**
 * Giving back a charge that paid for nothing (settlement.ts marks such a record REVERSAL_DUE): voided
 * while Maya still allows it (the same day, before settlement), else refunded, as Maya documents; the
 * record then says VOIDED or REFUNDED with Maya's answer.
 *
 * Exactly once: a process claims the record for a few minutes before it calls the gateway, and reads
 * the payment first, so a retry after a crash or a second process finds the reversal already made.
 */
import { MANILA_OFFSET_MS } from '../../src/lib/product';
import { isFinalStatus, recordStatusOf, toMayaValue, type MayaPayment } from '../gateway/maya';
import { now } from '../platform/clock';
import type { BillingDeps } from './deps';

/** How long a claim on a reversal holds (real time): a process killed mid-way leaves it to another after this. */
export const REVERSAL_LEASE_MS = 2 * 60 * 1000;

const manilaDay = (at: Date) => new Date(at.getTime() + MANILA_OFFSET_MS).toISOString().slice(0, 10);

/** Returns the record's status afterwards: VOIDED, REFUNDED, or still REVERSAL_DUE when it could not be done now. */
export async function reverseDuplicate(deps: Pick<BillingDeps, 'db' | 'gateway' | 'log'>, recordId: string): Promise<string> {
  const { db, gateway, log } = deps;
  const claimedAt = new Date();
  const claimed = (
    await db.query<{ reference_id: string; amount: string; currency: string }>(
      `UPDATE payment_records SET gateway_response = COALESCE(gateway_response, '{}'::jsonb) || jsonb_build_object('reversalClaimedAt', $2::text)
       WHERE id = $1 AND status = 'REVERSAL_DUE'
         AND (gateway_response->>'reversalClaimedAt' IS NULL OR (gateway_response->>'reversalClaimedAt')::timestamptz < $3)
       RETURNING reference_id, amount::text AS amount, currency`,
      [recordId, claimedAt.toISOString(), new Date(claimedAt.getTime() - REVERSAL_LEASE_MS)],
    )
  ).rows[0];
  if (!claimed) return (await db.query<{ status: string }>('SELECT status FROM payment_records WHERE id = $1', [recordId])).rows[0]?.status ?? 'UNKNOWN';

  const finish = async (status: 'VOIDED' | 'REFUNDED', answer: unknown) => {
    const at = await now(db);
    await db.query(
      `UPDATE payment_records SET status = $2, gateway_response = gateway_response || jsonb_build_object('reversal', $3::jsonb), updated_at = $4
       WHERE id = $1 AND status = 'REVERSAL_DUE'`,
      [recordId, status, JSON.stringify({ status, answer }), at],
    );
    log(`billing: payment ${recordId} paid for nothing and was ${status === 'VOIDED' ? 'voided' : 'refunded'}`);
    return status;
  };
  try {
    const attempts = await gateway.getPaymentsByReference(claimed.reference_id);
    const reversed = attempts.find((p) => p.status === 'VOIDED' || p.status === 'REFUNDED');
    const paid = attempts.find((p) => isFinalStatus(p.status) && recordStatusOf(p.status) === 'PAYMENT_SUCCESS');
    if (!paid) {
      if (reversed) return finish(reversed.status as 'VOIDED' | 'REFUNDED', { id: reversed.id, status: reversed.status });
      log(`billing: payment ${recordId} is due a reversal but the gateway shows no paid attempt yet`);
      return 'REVERSAL_DUE';
    }
    const reason = 'Sine Bisaya: a second payment for a period already paid';
    if (canVoid(paid, await now(db))) {
      const answer = await gateway.voidPayment(paid.id, { reason });
      return finish('VOIDED', { id: paid.id, ...answer });
    }
    const answer = await gateway.refundPayment(paid.id, { totalAmount: { amount: toMayaValue(claimed.amount), currency: claimed.currency }, reason });
    return finish('REFUNDED', { id: paid.id, ...answer });
  } catch (error) {
    log(`billing: reversal of payment ${recordId} failed, to be tried again: ${error instanceof Error ? error.message : String(error)}`);
    return 'REVERSAL_DUE';
  }
}

/** Maya says whether a payment can still be voided; without the flag, a void is for the day of the payment (Asia/Manila). */
function canVoid(payment: MayaPayment, at: Date): boolean {
  if (payment.canVoid !== undefined) return payment.canVoid;
  return manilaDay(new Date(payment.createdAt)) === manilaDay(at);
}
