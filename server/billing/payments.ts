/**
 * Payment records (product.md#payment-record): one row per charge attempt, whatever the outcome, and the viewer's
 * payment history.
 */
import { randomBytes } from 'node:crypto';
import type { PaymentMethod, PaymentRecord, Receipt } from '../../src/api/schemas';
import type { Queryable } from '../platform/clock';
import type { BillingDeps } from './deps';
import { sessionGuardSql } from '../identity/tokens';
import type { Db } from '../platform/db';
import { isoRows, isoSql, jsonList, listOf, type JsonList, type ListFlag } from '../platform/jsonList';
import { rememberedPlans } from './plans';
import { refreshPending } from './settlement';
import { RENEWS_KEY } from './activation';
import { cardTypeLabel } from '../../src/lib/card';

/** Maya's outcome names, plus PENDING while a payment waits for one. */
export const PAYMENT_STATUSES = ['PENDING', 'PAYMENT_SUCCESS', 'PAYMENT_FAILED', 'PAYMENT_EXPIRED', 'PAYMENT_CANCELLED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

interface PaymentRow {
  id: string;
  user_id: string;
  subscription_id: string | null;
  checkout_id: string | null;
  reference_id: string;
  status: string;
  amount: string;
  discounted_amount: string;
  total_amount: string;
  payment_method: PaymentMethod;
  payment_link: string | null;
  gateway_response: unknown;
  retry_count: number;
  last_retry_date: Date | null;
  created_at: Date;
  updated_at: Date;
  plan_name: string | null;
  /** The payment's invoice (issue 34); a record just written has none. */
  invoice_id?: string | null;
}

const PAYMENT_COLUMNS = `r.id, r.user_id, r.subscription_id, r.checkout_id, r.reference_id, r.status,
         r.amount::text AS amount, r.discounted_amount::text AS discounted_amount, r.total_amount::text AS total_amount,
         r.payment_method, r.payment_link, r.gateway_response, r.retry_count, r.last_retry_date,
         r.created_at, r.updated_at`;

export function toPaymentRecord(row: PaymentRow): PaymentRecord {
  return {
    id: row.id,
    userId: row.user_id,
    subscriptionId: row.subscription_id,
    checkoutId: row.checkout_id,
    referenceId: row.reference_id,
    status: row.status,
    amount: row.amount,
    discountedAmount: row.discounted_amount,
    totalAmount: row.total_amount,
    paymentMethod: row.payment_method,
    paymentLink: row.payment_link,
    gatewayResponse: row.gateway_response ?? null,
    retryCount: row.retry_count,
    lastRetryDate: row.last_retry_date ? row.last_retry_date.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    planName: row.plan_name,
    invoiceId: row.invoice_id ?? null,
  };
}

/** A reference the viewer can quote to support: SB- and 12 upper-case hex digits. */
export const newReferenceId = () => `SB-${randomBytes(6).toString('hex').toUpperCase()}`;

export interface NewPaymentRecord {
  userId: string;
  subscriptionId?: string | null;
  planId?: number | null;
  checkoutId?: string | null;
  referenceId?: string;
  status: PaymentStatus;
  /** Money as a decimal string, e.g. '99.00'. */
  amount: string;
  discountedAmount?: string;
  paymentMethod: PaymentMethod;
  paymentLink?: string | null;
  gatewayResponse?: unknown;
  retryCount?: number;
  lastRetryDate?: Date | null;
  /** The server clock's time (server/platform/clock.ts); records carry no database `now()`. */
  at: Date;
}

export async function recordPayment(q: Queryable, input: NewPaymentRecord): Promise<PaymentRecord> {
  return (await insertRecord(q, input, false))!;
}

/**
 * The same, unless the reference is taken or the viewer already has a payment in flight (both unique
 * in the database): then nothing is written and the answer is null. The renewal engine's claim.
 */
export async function recordPaymentUnlessTaken(q: Queryable, input: NewPaymentRecord): Promise<PaymentRecord | null> {
  return insertRecord(q, input, true);
}

async function insertRecord(q: Queryable, input: NewPaymentRecord, unlessTaken: boolean): Promise<PaymentRecord | null> {
  const discount = input.discountedAmount ?? '0.00';
  const inserted = await q.query<PaymentRow>(
    `INSERT INTO payment_records AS r (user_id, subscription_id, plan_id, checkout_id, reference_id, status, amount, discounted_amount,
       total_amount, payment_method, payment_link, gateway_response, retry_count, last_retry_date, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::numeric, $8::numeric, $7::numeric - $8::numeric, $9, $10, $11, $12, $13, $14, $14)
     ${unlessTaken ? 'ON CONFLICT DO NOTHING' : ''}
     RETURNING ${PAYMENT_COLUMNS}, (SELECT p.name FROM plans p WHERE p.id = r.plan_id) AS plan_name`,
    [
      input.userId, input.subscriptionId ?? null, input.planId ?? null, input.checkoutId ?? null, input.referenceId ?? newReferenceId(),
      input.status, input.amount, discount, input.paymentMethod, input.paymentLink ?? null,
      input.gatewayResponse === undefined ? null : JSON.stringify(input.gatewayResponse),
      input.retryCount ?? 0, input.lastRetryDate ?? null, input.at,
    ],
  );
  const row = inserted.rows[0];
  return row ? toPaymentRecord(row) : null;
}

/**
 * The payment history as the answer's JSON (server/platform/jsonList.ts): one row per record, named and
 * ordered as `toPaymentRecord` writes it (test/server/platform/json-list.test.ts compares the two).
 */
const historyAnswer = (guard: string, plans: 'joined' | 'not joined') => `
  SELECT r.id, r.user_id AS "userId", r.subscription_id AS "subscriptionId", r.checkout_id AS "checkoutId",
         r.reference_id AS "referenceId", r.status, r.amount::text AS amount, r.discounted_amount::text AS "discountedAmount",
         r.total_amount::text AS "totalAmount", r.payment_method AS "paymentMethod", r.payment_link AS "paymentLink",
         r.gateway_response AS "gatewayResponse", r.retry_count AS "retryCount", ${isoSql('r.last_retry_date', 'lastRetryDate')},
         ${isoSql('r.created_at', 'createdAt')}, ${isoSql('r.updated_at', 'updatedAt')},
         ${plans === 'joined' ? 'p.name' : 'r.plan_id'} AS "planName",
         (SELECT d.id FROM tax_documents d WHERE d.payment_record_id = r.id AND d.kind = 'INVOICE') AS "invoiceId"
  FROM payment_records r
  ${plans === 'joined' ? 'LEFT JOIN plans p ON p.id = r.plan_id' : ''}
  WHERE r.user_id = $1${guard}
  ORDER BY r.created_at DESC, r.seq DESC`;
const GUARD = ` AND ${sessionGuardSql('$2', '$1')}`;
export const PAYMENT_HISTORY = historyAnswer('', 'joined');
const PAYMENT_HISTORY_GUARDED = historyAnswer(GUARD, 'joined');
/** PGlite's: the plan's id in the place of its name, which `readHistory` writes there from the remembered plans. */
const OWN_PAYMENT_HISTORY = historyAnswer('', 'not joined');
const OWN_PAYMENT_HISTORY_GUARDED = historyAnswer(GUARD, 'not joined');
/** A payment still waiting for its outcome: asked about before the history is answered. */
const OPEN_PAYMENTS: ListFlag = { column: 'status', values: ['PENDING', 'REVERSAL_DUE'] };

/**
 * The payment history, as JSON text: pending payments are asked about first, so an expired checkout
 * reads as expired. Read once (issue 21): only when it shows a payment still open (PENDING,
 * REVERSAL_DUE) is that asked about and the history read again. With `uncheckedSession`, the session
 * is checked in the same statement, and null is the answer when no payment was found under it
 * (nothing is asked then).
 */
export async function paymentHistory(deps: Pick<BillingDeps, 'db' | 'gateway' | 'log'>, userId: string, uncheckedSession: string | null = null): Promise<JsonList | null> {
  const history = await readHistory(deps.db, userId, uncheckedSession, OPEN_PAYMENTS);
  if (history.count === 0 && uncheckedSession !== null) return null;
  if (!history.flagged) return history;
  await refreshPending(deps, userId);
  return readHistory(deps.db, userId, null);
}

/**
 * The history as it is now: joined to the plans on PostgreSQL, their names from the remembered plans on
 * PGlite. There, a payment whose plan is not among them (made or removed since the read; nothing does
 * either at run time) has the history read again with the join, so that an answer is one snapshot's.
 */
async function readHistory(db: Db, userId: string, uncheckedSession: string | null, flag?: ListFlag): Promise<JsonList> {
  const params = uncheckedSession === null ? [userId] : [userId, uncheckedSession];
  if (db.kind === 'pglite') {
    const rows = await isoRows(db, uncheckedSession === null ? OWN_PAYMENT_HISTORY : OWN_PAYMENT_HISTORY_GUARDED, params);
    const plans = await rememberedPlans(db);
    if (rows.every((row) => row.planName === null || plans.has(row.planName as number))) {
      for (const row of rows) if (row.planName !== null) row.planName = plans.get(row.planName as number)!.name;
      return listOf(rows, flag);
    }
  }
  return jsonList(db, uncheckedSession === null ? PAYMENT_HISTORY : PAYMENT_HISTORY_GUARDED, params, flag);
}

/**
 * The receipt of one of the viewer's successful payments; null for another viewer's, a failed one, or none.
 * A card payment names its card (review finding 19): the card of the charge that succeeded, else the card
 * the purchase was asked with, else the card its subscription was on (a seeded payment has no charge
 * written); none if that card is no longer saved. `renewal`: it paid a next period (Renew now, a renewal).
 */
export async function receiptOf(q: Queryable, userId: string, recordId: string, merchant: { name: string; url: string }): Promise<Receipt | null> {
  const found = await q.query<{
    id: string; reference_id: string; paid_at: Date; plan_name: string | null; total_amount: string; currency: string;
    payment_method: PaymentMethod; start_date: Date | null; end_date: Date | null; first_name: string; last_name: string; email: string;
    renewal: boolean; card_type: string | null; card_last4: string | null;
  }>(
    `SELECT r.id, r.reference_id, COALESCE(r.paid_at, r.created_at) AS paid_at, p.name AS plan_name, r.total_amount::text AS total_amount, r.currency, r.payment_method,
            s.start_date, s.end_date, u.first_name, u.last_name, u.email,
            (r.gateway_response->'details'->>'${RENEWS_KEY}') IS NOT NULL AS renewal, c.card_type, c.last4 AS card_last4
     FROM payment_records r
     JOIN users u ON u.id = r.user_id
     LEFT JOIN plans p ON p.id = r.plan_id
     LEFT JOIN subscriptions s ON s.id = r.subscription_id
     LEFT JOIN LATERAL (
       SELECT sc.card_type, sc.last4 FROM saved_cards sc
       WHERE r.payment_method = 'MAYA_VAULT' AND sc.user_id = r.user_id AND sc.card_token_id = COALESCE(
         (SELECT a.method_details->>'cardTokenId' FROM gateway_attempts a
          WHERE a.record_id = r.id AND a.kind = 'CARD' AND a.outcome = 'SUCCEEDED' ORDER BY a.seq DESC LIMIT 1),
         r.gateway_response->'details'->>'cardTokenId',
         s.payment_details->>'cardTokenId')
     ) c ON true
     WHERE r.id = $1 AND r.user_id = $2 AND r.status = 'PAYMENT_SUCCESS'`,
    [recordId, userId],
  );
  const row = found.rows[0];
  if (!row) return null;
  return {
    id: row.id,
    merchant: merchant.name,
    merchantUrl: merchant.url,
    referenceId: row.reference_id,
    // When it was paid (a day-5 retry, a checkout paid an hour after it was opened), not when the record was made.
    paidAt: row.paid_at.toISOString(),
    planName: row.plan_name ?? 'Premium',
    periodStart: row.start_date ? row.start_date.toISOString() : null,
    periodEnd: row.end_date ? row.end_date.toISOString() : null,
    amount: row.total_amount,
    currency: row.currency,
    paymentMethod: row.payment_method,
    card: row.card_last4 ? { type: cardTypeLabel(row.card_type ?? 'Card'), last4: row.card_last4 } : null,
    renewal: row.renewal,
    customerName: `${row.first_name} ${row.last_name}`.trim(),
    customerEmail: row.email,
  };
}
