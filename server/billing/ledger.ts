/**
 * The ledger of gateway attempts (issue 32, product.md#money-ledger): every call that can move money
 * is written before it is made (`openAttempt`), given Maya's id as soon as it is known, and resolved
 * with its outcome, classified once here:
 *
 * - SUCCEEDED / DECLINED (SOFT or HARD, from Maya's answer and codes, never from message text) /
 *   EXPIRED / CANCELLED: Maya said so;
 * - UNKNOWN: the answer was lost (timeout, unreachable, 5xx, an answer we cannot read). Maya may have
 *   charged: the attempt stays open until Maya is read by reference (settlement.ts, reconciler.ts);
 * - OURS: Maya refused our request (401/403: keys; 429: our rate; 400 validation). Nothing was charged.
 *   An alert for us; never a decline for the viewer.
 */
import { DECLINE_REASONS } from '../../src/lib/renewal-failures';
import { GatewayError, isFinalStatus, recordStatusOf, type MayaPayment } from '../gateway/maya';
import { clockSql, unsetClock } from '../platform/clock';
import type { Queryable } from '../platform/db';

export type AttemptKind = 'CHECKOUT' | 'CARD' | 'WALLET' | 'VOID' | 'REFUND';
export type AttemptOutcome = 'OPEN' | 'UNKNOWN' | 'SUCCEEDED' | 'DECLINED' | 'EXPIRED' | 'CANCELLED' | 'OURS' | 'NOT_MADE' | 'REVERSED' | 'FAILED';
/** Outcomes that may still turn into a charge: Maya is read until they are settled. */
export const OPEN_OUTCOMES: readonly AttemptOutcome[] = ['OPEN', 'UNKNOWN'];

export interface Classified {
  outcome: AttemptOutcome;
  decline?: 'SOFT' | 'HARD';
  /** Why, in our words: what the viewer is told (translated on the way out) and support reads. */
  reason: string;
  /** Maya's own status or code, kept for support. */
  gatewayStatus?: string;
}

/** The reasons the product knows, in English, shared with the app (src/lib/renewal-failures.ts; the catalogs give their Bisaya). */
export { DECLINE_REASONS };

/**
 * Maya's codes for refusals that trying again will not change (the card expired, was reported lost or
 * stolen, or the token or link no longer exists). Anything else Maya declines is soft: tried again on
 * the dunning schedule.
 */
export const HARD_DECLINE_CODES: Readonly<Record<string, string>> = {
  PY0011: DECLINE_REASONS.cardExpired,
  PY0012: DECLINE_REASONS.declined,
  PY0013: DECLINE_REASONS.declined,
  CARD_EXPIRED: DECLINE_REASONS.cardExpired,
  CARD_LOST: DECLINE_REASONS.declined,
  CARD_STOLEN: DECLINE_REASONS.declined,
};

/** A failed call: unknown (maybe charged), ours (nothing charged; alert), or a decline Maya gave as an error. */
export function classifyError(error: unknown, kind: AttemptKind): Classified {
  if (!(error instanceof GatewayError)) return { outcome: 'UNKNOWN', reason: DECLINE_REASONS.unknown };
  const { status, code } = error;
  if (status === 0 || status >= 500 || code === 'BAD_RESPONSE') return { outcome: 'UNKNOWN', reason: DECLINE_REASONS.unknown, gatewayStatus: code };
  const hard = HARD_DECLINE_CODES[code];
  if (hard) return { outcome: 'DECLINED', decline: 'HARD', reason: hard, gatewayStatus: code };
  // The card token or the wallet link is gone at Maya: this method will not work again.
  if (status === 404 && (kind === 'CARD' || kind === 'WALLET')) {
    return { outcome: 'DECLINED', decline: 'HARD', reason: kind === 'CARD' ? DECLINE_REASONS.cardGone : DECLINE_REASONS.walletGone, gatewayStatus: code };
  }
  if (status === 402) return { outcome: 'DECLINED', decline: 'SOFT', reason: DECLINE_REASONS.declined, gatewayStatus: code };
  return { outcome: 'OURS', reason: DECLINE_REASONS.ours, gatewayStatus: code };
}

/** Maya's answer about a payment (a create's answer or a read). Non-final statuses leave the attempt OPEN. */
export function classifyPayment(payment: Pick<MayaPayment, 'status'> & { errorCode?: unknown; error?: unknown }): Classified {
  if (!isFinalStatus(payment.status)) {
    if (payment.status === 'FOR_AUTHENTICATION') return { outcome: 'OPEN', reason: DECLINE_REASONS.confirm, gatewayStatus: payment.status };
    return { outcome: 'OPEN', reason: '', gatewayStatus: payment.status };
  }
  const status = recordStatusOf(payment.status);
  if (status === 'PAYMENT_SUCCESS') return { outcome: 'SUCCEEDED', reason: '', gatewayStatus: payment.status };
  if (status === 'PAYMENT_EXPIRED') return { outcome: 'EXPIRED', reason: DECLINE_REASONS.declined, gatewayStatus: payment.status };
  if (status === 'PAYMENT_CANCELLED') return { outcome: 'CANCELLED', reason: DECLINE_REASONS.declined, gatewayStatus: payment.status };
  if (status === 'VOIDED' || status === 'REFUNDED') return { outcome: 'REVERSED', reason: '', gatewayStatus: payment.status };
  const code = typeof payment.errorCode === 'string' ? payment.errorCode : typeof payment.error === 'string' ? payment.error : undefined;
  const hard = code ? HARD_DECLINE_CODES[code] : undefined;
  return hard
    ? { outcome: 'DECLINED', decline: 'HARD', reason: hard, gatewayStatus: code }
    : { outcome: 'DECLINED', decline: 'SOFT', reason: DECLINE_REASONS.declined, gatewayStatus: code ?? payment.status };
}

export interface NewAttempt {
  recordId: string;
  kind: AttemptKind;
  referenceId: string;
  amount: string;
  currency: string;
  methodDetails?: Record<string, unknown> | null;
  reverses?: string | null;
  /** The billing clock. */
  at: Date;
}

/**
 * Writes the attempt before the call is made; answers its id. The record is due a look by the
 * reconciler a little later in the same statement: a process killed while the call is on its way
 * leaves nothing that nobody reads again.
 */
export async function openAttempt(q: Queryable, attempt: NewAttempt): Promise<string> {
  const row = await q.query<{ id: string }>(
    `WITH a AS (
       INSERT INTO gateway_attempts (record_id, kind, reference_id, amount, currency, method_details, reverses, created_at)
       VALUES ($1, $2, $3, $4::numeric, $5, $6, $7, $8) RETURNING id, record_id)
     UPDATE payment_records r SET recheck_at = LEAST(COALESCE(r.recheck_at, 'infinity'), clock_timestamp() + interval '${LOOK_AGAIN_AFTER_S} seconds')
     FROM a WHERE r.id = a.record_id RETURNING a.id`,
    [attempt.recordId, attempt.kind, attempt.referenceId, attempt.amount, attempt.currency,
      attempt.methodDetails ? JSON.stringify(attempt.methodDetails) : null, attempt.reverses ?? null, attempt.at],
  );
  return row.rows[0]!.id;
}

/** When the reconciler first looks at a record whose attempt was just made (its answer normally settles it before). */
export const LOOK_AGAIN_AFTER_S = 150;

/** Maya's id, once its answer named it (kept even if the outcome is not known yet). */
export async function attemptMade(q: Queryable, attemptId: string, mayaId: string): Promise<void> {
  await q.query('UPDATE gateway_attempts SET maya_id = $2 WHERE id = $1 AND maya_id IS NULL', [attemptId, mayaId]);
}

/**
 * Writes an outcome, unless the attempt is settled already (a later read never undoes a success), with
 * Maya's id and what Maya took when known. `at` is the billing clock, or omitted: read in the statement.
 */
export async function resolveAttempt(
  q: Queryable, attemptId: string, result: Classified & { mayaId?: string | null; amount?: string | null; paidAt?: Date | null }, at?: Date,
): Promise<void> {
  await q.query(
    `UPDATE gateway_attempts SET outcome = $2, decline = $3, reason = NULLIF($4, ''), gateway_status = COALESCE($5, gateway_status),
       maya_id = COALESCE(maya_id, $6), amount = COALESCE($8::numeric, amount), paid_at = COALESCE($9, paid_at),
       resolved_at = CASE WHEN $2 IN ('OPEN', 'UNKNOWN') THEN NULL ELSE ${clockSql('$7')} END
     WHERE id = $1 AND outcome IN ('OPEN', 'UNKNOWN')`,
    [attemptId, result.outcome, result.decline ?? null, result.reason, result.gatewayStatus ?? null, result.mayaId ?? null, at ?? unsetClock(), result.amount ?? null,
      result.paidAt ?? null],
  );
}

export interface AttemptRow {
  id: string;
  seq: string;
  kind: AttemptKind;
  reverses: string | null;
  maya_id: string | null;
  amount: string;
  outcome: AttemptOutcome;
  decline: 'SOFT' | 'HARD' | null;
  reason: string | null;
  gateway_status: string | null;
  /** When Maya says a success was paid (the receipt's date). */
  paid_at: Date | null;
  reversal_due: boolean;
  created_at: Date;
  made_at: Date;
}

export async function attemptsOf(q: Queryable, recordId: string): Promise<AttemptRow[]> {
  return (
    await q.query<AttemptRow>(
      `SELECT id, seq::text AS seq, kind, reverses, maya_id, amount::text AS amount, outcome, decline, reason, gateway_status, paid_at, reversal_due, created_at, made_at
       FROM gateway_attempts WHERE record_id = $1 ORDER BY seq`,
      [recordId],
    )
  ).rows;
}

/** The record's charge attempts (not its voids and refunds). */
export const charges = (attempts: AttemptRow[]) => attempts.filter((a) => a.kind !== 'VOID' && a.kind !== 'REFUND');
