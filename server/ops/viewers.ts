/**
 * Finding a viewer and their timeline (issue 35): search by email, name, payment reference, Maya
 * payment id, card last 4 or voucher code; the timeline of subscriptions, payments with every gateway
 * attempt, mails, webhooks, sessions and the audit entries about them. Reads only.
 */
import type { SearchResult, TimelinePayment, TimelineSubscription, ViewerTimeline } from '../../src/api/ops/schemas';
import { MANILA_OFFSET_MS } from '../../src/lib/product';
import { fromCentavos, toCentavos } from '../../src/lib/vat';
import { REFUND_WINDOW_DAYS } from '../billing/reversals';
import { fromMayaValue, type Gateway } from '../gateway/maya';
import { DAY_MS, now } from '../platform/clock';
import type { Db, Queryable } from '../platform/db';
import { HttpError } from '../platform/http';
import { auditOfUser, escapeLike } from './audit';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const NOT_FOUND = 'Not found.';
const SEARCH_LIMIT = 20;

/** The status a result shows: the newest subscription's, NONE without one. */
const STATUS_SQL = `COALESCE((SELECT s.status FROM subscriptions s WHERE s.user_id = u.id ORDER BY s.start_date DESC, s.seq DESC LIMIT 1), 'NONE')`;

export async function searchViewers(db: Db, q: string): Promise<{ results: SearchResult[] }> {
  const text = q.trim();
  const like = `%${escapeLike(text)}%`;
  const rows = await db.query<{ user_id: string; email: string; name: string; matched_by: SearchResult['matchedBy']; status: string; rank: number }>(
    `WITH hits AS (
       SELECT id AS user_id, 'email' AS matched_by, 1 AS rank FROM users WHERE email ILIKE $1
       UNION ALL SELECT id, 'name', 2 FROM users WHERE (first_name || ' ' || last_name) ILIKE $1 OR (first_name || ' ' || COALESCE(middle_name || ' ', '') || last_name) ILIKE $1
       UNION ALL SELECT user_id, 'reference', 0 FROM payment_records WHERE upper(reference_id) = upper($2)
       UNION ALL SELECT r.user_id, 'mayaPaymentId', 0 FROM gateway_attempts a JOIN payment_records r ON r.id = a.record_id WHERE a.maya_id = $2
       UNION ALL SELECT user_id, 'mayaPaymentId', 0 FROM payment_records WHERE checkout_id = $2
       UNION ALL SELECT user_id, 'cardLast4', 3 FROM saved_cards WHERE $2 ~ '^[0-9]{4}$' AND last4 = $2
       UNION ALL SELECT user_id, 'voucher', 0 FROM voucher_redemptions WHERE code = upper($2)
     ), best AS (
       SELECT DISTINCT ON (user_id) user_id, matched_by, rank FROM hits ORDER BY user_id, rank
     )
     SELECT u.id AS user_id, u.email, trim(u.first_name || ' ' || u.last_name) AS name, b.matched_by, b.rank, ${STATUS_SQL} AS status
     FROM best b JOIN users u ON u.id = b.user_id
     ORDER BY b.rank, u.email LIMIT ${SEARCH_LIMIT}`,
    [like, text],
  );
  return { results: rows.rows.map((r) => ({ userId: r.user_id, email: r.email, name: r.name, matchedBy: r.matched_by, status: r.status })) };
}

const manilaDay = (at: Date) => new Date(at.getTime() + MANILA_OFFSET_MS).toISOString().slice(0, 10);
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export interface SubscriptionView {
  id: string;
  user_id: string;
  plan_name: string;
  status: string;
  payment_method: string | null;
  start_date: Date;
  end_date: Date | null;
  canceled_date: Date | null;
  canceled_reason: string | null;
  dunning_stopped_at: Date | null;
  retry_count: number;
  next_attempt_at: Date | null;
}

export const SUBSCRIPTION_VIEW = `SELECT s.id, s.user_id, p.name AS plan_name, s.status, s.payment_method, s.start_date, s.end_date, s.canceled_date, s.canceled_reason,
  s.dunning_stopped_at, s.next_attempt_at,
  COALESCE((SELECT r.retry_count FROM payment_records r WHERE r.subscription_id = s.id AND r.gateway_response->'details' ? 'renewsSubscriptionId'
    ORDER BY r.created_at DESC, r.seq DESC LIMIT 1), 0)::int AS retry_count
  FROM subscriptions s JOIN plans p ON p.id = s.plan_id`;

export const toTimelineSubscription = (s: SubscriptionView): TimelineSubscription => ({
  id: s.id,
  planName: s.plan_name,
  status: s.status,
  paymentMethod: s.payment_method,
  startDate: s.start_date.toISOString(),
  endDate: iso(s.end_date),
  canceledAt: iso(s.canceled_date),
  cancelReason: s.canceled_reason,
  dunningStopped: s.dunning_stopped_at !== null,
  retryCount: s.retry_count,
  nextRetryAt: s.dunning_stopped_at ? null : iso(s.next_attempt_at),
});

export async function subscriptionView(q: Queryable, id: string): Promise<SubscriptionView | null> {
  if (!UUID.test(id)) return null;
  return (await q.query<SubscriptionView>(`${SUBSCRIPTION_VIEW} WHERE s.id = $1`, [id])).rows[0] ?? null;
}

interface AttemptView {
  id: string;
  record_id: string;
  kind: string;
  maya_id: string | null;
  amount: string;
  outcome: string;
  reason: string | null;
  made_at: Date;
  resolved_at: Date | null;
  reverses: string | null;
  paid_at: Date | null;
}

interface PaymentView {
  id: string;
  reference_id: string;
  total: string;
  currency: string;
  status: string;
  payment_method: string;
  created_at: Date;
  paid_at: Date | null;
  applied_attempt_id: string | null;
  invoice_id: string | null;
  invoice_number: string | null;
}

/**
 * What an operator may give back of a record now (the console's button; the action checks again with
 * Maya): its paying charge, voided the same Manila day (whole), refunded after within 180 days.
 */
export function reversibleOf(payment: Pick<PaymentView, 'status' | 'payment_method' | 'applied_attempt_id' | 'paid_at' | 'created_at'>, attempts: AttemptView[], at: Date): TimelinePayment['reversible'] {
  const none = (why: string) => ({ kind: 'none' as const, maxAmount: '0.00', why });
  if (payment.payment_method === 'VOUCHER') return none('A voucher payment: nothing was charged.');
  const charge = attempts.find((a) => a.id === payment.applied_attempt_id);
  if (!charge || payment.status !== 'PAYMENT_SUCCESS') {
    if (payment.status === 'REVERSAL_DUE') return none('It pays for nothing: the reconciler gives it back.');
    if (payment.status === 'VOIDED' || payment.status === 'REFUNDED') return none('Already given back.');
    // Paid before the ledger of gateway attempts (migration 011): no charge of ours names Maya's payment.
    if (payment.status === 'PAYMENT_SUCCESS') return none("Paid before the ledger: refund it from Maya's manager.");
    return none('Nothing was charged.');
  }
  const reversals = attempts.filter((a) => a.reverses === charge.id);
  if (reversals.some((a) => a.outcome === 'OPEN' || a.outcome === 'UNKNOWN')) return none('A reversal of this payment is already on its way.');
  // What operators gave back already, in parts (each a refund); the rest may still be refunded.
  const given = reversals.filter((a) => a.outcome === 'SUCCEEDED').reduce((sum, a) => sum + toCentavos(a.amount), 0);
  const left = toCentavos(charge.amount) - given;
  if (charge.outcome !== 'SUCCEEDED' || left <= 0) return none('Already given back.');
  const paidAt = charge.paid_at ?? payment.paid_at ?? payment.created_at;
  if (given === 0 && manilaDay(paidAt) === manilaDay(at)) return { kind: 'void', maxAmount: charge.amount, why: null };
  const last = new Date(paidAt.getTime() + REFUND_WINDOW_DAYS * DAY_MS);
  if (at.getTime() > last.getTime()) return none("Maya refunds a payment only within 180 days. Refund it by hand from Maya's manager.");
  return { kind: 'refund', maxAmount: fromCentavos(left), why: `Refundable until ${manilaDay(last)}.` };
}

export async function paymentsOf(q: Queryable, userId: string, at: Date, recordId?: string): Promise<TimelinePayment[]> {
  const payments = await q.query<PaymentView>(
    `SELECT r.id, r.reference_id, r.total_amount::text AS total, r.currency, r.status, r.payment_method, r.created_at, r.paid_at, r.applied_attempt_id,
       d.id AS invoice_id, d.number AS invoice_number
     FROM payment_records r LEFT JOIN tax_documents d ON d.payment_record_id = r.id AND d.kind = 'INVOICE'
     WHERE r.user_id = $1 AND ($2::uuid IS NULL OR r.id = $2::uuid) ORDER BY r.created_at DESC, r.seq DESC LIMIT 200`,
    [userId, recordId ?? null],
  );
  const ids = payments.rows.map((p) => p.id);
  const attempts = ids.length
    ? (await q.query<AttemptView>(
        `SELECT id, record_id, kind, maya_id, amount::text AS amount, outcome, reason, made_at, resolved_at, reverses, paid_at
         FROM gateway_attempts WHERE record_id = ANY($1::uuid[]) ORDER BY seq`,
        [ids],
      )).rows
    : [];
  return payments.rows.map((p) => {
    const mine = attempts.filter((a) => a.record_id === p.id);
    return {
      id: p.id,
      referenceNumber: p.reference_id,
      amount: p.total,
      currency: p.currency,
      status: p.status,
      method: p.payment_method,
      createdAt: p.created_at.toISOString(),
      invoice: p.invoice_id ? { id: p.invoice_id, number: p.invoice_number! } : null,
      reversible: reversibleOf(p, mine, at),
      attempts: mine.map((a) => ({
        id: a.id, kind: a.kind, mayaId: a.maya_id, amount: a.amount, outcome: a.outcome, reason: a.reason, madeAt: a.made_at.toISOString(),
        resolvedAt: iso(a.resolved_at), reverses: a.reverses,
      })),
    };
  });
}

export async function viewerTimeline(db: Db, userId: string): Promise<ViewerTimeline> {
  if (!UUID.test(userId)) throw new HttpError(404, NOT_FOUND);
  const user = (
    await db.query<{ id: string; email: string; first_name: string; last_name: string; language: string; created_at: Date; tin: string | null }>(
      'SELECT id, email, first_name, last_name, language, created_at, tin FROM users WHERE id = $1',
      [userId],
    )
  ).rows[0];
  if (!user) throw new HttpError(404, NOT_FOUND);
  const at = await now(db);
  const subscriptions = await db.query<SubscriptionView>(`${SUBSCRIPTION_VIEW} WHERE s.user_id = $1 ORDER BY s.start_date DESC, s.seq DESC LIMIT 100`, [userId]);
  const mails = await db.query<{ id: string; subject: string; sent_at: Date }>(
    'SELECT id::text AS id, subject, sent_at FROM mail_log WHERE user_id = $1 ORDER BY id DESC LIMIT 100',
    [userId],
  );
  const webhooks = await db.query<{ id: string; received_at: Date; verified: boolean; status: string | null; maya_payment_id: string | null; reason: string | null }>(
    'SELECT id::text AS id, received_at, verified, status, maya_payment_id, reason FROM webhook_events WHERE user_id = $1 ORDER BY id DESC LIMIT 100',
    [userId],
  );
  const sessions = await db.query<{ id: string; created_at: Date; revoked_at: Date | null }>(
    'SELECT id, created_at, revoked_at FROM sessions WHERE user_id = $1 ORDER BY created_at DESC LIMIT 50',
    [userId],
  );
  return {
    viewer: { id: user.id, email: user.email, name: `${user.first_name} ${user.last_name}`.trim(), language: user.language, createdAt: user.created_at.toISOString(), tin: user.tin },
    subscriptions: subscriptions.rows.map(toTimelineSubscription),
    payments: await paymentsOf(db, userId, at),
    mails: mails.rows.map((m) => ({ id: m.id, subject: m.subject, sentAt: m.sent_at.toISOString() })),
    webhooks: webhooks.rows.map((w) => ({ id: w.id, receivedAt: w.received_at.toISOString(), verified: w.verified, status: w.status, paymentId: w.maya_payment_id, why: w.reason })),
    sessions: sessions.rows.map((s) => ({ id: s.id, createdAt: iso(s.created_at), revokedAt: iso(s.revoked_at) })),
    audit: await auditOfUser(db, userId),
  };
}

/** What Maya says of an attempt now: a payment by its id, a checkout by its id, else the reference's payments. */
export async function mayaView(db: Db, gateway: Gateway, attemptId: string, log: (line: string) => void): Promise<{ status: string; amount: string | null; raw: unknown }> {
  if (!UUID.test(attemptId)) throw new HttpError(404, NOT_FOUND);
  const attempt = (await db.query<{ kind: string; maya_id: string | null; reference_id: string }>('SELECT kind, maya_id, reference_id FROM gateway_attempts WHERE id = $1', [attemptId])).rows[0];
  if (!attempt) throw new HttpError(404, NOT_FOUND);
  const money = (value: unknown) => {
    try {
      return value === undefined || value === null ? null : fromMayaValue(value as string | number);
    } catch {
      return null;
    }
  };
  const mayaId = attempt.maya_id;
  try {
    if (attempt.kind === 'CHECKOUT' && mayaId) {
      const checkout = await gateway.getCheckout(mayaId);
      return { status: checkout.paymentStatus, amount: money(checkout.totalAmount.value ?? checkout.totalAmount.amount), raw: checkout };
    }
    if (mayaId && attempt.kind !== 'VOID' && attempt.kind !== 'REFUND') {
      const payment = await gateway.getPayment(mayaId);
      return { status: payment.status, amount: money(payment.amount), raw: payment };
    }
    const payments = await gateway.getPaymentsByReference(attempt.reference_id);
    return { status: payments.at(-1)?.status ?? 'NONE', amount: money(payments.at(-1)?.amount), raw: payments };
  } catch (error) {
    log(`ops: Maya could not be read for attempt ${attemptId}: ${error instanceof Error ? error.message : String(error)}`);
    throw new HttpError(502, GATEWAY_DOWN);
  }
}

/** Said when Maya could not be reached (a read, a void or refund). */
export const GATEWAY_DOWN = 'Maya could not be reached. Nothing was changed; please try again.';
