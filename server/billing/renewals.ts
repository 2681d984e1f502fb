/**
 * Renewals and dunning (docs/product.md#renewals, #dunning, #checkout-renewal, #one-charge-per-period):
 * the work the billing engine (engine.ts) runs when the billing clock says it is due. Each function
 * handles one subscription and is safe to run twice, in two processes at once, or again after a
 * process was killed in the middle:
 *
 * - `renewSubscription`: a card (MAYA_VAULT) or wallet (MAYA_WALLET) subscription that is ACTIVE and
 *   auto-renewing is charged at its end date, or a PAST_DUE one at its next attempt. The reference sent
 *   to Maya is derived from the subscription and the period, and one payment record per period
 *   carries every attempt (retry_count, last_retry_date); before charging, Maya is asked for that
 *   reference, so a retry after a crash finds the earlier charge instead of making a second one. On
 *   success the next period starts exactly at the old end date (activation.ts). On failure the
 *   subscription is PAST_DUE, retried 1, 3, 5 and 7 days after the end date (a hard decline is not
 *   retried), and after the last failure it ends.
 * - `endSubscription`: a PAST_DUE subscription whose last attempt failed, or whose grace is over.
 * - `remindCheckout`, `noticeEnd`: the checkout reminder (from 3 days before the end date) and the
 *   end-of-subscription notice, each mailed once.
 */
import type { Language } from '../platform/language';
import { createHash } from 'node:crypto';
import { PRODUCT_NAME } from '../../src/lib/product';
import { formatDate } from '../../src/lib/dates';
import { GatewayError, isFinalStatus, recordStatusOf, toMayaValue, type MayaPayment } from '../gateway/maya';
import { contactOf } from '../identity/users';
import { clockSql, DAY_MS, now, unsetClock } from '../platform/clock';
import type { Db, Queryable } from '../platform/db';
import type { Mailer } from '../platform/mail';
import { RENEWS_KEY } from './activation';
import type { BillingDeps } from './deps';
import { recordPaymentUnlessTaken } from './payments';
import { addBillingPeriod } from './periods';
import { applyGatewayAnswer, decisiveAttempt } from './settlement';
import { LAST_RETRY_DAY, REMINDER_DAYS } from './subscriptions';

/** Days after the end date on which a failed renewal is tried again; after the last, the subscription ends. */
export const RETRY_DAYS = [1, 3, 5, LAST_RETRY_DAY] as const;
export { REMINDER_DAYS };
/** How long a process holds a renewal charge (real time): one killed mid-way leaves it to another after this. */
export const CHARGE_LEASE_MS = 60_000;

export type RenewalDeps = Pick<BillingDeps, 'db' | 'gateway' | 'log' | 'publicBaseUrl'> & { mailer: Mailer };

/** The reference sent to Maya for one period of one subscription: the same after any crash or retry. */
export function renewalReference(subscriptionId: string, periodEnd: Date): string {
  const digest = createHash('sha256').update(`${subscriptionId}|${periodEnd.toISOString()}`).digest('hex').slice(0, 20).toUpperCase();
  return `SB-RN-${digest}`;
}

/** Maya's refusals that will not change by trying again (expired, lost or stolen card; link removed). */
export function isHardDecline(reason: string | null | undefined): boolean {
  return /expired|lost|stolen|not found|unlinked|link|PY0011|PY0012|PY0013/i.test(reason ?? '');
}

interface DueRow {
  id: string;
  user_id: string;
  plan_id: number;
  status: string;
  end_date: Date;
  payment_method: 'MAYA_VAULT' | 'MAYA_WALLET';
  payment_details: Record<string, unknown> | null;
  next_attempt_at: Date | null;
  auto_renew: boolean;
}

/** What the engine runs for a due subscription. */
export type DueKind = 'renew' | 'end' | 'remind' | 'notice';

/** Each kind of due work, as a condition on `subscriptions s` at the billing clock's `$1` (each has its partial index). */
const DUE: Array<{ kind: DueKind; where: string }> = [
  { kind: 'renew', where: `s.status = 'ACTIVE' AND s.auto_renew AND s.payment_method IN ('MAYA_VAULT', 'MAYA_WALLET') AND s.end_date <= $1` },
  { kind: 'renew', where: `s.status = 'PAST_DUE' AND s.next_attempt_at <= $1` },
  { kind: 'end', where: `s.status = 'PAST_DUE' AND s.next_attempt_at IS NULL AND s.end_date + interval '${RETRY_DAYS.at(-1)} days' <= $1` },
  {
    kind: 'remind',
    where: `s.status = 'ACTIVE' AND s.payment_method = 'MAYA_CHECKOUT' AND s.reminded_at IS NULL AND s.end_date > $1 AND s.end_date - interval '${REMINDER_DAYS} days' <= $1`,
  },
  {
    kind: 'notice',
    where: `s.end_notice_at IS NULL AND s.status IN ('CANCELED', 'EXPIRED') AND s.end_date <= $1 AND s.end_date > $1 - interval '30 days'
       AND NOT EXISTS (SELECT 1 FROM subscriptions n WHERE n.user_id = s.user_id AND n.start_date >= s.end_date AND n.id <> s.id)`,
  },
  {
    kind: 'notice',
    where: `s.end_notice_at IS NULL AND s.status = 'ACTIVE' AND NOT (s.auto_renew AND s.payment_method IN ('MAYA_VAULT', 'MAYA_WALLET'))
       AND s.end_date <= $1 AND s.end_date > $1 - interval '30 days'
       AND NOT EXISTS (SELECT 1 FROM subscriptions n WHERE n.user_id = s.user_id AND n.start_date >= s.end_date AND n.id <> s.id)`,
  },
];

/**
 * How long a subscription taken into a queued job is left to it (real time) before a sweep queues it
 * again. The engine gives it back when the job is done (even a failed one); this is only for a job the
 * queue itself lost, so it is long: a backlog of 100,000 renewals drains well within it.
 */
export const QUEUED_FOR_MS = 60 * 60 * 1000;

export type DueWork = Record<DueKind, string[]>;

/** What is due at `at` (ids only: each is then handled on its own). */
export async function dueWork(db: Db, at: Date, limit = 500): Promise<DueWork> {
  const due: DueWork = { renew: [], end: [], remind: [], notice: [] };
  for (const { kind, where } of DUE) {
    const rows = await db.query<{ id: string }>(`SELECT s.id FROM subscriptions s WHERE ${where} LIMIT $2`, [at, limit]);
    due[kind].push(...rows.rows.map((r) => r.id));
  }
  return due;
}

/**
 * Takes what is due at `at` for the engine to queue: each subscription is marked as queued (skipping
 * rows another process is taking or writing), so no sweep, of this process or another, queues it again
 * while its job waits or runs. `releaseQueued` gives them back when the job is done.
 */
export async function takeDueWork(db: Queryable, at: Date, limit = 500): Promise<DueWork> {
  const due: DueWork = { renew: [], end: [], remind: [], notice: [] };
  const queuedAt = new Date();
  // A mark whose job the queue lost is dropped after QUEUED_FOR_MS; the subscription is then taken as any other.
  await db.query('UPDATE subscriptions SET queued_at = NULL WHERE queued_at < $1', [new Date(queuedAt.getTime() - QUEUED_FOR_MS)]);
  for (const { kind, where } of DUE) {
    const rows = await db.query<{ id: string }>(
      `UPDATE subscriptions SET queued_at = $2 WHERE id IN (
         SELECT s.id FROM subscriptions s WHERE ${where} AND s.queued_at IS NULL LIMIT $3 FOR UPDATE OF s SKIP LOCKED)
       RETURNING id`,
      [at, queuedAt, limit],
    );
    due[kind].push(...rows.rows.map((r) => r.id));
  }
  return due;
}

/** The job for these subscriptions is done (whatever happened): a later sweep may queue them again when due. */
export async function releaseQueued(db: Db, ids: string[]): Promise<void> {
  await db.query('UPDATE subscriptions SET queued_at = NULL WHERE id = ANY($1::uuid[]) AND queued_at IS NOT NULL', [ids]);
}

const money = (amount: string) => `₱${amount}`;

interface ClaimRow extends DueRow {
  price: string;
  plan_name: string;
  billing_cycle: string;
  duration: number;
  email: string;
  first_name: string;
  /** The viewer's language: the receipt is written in it. */
  language: Language;
  /** The saved card's customer at Maya (a card subscription). */
  customer_id: string | null;
  at: Date;
}

interface Claim {
  sub: ClaimRow;
  reference: string;
  record: { id: string; amount: string };
  /** The record was written by this claim: no charge with its reference can have been made yet. */
  fresh: boolean;
}

/**
 * Takes the due period of one subscription for this process, or answers null (nothing due, paid
 * already, another payment of the viewer in flight, or another process holds it). No lock is held:
 * each write is guarded by the database itself (the reference and one payment in flight per viewer
 * are unique; the lease is taken by one guarded UPDATE), so the claim costs three statements.
 */
async function claimRenewal(db: Db, subscriptionId: string): Promise<Claim | null> {
  const sub = (
    await db.query<ClaimRow>(
      `SELECT s.id, s.user_id, s.plan_id, s.status, s.end_date, s.payment_method, s.payment_details, s.next_attempt_at, s.auto_renew,
         p.price::text AS price, p.name AS plan_name, p.billing_cycle, p.duration, u.email, u.first_name, u.language, c.customer_id, ${clockSql('$2')} AS at
       FROM subscriptions s JOIN plans p ON p.id = s.plan_id JOIN users u ON u.id = s.user_id
       LEFT JOIN saved_cards c ON s.payment_method = 'MAYA_VAULT' AND c.card_token_id = s.payment_details->>'cardTokenId' AND c.user_id = s.user_id
       WHERE s.id = $1`,
      [subscriptionId, unsetClock()],
    )
  ).rows[0];
  if (!sub) return null;
  const at = sub.at;
  const due =
    (sub.status === 'ACTIVE' && sub.auto_renew && (sub.payment_method === 'MAYA_VAULT' || sub.payment_method === 'MAYA_WALLET') && sub.end_date <= at) ||
    (sub.status === 'PAST_DUE' && sub.next_attempt_at !== null && sub.next_attempt_at <= at);
  if (!due) return null;
  const reference = renewalReference(sub.id, sub.end_date);
  // The charge itself is held by one process for a while (real time), so two never charge at once.
  const lease = JSON.stringify(new Date().toISOString());
  // The first attempt for this period writes its record. Nothing is written when the record exists
  // (another process wrote it first, or an earlier attempt did), or when another payment of the viewer
  // (a purchase, a plan change) holds the one slot.
  const created = await recordPaymentUnlessTaken(db, {
    userId: sub.user_id, subscriptionId: sub.id, planId: sub.plan_id, referenceId: reference, status: 'PENDING', amount: sub.price,
    paymentMethod: sub.payment_method, at,
    gatewayResponse: { details: { ...(sub.payment_details ?? {}), [RENEWS_KEY]: sub.id, periodStart: sub.end_date.toISOString() }, chargeClaimedAt: JSON.parse(lease) },
  });
  if (created) return { sub, reference, record: { id: created.id, amount: sub.price }, fresh: true };
  const existing = (
    await db.query<{ id: string; status: string; amount: string; retry_count: number }>(
      'SELECT id, status, amount::text AS amount, retry_count FROM payment_records WHERE reference_id = $1',
      [reference],
    )
  ).rows[0];
  if (!existing) return null; // the viewer's other payment in flight: next sweep
  if (existing.status === 'PAYMENT_SUCCESS') return null; // this period is paid already
  try {
    // A retry takes the same record back to PENDING, one more attempt; a PENDING one (a process died
    // mid-way) is taken over once its lease has run out.
    const leased = await db.query(
      `UPDATE payment_records SET status = 'PENDING',
         retry_count = retry_count + CASE WHEN status = 'PENDING' THEN 0 ELSE 1 END,
         last_retry_date = CASE WHEN status = 'PENDING' THEN last_retry_date ELSE $3 END,
         updated_at = CASE WHEN status = 'PENDING' THEN updated_at ELSE $3 END,
         gateway_response = COALESCE(gateway_response, '{}'::jsonb) || jsonb_build_object('chargeClaimedAt', $4::jsonb)
       WHERE id = $1 AND status = $2 AND retry_count = $5
         AND (status <> 'PENDING' OR gateway_response->>'chargeClaimedAt' IS NULL OR (gateway_response->>'chargeClaimedAt')::timestamptz < $6)
       RETURNING id`,
      [existing.id, existing.status, at, lease, existing.retry_count, new Date(Date.now() - CHARGE_LEASE_MS)],
    );
    if (!leased.rows.length) return null;
  } catch (error) {
    // Another payment of the viewer is in flight (one per viewer, unique): the retry waits for the next sweep.
    if ((error as { code?: string }).code === '23505') return null;
    throw error;
  }
  return { sub, reference, record: { id: existing.id, amount: existing.amount }, fresh: false };
}

/**
 * Charges the due period of one subscription, at most once. Answers what happened, for the engine's
 * log and the tests: 'renewed', 'failed', 'pending', or 'skipped' (nothing due, or another process has it).
 */
export async function renewSubscription(deps: RenewalDeps, subscriptionId: string): Promise<'renewed' | 'failed' | 'pending' | 'skipped'> {
  const { db, gateway, log } = deps;
  const claim = await claimRenewal(db, subscriptionId);
  if (!claim) return 'skipped';
  const { sub, reference, record } = claim;
  const target = { id: record.id, reference_id: reference, amount: record.amount };

  // First ask Maya, unless this claim wrote the record: a charge made before a crash is found and
  // applied, never made again.
  let attempts: MayaPayment[] = [];
  if (!claim.fresh) {
    try {
      attempts = await gateway.getPaymentsByReference(reference);
    } catch (error) {
      log(`renewals: could not read ${reference} at the gateway: ${error instanceof Error ? error.message : String(error)}`);
      await releaseLease(db, record.id);
      return 'pending';
    }
    await reverseExtraSuccesses(deps, attempts, reference);
  }
  const earlier = decisiveAttempt(attempts);
  let answer: MayaPayment | null = earlier && (!isFinalStatus(earlier.status) || recordStatusOf(earlier.status) === 'PAYMENT_SUCCESS') ? earlier : null;
  let failure: string | null = null;
  if (!answer) {
    const value = toMayaValue(sub.price);
    try {
      if (sub.payment_method === 'MAYA_VAULT') {
        const cardTokenId = String(sub.payment_details?.cardTokenId ?? '');
        if (!sub.customer_id) throw new GatewayError(404, 'CARD', 'Card not found');
        answer = await gateway.payWithCard(sub.customer_id, cardTokenId, {
          totalAmount: { amount: value, currency: 'PHP' }, requestReferenceNumber: reference,
          redirectUrl: { success: `${deps.publicBaseUrl}/subscription`, failure: `${deps.publicBaseUrl}/subscription`, cancel: `${deps.publicBaseUrl}/subscription` },
        });
      } else {
        answer = await gateway.payWithWalletLink(String(sub.payment_details?.mayaWalletId ?? ''), { totalAmount: { value, currency: 'PHP' }, requestReferenceNumber: reference });
      }
    } catch (error) {
      if (error instanceof GatewayError && (error.status === 0 || error.status >= 500)) {
        // The gateway did not answer: nothing is known to be charged; the next sweep asks it first.
        log(`renewals: gateway unavailable for ${reference}: ${error.message}`);
        await releaseLease(db, record.id);
        return 'pending';
      }
      failure = error instanceof Error ? error.message : String(error);
    }
  }
  let status: string;
  if (answer) {
    status = await applyGatewayAnswer(deps, target, answer);
    if (status === 'PENDING') {
      // 3-D Secure or still processing: no viewer is here to answer; treat as failed after the gateway says so.
      await releaseLease(db, record.id);
      if (answer.status === 'FOR_AUTHENTICATION') failure = 'Your bank asked to confirm the payment';
      else return 'pending';
    }
  } else status = 'PAYMENT_FAILED';
  if (status === 'PAYMENT_SUCCESS') {
    await mailReceipt(deps, sub, { reference, amount: record.amount, recordId: record.id });
    return 'renewed';
  }
  if (answer && status !== 'PENDING' && !failure) failure = 'Your payment was declined';
  await failRenewal(deps, sub, record.id, failure ?? 'Your payment was declined');
  return 'failed';
}

async function releaseLease(db: Db, recordId: string) {
  await db.query(`UPDATE payment_records SET gateway_response = gateway_response - 'chargeClaimedAt' WHERE id = $1`, [recordId]);
}

/** Two successes at Maya for one period's reference (a charge raced a lost answer): every one but the first is given back. */
async function reverseExtraSuccesses(deps: RenewalDeps, attempts: MayaPayment[], reference: string) {
  const paid = attempts.filter((p) => isFinalStatus(p.status) && recordStatusOf(p.status) === 'PAYMENT_SUCCESS').sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const extra of paid.slice(1)) {
    try {
      if (extra.canVoid !== false) await deps.gateway.voidPayment(extra.id, { reason: `${PRODUCT_NAME}: a second charge for one period` });
      else await deps.gateway.refundPayment(extra.id, { totalAmount: { amount: Number(extra.amount), currency: 'PHP' }, reason: `${PRODUCT_NAME}: a second charge for one period` });
      deps.log(`renewals: a second charge for ${reference} (${extra.id}) was given back`);
    } catch (error) {
      deps.log(`renewals: could not give back ${extra.id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** A failed attempt: PAST_DUE with the next try (none after a hard decline), or the end after the last. */
async function failRenewal(deps: RenewalDeps, sub: DueRow, recordId: string, reason: string) {
  const { db } = deps;
  const at = await now(db);
  // The answer may have marked the record failed already; the lease is given back either way.
  await db.query(
    `UPDATE payment_records SET status = CASE WHEN status = 'PENDING' THEN 'PAYMENT_FAILED' ELSE status END, gateway_response = gateway_response - 'chargeClaimedAt', updated_at = $2
     WHERE id = $1 AND status IN ('PENDING', 'PAYMENT_FAILED')`,
    [recordId, at],
  );
  const nextDay = RETRY_DAYS.find((days) => sub.end_date.getTime() + days * DAY_MS > at.getTime() + 1000);
  const hard = isHardDecline(reason);
  if (nextDay === undefined) {
    await endSubscription(deps, sub.id, reason);
    return;
  }
  const next = hard ? null : new Date(sub.end_date.getTime() + nextDay * DAY_MS);
  await db.query(`UPDATE subscriptions SET status = 'PAST_DUE', next_attempt_at = $2, renewal_failure = $3, updated_at = $4 WHERE id = $1 AND status IN ('ACTIVE', 'PAST_DUE')`, [
    sub.id, next, reason, at,
  ]);
  const user = await contactOf(db, sub.user_id);
  await deps.mailer.send({
    to: user.email,
    language: user.language,
    subject: `${PRODUCT_NAME}: your payment failed — update your payment method`,
    text: `Hi ${user.firstName}, we could not renew your Premium subscription: ${reason}. You keep Premium for now. ${
      next ? `We will try again on ${formatDate(next)}.` : 'We will not try this payment method again.'
    } Update your payment method: ${deps.publicBaseUrl}/subscription/change-payment-method`,
  });
}

/** Ends a PAST_DUE subscription (after the last attempt, or its grace): EXPIRED with the reason, the viewer FREE. */
export async function endSubscription(deps: RenewalDeps, subscriptionId: string, reason = 'Renewal payment failed'): Promise<boolean> {
  const { db } = deps;
  const at = await now(db);
  const ended = await db.query<{ user_id: string }>(
    `UPDATE subscriptions SET status = 'EXPIRED', auto_renew = false, next_attempt_at = NULL, canceled_date = $2, canceled_reason = $3, end_notice_at = $2, updated_at = $2
     WHERE id = $1 AND status = 'PAST_DUE' RETURNING user_id`,
    [subscriptionId, at, `Renewal failed: ${reason}`],
  );
  const row = ended.rows[0];
  if (!row) return false;
  const user = await contactOf(db, row.user_id);
  await deps.mailer.send({
    to: user.email,
    language: user.language,
    subject: `${PRODUCT_NAME}: your Premium subscription has ended`,
    text: `Hi ${user.firstName}, we could not renew your Premium subscription, so it has ended and your account is now Free. Subscribe again any time: ${deps.publicBaseUrl}/subscription`,
  });
  return true;
}

/**
 * The receipt, from what the renewal knows: the period paid starts at the old end date and lasts the
 * plan's period (as activation.ts writes it, whichever of the answer and the webhook applied it).
 */
async function mailReceipt(deps: RenewalDeps, sub: ClaimRow, paid: { reference: string; amount: string; recordId: string }) {
  const end = addBillingPeriod(sub.end_date, sub.billing_cycle, sub.duration);
  const method = sub.payment_method === 'MAYA_WALLET' ? 'Maya Wallet' : 'your saved card';
  await deps.mailer.send({
    to: sub.email,
    language: sub.language,
    subject: `${PRODUCT_NAME}: receipt for your ${sub.plan_name} renewal`,
    text: `Hi ${sub.first_name}, your Premium subscription renewed. Plan: ${sub.plan_name}. Period: ${formatDate(sub.end_date)} to ${formatDate(end)}. Amount: ${money(paid.amount)}, paid with ${method}. Reference: ${paid.reference}. Your receipt, to print or save as PDF: ${deps.publicBaseUrl}/subscription/receipts/${paid.recordId}`,
  });
}

/** The checkout reminder: mailed once per period, from 3 days before the end date. */
export async function remindCheckout(deps: RenewalDeps, subscriptionId: string): Promise<boolean> {
  const at = await now(deps.db);
  const marked = await deps.db.query<{ user_id: string; end_date: Date }>(
    `UPDATE subscriptions SET reminded_at = $2 WHERE id = $1 AND reminded_at IS NULL AND status = 'ACTIVE' AND payment_method = 'MAYA_CHECKOUT' RETURNING user_id, end_date`,
    [subscriptionId, at],
  );
  const row = marked.rows[0];
  if (!row) return false;
  const user = await contactOf(deps.db, row.user_id);
  await deps.mailer.send({
    to: user.email,
    language: user.language,
    subject: `${PRODUCT_NAME}: renew your Premium before ${formatDate(row.end_date)}`,
    text: `Hi ${user.firstName}, your Premium subscription is paid by checkout and does not renew by itself. Press Renew now on your Subscription page to keep watching after ${formatDate(row.end_date)}; the next period starts on that date, so you lose no days: ${deps.publicBaseUrl}/subscription`,
  });
  return true;
}

/** The end-of-subscription notice of a subscription that was not renewed (canceled, voucher, checkout). */
export async function noticeEnd(deps: RenewalDeps, subscriptionId: string): Promise<boolean> {
  const at = await now(deps.db);
  const marked = await deps.db.query<{ user_id: string }>(
    `UPDATE subscriptions SET end_notice_at = $2 WHERE id = $1 AND end_notice_at IS NULL AND end_date <= $2 RETURNING user_id`,
    [subscriptionId, at],
  );
  const row = marked.rows[0];
  if (!row) return false;
  const user = await contactOf(deps.db, row.user_id);
  await deps.mailer.send({
    to: user.email,
    language: user.language,
    subject: `${PRODUCT_NAME}: your Premium subscription has ended`,
    text: `Hi ${user.firstName}, your Premium subscription has ended and your account is now Free. Subscribe again any time: ${deps.publicBaseUrl}/subscription`,
  });
  return true;
}
