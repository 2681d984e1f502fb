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
import { createHash } from 'node:crypto';
import { PRODUCT_NAME } from '../../src/lib/product';
import { formatDate } from '../../src/lib/dates';
import { cardExpiry, cardTypeLabel, maskedCardNumber } from '../../src/lib/card';
import { formatPrice } from '../../src/lib/format';
import { planNamesIn } from './plans';
import { DISPLAY_TIME_ZONE } from '../../src/lib/product';
import { reasonInOurWords } from '../../src/lib/renewal-failures';
import { contactOf } from '../identity/users';
import { clockSql, DAY_MS, now, unsetClock } from '../platform/clock';
import type { Db, Queryable } from '../platform/db';
import type { Mailer } from '../platform/mail';
import { RENEWS_KEY } from './activation';
import type { BillingDeps } from './deps';
import { chargeOnce, type ChargeMethod } from './charge';
import { attemptsOf, charges, DECLINE_REASONS, OPEN_OUTCOMES, openAttempt, resolveAttempt } from './ledger';
import { recordPaymentUnlessTaken } from './payments';
import { mailReceiptOf } from './receipts';
import { reverseDue } from './reversals';
import { GatewayReadError, GIVEN_UP, settleRecord, type Decision } from './settlement';
import { REMINDER_DAYS, RENEWAL_GRACE_DAYS, RETRY_DAYS } from './subscriptions';

export { RETRY_DAYS };
export { REMINDER_DAYS };
/** How long a process holds a renewal charge (real time): one killed mid-way leaves it to another after this. */
export const CHARGE_LEASE_MS = 60_000;

export type RenewalDeps = Pick<BillingDeps, 'db' | 'gateway' | 'log' | 'publicBaseUrl'> & { mailer: Mailer };

/** The reference sent to Maya for one period of one subscription: the same after any crash or retry. */
export function renewalReference(subscriptionId: string, periodEnd: Date): string {
  const digest = createHash('sha256').update(`${subscriptionId}|${periodEnd.toISOString()}`).digest('hex').slice(0, 20).toUpperCase();
  return `SB-RN-${digest}`;
}

interface DueRow {
  id: string;
  dunning_stopped_at?: Date | null;
  user_id: string;
  plan_id: number;
  status: string;
  end_date: Date;
  payment_method: 'MAYA_VAULT' | 'MAYA_WALLET';
  payment_details: Record<string, unknown> | null;
  next_attempt_at: Date | null;
  auto_renew: boolean;
}

/** How long before a yearly renewal its notice is mailed (product.md#renewal-notice). */
export const RENEWAL_NOTICE_DAYS = 7;
/** How long before the billing date a card that expires first is told (product.md#card-expiry). */
export const CARD_EXPIRY_NOTICE_DAYS = 30;

/** What the engine runs for a due subscription. */
export type DueKind = 'renew' | 'end' | 'remind' | 'notice' | 'renewalNotice' | 'cardExpiry';

/** Each kind of due work, as a condition on `subscriptions s` at the billing clock's `$1` (each has its partial index). */
const DUE: Array<{ kind: DueKind; where: string }> = [
  { kind: 'renew', where: `s.status = 'ACTIVE' AND s.auto_renew AND s.payment_method IN ('MAYA_VAULT', 'MAYA_WALLET') AND s.end_date <= $1` },
  // An operator may stop the retries (dunning_stopped_at, the back office): no retry is charged then, and the
  // subscription ends when its grace does, as after the last attempt.
  { kind: 'renew', where: `s.status = 'PAST_DUE' AND s.next_attempt_at <= $1 AND s.dunning_stopped_at IS NULL` },
  { kind: 'end', where: `s.status = 'PAST_DUE' AND (s.next_attempt_at IS NULL OR s.dunning_stopped_at IS NOT NULL) AND s.end_date + interval '${RETRY_DAYS.at(-1)} days' <= $1` },
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
  // product.md#renewal-notice: a yearly card or wallet plan is told 7 days before it is charged, once per period.
  {
    kind: 'renewalNotice',
    where: `s.renewal_notice_at IS NULL AND s.status = 'ACTIVE' AND s.auto_renew AND s.payment_method IN ('MAYA_VAULT', 'MAYA_WALLET')
       AND s.end_date > $1 AND s.end_date - interval '${RENEWAL_NOTICE_DAYS} days' <= $1
       AND EXISTS (SELECT 1 FROM plans p WHERE p.id = COALESCE(s.scheduled_plan_id, s.plan_id) AND p.billing_cycle = 'year')`,
  },
  // product.md#card-expiry: the card it renews on expires before the next billing date: told from 30 days before, once per card.
  {
    kind: 'cardExpiry',
    where: `s.status = 'ACTIVE' AND s.auto_renew AND s.payment_method = 'MAYA_VAULT' AND s.end_date > $1 AND s.end_date - interval '${CARD_EXPIRY_NOTICE_DAYS} days' <= $1
       AND EXISTS (SELECT 1 FROM saved_cards c WHERE c.card_token_id = s.payment_details->>'cardTokenId' AND c.user_id = s.user_id
         AND c.expiry_notice_at IS NULL AND c.expires_at <= s.end_date)`,
  },
];

/**
 * How long a subscription taken into a queued job is left to it (real time) before a sweep queues it
 * again. The engine gives it back when the job is done (even a failed one); this is only for a job the
 * queue itself lost, so it is long: a backlog of 100,000 renewals drains well within it.
 */
export const QUEUED_FOR_MS = 60 * 60 * 1000;

export type DueWork = Record<DueKind, string[]>;

/** Nothing due yet, of every kind. */
const noWork = (): DueWork => ({ renew: [], end: [], remind: [], notice: [], renewalNotice: [], cardExpiry: [] });

/** What is due at `at` (ids only: each is then handled on its own). */
export async function dueWork(db: Db, at: Date, limit = 500): Promise<DueWork> {
  const due = noWork();
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
  const due = noWork();
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

interface ClaimRow extends DueRow {
  /** The plan the next period is on: a scheduled move down's (product.md#scheduled-downgrade), else the subscription's own. */
  renewal_plan_id: number;
  price: string;
  /** The saved card's customer at Maya (a card subscription). */
  customer_id: string | null;
  at: Date;
  /** A purchase or plan change of the viewer is in flight. */
  other_pending: boolean;
}

interface Claim {
  sub: ClaimRow;
  reference: string;
  record: { id: string; amount: string };
  /** The record was written by this claim: no charge with its reference can have been made yet. */
  fresh: boolean;
}

/** Records whose every charge was given back. */
const REVERSED = ['VOIDED', 'REFUNDED'];

/** How long a renewal waits (billing clock) after the gateway did not answer, or was still processing. */
export const UNKNOWN_HOLD_MS = 60_000;
/** How long a renewal waits after Maya refused our own request (keys, rate limit): an alert, not a decline. */
export const OURS_HOLD_MS = 5 * 60_000;

/**
 * Takes the due period of one subscription for this process, or answers null (nothing due, paid
 * already, another payment of the viewer in flight, a Renew now checkout open for it, held after a
 * gateway failure, or another process holds it). No lock is held: each write is guarded by the database
 * itself (the reference and one payment in flight per viewer are unique; the lease is taken by one
 * guarded UPDATE).
 */
async function claimRenewal(db: Db, subscriptionId: string, operator: boolean): Promise<Claim | { lapsed: Date } | null> {
  const sub = (
    await db.query<ClaimRow>(
      `SELECT s.id, s.user_id, s.plan_id, s.status, s.end_date, s.payment_method, s.payment_details, s.next_attempt_at, s.auto_renew, s.dunning_stopped_at,
         p.id AS renewal_plan_id, p.price::text AS price, c.customer_id, ${clockSql('$2')} AS at,
         EXISTS (SELECT 1 FROM payment_records o WHERE o.user_id = s.user_id AND o.status = 'PENDING' AND NOT (o.gateway_response->'details' ? '${RENEWS_KEY}')) AS other_pending
       FROM subscriptions s JOIN plans p ON p.id = COALESCE(s.scheduled_plan_id, s.plan_id)
       LEFT JOIN saved_cards c ON s.payment_method = 'MAYA_VAULT' AND c.card_token_id = s.payment_details->>'cardTokenId' AND c.user_id = s.user_id
       WHERE s.id = $1`,
      [subscriptionId, unsetClock()],
    )
  ).rows[0];
  if (!sub) return null;
  const at = sub.at;
  const renewable = sub.payment_method === 'MAYA_VAULT' || sub.payment_method === 'MAYA_WALLET';
  const due =
    renewable &&
    ((sub.status === 'ACTIVE' && sub.auto_renew && sub.end_date <= at) ||
      // A retry while dunning is stopped only when an operator asks for it (the back office's "Retry now").
      (sub.status === 'PAST_DUE' && sub.next_attempt_at !== null && sub.next_attempt_at <= at && (operator || !sub.dunning_stopped_at)));
  if (!due) return null;
  // A period the viewer no longer had access to is never charged (the engine or the clock was far behind).
  if (at.getTime() >= sub.end_date.getTime() + RENEWAL_GRACE_DAYS * DAY_MS) return { lapsed: sub.end_date };
  const reference = renewalReference(sub.id, sub.end_date);
  // The viewer's own payment on its way (a plan change, a purchase): the renewal waits for it.
  if (sub.other_pending) return null;
  // The charge itself is held by one process for a while (real time), so two never charge at once.
  const lease = JSON.stringify(new Date().toISOString());
  // The first attempt for this period writes its record, on the plan and at the price the period is
  // billed at (a scheduled move down's: activation.ts starts the period on the record's plan). Nothing
  // is written when the record exists (another process, or an earlier attempt), or when another payment
  // of the viewer (a purchase, a plan change) holds the one slot.
  const created = await recordPaymentUnlessTaken(db, {
    userId: sub.user_id, subscriptionId: sub.id, planId: sub.renewal_plan_id, referenceId: reference, status: 'PENDING', amount: sub.price,
    paymentMethod: sub.payment_method, at,
    gatewayResponse: { details: { ...(sub.payment_details ?? {}), [RENEWS_KEY]: sub.id, periodStart: sub.end_date.toISOString() }, chargeClaimedAt: JSON.parse(lease) },
  });
  if (created) return { sub, reference, record: { id: created.id, amount: sub.price }, fresh: true };
  const existing = (
    await db.query<{ id: string; status: string; amount: string; retry_count: number; hold_until: Date | null; hold_real_until: string | null; applied_attempt_id: string | null }>(
      `SELECT id, status, total_amount::text AS amount, retry_count, hold_until, gateway_response->>'holdRealUntil' AS hold_real_until, applied_attempt_id
       FROM payment_records WHERE reference_id = $1`,
      [reference],
    )
  ).rows[0];
  if (!existing) return null; // the viewer's other payment in flight: next sweep
  // Paid, or a success still to be given back: nothing to charge. A record whose charge was given back
  // (the period stopped standing, then stood again: canceled, then reactivated) is charged again.
  const retryable = existing.status === 'PENDING' || GIVEN_UP.includes(existing.status) || (REVERSED.includes(existing.status) && !existing.applied_attempt_id);
  if (!retryable) return null;
  // A hold passes when the billing clock passes it, or when as much real time has passed (a billing clock
  // that QA or a test has fixed does not tick: a hold measured only by it would never end).
  const heldReal = existing.hold_real_until === null || Date.parse(existing.hold_real_until) > Date.now();
  if (existing.hold_until && existing.hold_until.getTime() > at.getTime() && heldReal) return null;
  try {
    // A retry takes the same record back to PENDING, one more attempt; a PENDING one (a process died
    // mid-way) is taken over once its lease has run out, unless a Renew now checkout is open for it.
    const leased = await db.query(
      `UPDATE payment_records r SET status = 'PENDING',
         payment_link = CASE WHEN status = 'PENDING' THEN payment_link ELSE NULL END,
         retry_count = retry_count + CASE WHEN status = 'PENDING' THEN 0 ELSE 1 END,
         last_retry_date = CASE WHEN status = 'PENDING' THEN last_retry_date ELSE $3 END,
         updated_at = CASE WHEN status = 'PENDING' THEN updated_at ELSE $3 END,
         gateway_response = COALESCE(gateway_response, '{}'::jsonb) || jsonb_build_object('chargeClaimedAt', $4::jsonb)
       WHERE id = $1 AND status = $2 AND retry_count = $5
         AND (status <> 'PENDING' OR gateway_response->>'chargeClaimedAt' IS NULL OR (gateway_response->>'chargeClaimedAt')::timestamptz < $6)
         AND NOT EXISTS (SELECT 1 FROM gateway_attempts a WHERE a.record_id = r.id AND a.kind = 'CHECKOUT' AND a.outcome IN ('OPEN', 'UNKNOWN'))
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
 * log and the tests: 'renewed', 'failed', 'pending' (the answer is not known yet: Maya is read by
 * reference before anything else is done), 'ended' (the period lapsed uncharged), or 'skipped'
 * (nothing due, or another process has it).
 */
export async function renewSubscription(
  deps: RenewalDeps, subscriptionId: string, options: { operator?: boolean } = {},
): Promise<'renewed' | 'failed' | 'pending' | 'ended' | 'skipped'> {
  const { db } = deps;
  const claim = await claimRenewal(db, subscriptionId, options.operator ?? false);
  if (claim && 'lapsed' in claim) {
    // Ended only if it still ends where the lapsed period starts (the claim and the end are two statements).
    return (await endSubscription(deps, subscriptionId, 'Not renewed in time', ['ACTIVE', 'PAST_DUE'], claim.lapsed)) ? 'ended' : 'skipped';
  }
  if (!claim) return 'skipped';
  const { sub, reference, record } = claim;
  const currency = 'PHP';
  // The attempt is in the ledger before anything else: a read meanwhile sees it open, so no older
  // attempt decides the record while this one is on its way.
  const attemptId = await openAttempt(db, {
    recordId: record.id, kind: sub.payment_method === 'MAYA_WALLET' ? 'WALLET' : 'CARD', referenceId: reference, amount: record.amount, currency,
    methodDetails: sub.payment_method === 'MAYA_WALLET' ? { mayaWalletId: sub.payment_details?.mayaWalletId ?? null } : { cardTokenId: sub.payment_details?.cardTokenId ?? null },
    at: sub.at,
  });
  const notMade = async (why: string) => resolveAttempt(db, attemptId, { outcome: 'NOT_MADE', reason: why }, await now(db));

  if (!claim.fresh) {
    // First ask Maya: a charge made before a crash, or one whose answer was lost, is found and applied,
    // never made again.
    let decision: Decision | null;
    try {
      decision = await settleRecord(deps, record.id, 'always');
    } catch (error) {
      if (!(error instanceof GatewayReadError)) throw error;
      await notMade('not made: Maya could not be read first');
      await holdRecord(db, record.id, UNKNOWN_HOLD_MS);
      return 'pending';
    }
    if (decision?.status === 'PAYMENT_SUCCESS') {
      await notMade('not made: the period was paid already');
      await releaseLease(db, record.id);
      await mailReceiptOf(deps, record.id);
      return 'renewed';
    }
    const others = charges(await attemptsOf(db, record.id)).filter((a) => a.id !== attemptId && OPEN_OUTCOMES.includes(a.outcome));
    if (others.length) {
      // An earlier attempt is still on its way at Maya (or not visible yet): wait for it, never charge beside it.
      await notMade('not made: an earlier attempt is still open');
      await holdRecord(db, record.id, UNKNOWN_HOLD_MS);
      return 'pending';
    }
  }

  const method: ChargeMethod =
    sub.payment_method === 'MAYA_VAULT'
      ? {
          // A bank that asks to confirm sends the viewer who does it (Renew now, product.md#pay-now) back through
          // the payment's return address: the result page, which reads Maya before it says anything.
          kind: 'MAYA_VAULT', customerId: sub.customer_id, cardTokenId: String(sub.payment_details?.cardTokenId ?? ''),
        }
      : { kind: 'MAYA_WALLET', linkId: String(sub.payment_details?.mayaWalletId ?? '') };
  const payment = { id: record.id, userId: sub.user_id, referenceId: reference, amount: record.amount, currency, planName: '', planSlug: '', planDescription: '' };
  const attempted = await chargeOnce(deps, method, payment, attemptId);
  const decision = attempted.decision;
  if (attempted.result.outcome === 'OPEN' && attempted.redirect) {
    // The bank asks to confirm a payment no viewer is here for: dunned as a soft decline (the viewer is
    // asked to confirm or change the method), while the attempt stays open at Maya: confirmed late, it
    // pays the period; expired, it is closed. No retry is made beside it while it is open.
    await failRenewal(deps, sub, record.id, attemptId, DECLINE_REASONS.confirm, false);
    await holdRecord(db, record.id, UNKNOWN_HOLD_MS);
    return 'failed';
  }
  const status = decision?.status;
  if (status === 'PAYMENT_SUCCESS') {
    // Paid: no claim takes a paid record again, so its lease is left as it is (one write less per renewal).
    await mailReceiptOf(deps, record.id);
    return 'renewed';
  }
  if (status === 'REVERSAL_DUE') {
    // The period stopped standing while the charge was on its way (a plan change, a voucher, a cancel).
    await releaseLease(db, record.id);
    await reverseDue(deps, record.id);
    return 'skipped';
  }
  // Declined (decided here, or by the payment's webhook racing this answer): dunning, once per attempt.
  if (decision?.failedNow || (status && GIVEN_UP.includes(status) && attempted.result.outcome === 'DECLINED')) {
    const result = attempted.result;
    await failRenewal(deps, sub, record.id, attemptId, decision?.failedNow?.reason ?? result.reason, decision?.failedNow?.hard ?? result.decline === 'HARD');
    await releaseLease(db, record.id);
    return 'failed';
  }
  // Not known yet (lost answer, still processing), or refused as our own fault: held, never dunned.
  await releaseLease(db, record.id);
  await holdRecord(db, record.id, attempted.result.outcome === 'OURS' ? OURS_HOLD_MS : UNKNOWN_HOLD_MS);
  return 'pending';
}

async function releaseLease(db: Db, recordId: string) {
  await db.query(`UPDATE payment_records SET gateway_response = gateway_response - 'chargeClaimedAt' WHERE id = $1`, [recordId]);
}

/**
 * No new charge for this record before `ms` from now by the billing clock (the clock QA moves passes it
 * too: in production it is real time), or before `ms` of real time (a fixed clock, QA's or a test's, does
 * not tick); the lease is given back.
 */
async function holdRecord(db: Db, recordId: string, ms: number) {
  await db.query(
    `UPDATE payment_records SET hold_until = $2,
       gateway_response = (COALESCE(gateway_response, '{}'::jsonb) - 'chargeClaimedAt') || jsonb_build_object('holdRealUntil', $3::text)
     WHERE id = $1`,
    [recordId, new Date((await now(db)).getTime() + ms), new Date(Date.now() + ms).toISOString()],
  );
}

/**
 * What follows a renewal record's outcome decided outside the engine's own charge (a webhook, the
 * reconciler, a read): a receipt when it was paid, dunning when its newest attempt was declined.
 */
export async function renewalDecided(deps: RenewalDeps, decision: Decision | null): Promise<void> {
  if (!decision) return;
  if (decision.paidNow) await mailReceiptOf(deps, decision.recordId);
  if (decision.failedNow && decision.renews) {
    // The engine is on this record (its lease is live): it does the dunning itself when its answer comes.
    const leased = await deps.db.query(
      `SELECT 1 FROM payment_records WHERE id = $1 AND (gateway_response->>'chargeClaimedAt')::timestamptz > $2`,
      [decision.recordId, new Date(Date.now() - CHARGE_LEASE_MS)],
    );
    if (leased.rows.length) return;
    // The period the record was for (the subscription's end date may have moved since: a voucher's days).
    const period = (
      await deps.db.query<{ id: string; user_id: string; end_date: Date }>(
        `SELECT s.id, s.user_id, (r.gateway_response->'details'->>'periodStart')::timestamptz AS end_date
         FROM payment_records r JOIN subscriptions s ON s.id = $2 WHERE r.id = $1`,
        [decision.recordId, decision.renews],
      )
    ).rows[0];
    if (period?.end_date) await failRenewal(deps, period, decision.recordId, decision.failedNow.attemptId, decision.failedNow.reason, decision.failedNow.hard);
  }
}

/**
 * A declined attempt: PAST_DUE with the next try (none after a hard decline), or the end after the last
 * (also for a first attempt made more than 7 days late: it is the last one). Only the subscription
 * still live at the end date this period starts from is touched.
 */
async function failRenewal(deps: RenewalDeps, sub: Pick<DueRow, 'id' | 'user_id' | 'end_date'>, recordId: string, attemptId: string, reason: string, hard: boolean) {
  const { db } = deps;
  // Once per declined attempt, whoever learns of it first (the engine's answer, a webhook, the reconciler).
  const claimed = await db.query(
    `UPDATE payment_records SET gateway_response = COALESCE(gateway_response, '{}'::jsonb) || jsonb_build_object('dunnedAttempt', $2::text)
     WHERE id = $1 AND (gateway_response->>'dunnedAttempt') IS DISTINCT FROM $2 RETURNING id`,
    [recordId, attemptId],
  );
  if (!claimed.rows.length) return;
  const at = await now(db);
  const nextDay = RETRY_DAYS.find((days) => sub.end_date.getTime() + days * DAY_MS > at.getTime() + 1000);
  if (nextDay === undefined) {
    await endSubscription(deps, sub.id, reason, ['ACTIVE', 'PAST_DUE'], sub.end_date);
    return;
  }
  const next = hard ? null : new Date(sub.end_date.getTime() + nextDay * DAY_MS);
  const updated = await db.query(
    `UPDATE subscriptions SET status = 'PAST_DUE', next_attempt_at = $2, renewal_failure = $3, updated_at = $4
     WHERE id = $1 AND status IN ('ACTIVE', 'PAST_DUE') AND end_date = $5 RETURNING id`,
    [sub.id, next, reason, at, sub.end_date],
  );
  if (!updated.rows.length) return;
  const user = await contactOf(db, sub.user_id);
  const retryLine = next ? `We will try again on ${formatDate(next, DISPLAY_TIME_ZONE, user.language)}.` : 'We will not try this payment method again.';
  if (reason === DECLINE_REASONS.confirm) {
    // Nobody was there to confirm with the bank: the viewer does it on the Subscription page (Renew now,
    // product.md#pay-now), as a payment service's "authentication required" mail asks.
    await deps.mailer.send({
      to: user.email,
      language: user.language,
      subject: `${PRODUCT_NAME}: confirm your payment with your bank`,
      text: `Hi ${user.firstName}, your bank asks you to confirm the payment that renews your Premium subscription. You keep Premium for now. Press Renew now on your Subscription page and confirm it with your bank: ${deps.publicBaseUrl}/subscription ${retryLine}`,
    });
    return;
  }
  await deps.mailer.send({
    to: user.email,
    language: user.language,
    subject: `${PRODUCT_NAME}: your payment failed — update your payment method`,
    // The reason in our words (a gateway's own kept inside), the date as the page writes it in the reader's language.
    text: `Hi ${user.firstName}, we could not renew your Premium subscription: ${reasonInOurWords(reason)}. You keep Premium for now. ${retryLine} Update your payment method: ${deps.publicBaseUrl}/subscription/change-payment-method`,
  });
}

/**
 * Ends a subscription whose renewal failed for good (after the last attempt, or its grace; by default
 * only a PAST_DUE one): EXPIRED with the reason, the viewer FREE, and mailed once.
 */
export async function endSubscription(
  deps: RenewalDeps, subscriptionId: string, reason = 'Renewal payment failed', from: string[] = ['PAST_DUE'], periodEnd: Date | null = null,
): Promise<boolean> {
  const { db } = deps;
  const at = await now(db);
  // `periodEnd`: only while the subscription still ends where the failed period starts (a voucher
  // redeemed meanwhile moved it: the voucher's days are kept).
  const ended = await db.query<{ user_id: string }>(
    `UPDATE subscriptions SET status = 'EXPIRED', auto_renew = false, next_attempt_at = NULL, canceled_date = $2, canceled_reason = $3, end_notice_at = $2, updated_at = $2
     WHERE id = $1 AND status = ANY($4::text[]) AND ($5::timestamptz IS NULL OR end_date = $5) RETURNING user_id`,
    [subscriptionId, at, `Renewal failed: ${reason}`, from, periodEnd],
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
    subject: `${PRODUCT_NAME}: renew your Premium before ${formatDate(row.end_date, DISPLAY_TIME_ZONE, user.language)}`,
    text: `Hi ${user.firstName}, your Premium subscription is paid by checkout and does not renew by itself. Press Renew now on your Subscription page to keep watching after ${formatDate(row.end_date, DISPLAY_TIME_ZONE, user.language)}; the next period starts on that date, so you lose no days: ${deps.publicBaseUrl}/subscription`,
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

/**
 * The mail 7 days before a yearly renewal (product.md#renewal-notice): the amount, the date, the card or
 * wallet, how to cancel and the link. Marked before it is sent, so it goes once per period (a renewed
 * period is its own subscription row) whoever runs it.
 */
export async function noticeRenewal(deps: RenewalDeps, subscriptionId: string): Promise<boolean> {
  const at = await now(deps.db);
  const marked = await deps.db.query<{ user_id: string; end_date: Date; payment_method: string; price: string; currency: string; plan_name: string; card_type: string | null; last4: string | null }>(
    `UPDATE subscriptions s SET renewal_notice_at = $2 FROM plans p
     WHERE s.id = $1 AND p.id = COALESCE(s.scheduled_plan_id, s.plan_id) AND s.renewal_notice_at IS NULL AND s.status = 'ACTIVE' AND s.auto_renew
       AND s.payment_method IN ('MAYA_VAULT', 'MAYA_WALLET') AND s.end_date > $2
     RETURNING s.user_id, s.end_date, s.payment_method, p.price::text AS price, p.currency, p.name AS plan_name,
       (SELECT c.card_type FROM saved_cards c WHERE c.card_token_id = s.payment_details->>'cardTokenId' AND c.user_id = s.user_id) AS card_type,
       (SELECT c.last4 FROM saved_cards c WHERE c.card_token_id = s.payment_details->>'cardTokenId' AND c.user_id = s.user_id) AS last4`,
    [subscriptionId, at],
  );
  const row = marked.rows[0];
  if (!row) return false;
  const user = await contactOf(deps.db, row.user_id);
  const date = formatDate(row.end_date, DISPLAY_TIME_ZONE, user.language);
  const planName = (await planNamesIn(deps.db, user.language))?.get(row.plan_name) ?? row.plan_name;
  const method = row.payment_method === 'MAYA_WALLET' ? 'Maya Wallet' : row.last4 ? `${cardTypeLabel(row.card_type ?? 'Card')} ${maskedCardNumber(row.last4)}` : 'Card';
  await deps.mailer.send({
    to: user.email,
    language: user.language,
    subject: `${PRODUCT_NAME}: your Premium renews on ${date}`,
    text: `Hi ${user.firstName}, your ${planName} plan renews automatically on ${date}: we will charge ${formatPrice(row.price, row.currency)} to your ${method}. If you want to keep watching, there is nothing to do. To stop it, cancel before then on your Subscription page: ${deps.publicBaseUrl}/subscription`,
  });
  return true;
}

/**
 * The saved card a subscription renews on expires before its next billing date (product.md#card-expiry):
 * a mail from 30 days before that date, once per card (the card's marker is set before it is sent).
 */
export async function noticeCardExpiry(deps: RenewalDeps, subscriptionId: string): Promise<boolean> {
  const at = await now(deps.db);
  const marked = await deps.db.query<{ user_id: string; end_date: Date; price: string; currency: string; card_type: string; last4: string; exp_month: number; exp_year: number }>(
    `UPDATE saved_cards c SET expiry_notice_at = $2 FROM subscriptions s JOIN plans p ON p.id = COALESCE(s.scheduled_plan_id, s.plan_id)
     WHERE s.id = $1 AND c.card_token_id = s.payment_details->>'cardTokenId' AND c.user_id = s.user_id AND c.expiry_notice_at IS NULL
       AND c.expires_at <= s.end_date AND s.status = 'ACTIVE' AND s.auto_renew AND s.payment_method = 'MAYA_VAULT' AND s.end_date > $2
     RETURNING s.user_id, s.end_date, p.price::text AS price, p.currency, c.card_type, c.last4, c.exp_month, c.exp_year`,
    [subscriptionId, at],
  );
  const row = marked.rows[0];
  if (!row) return false;
  const user = await contactOf(deps.db, row.user_id);
  const date = formatDate(row.end_date, DISPLAY_TIME_ZONE, user.language);
  await deps.mailer.send({
    to: user.email,
    language: user.language,
    subject: `${PRODUCT_NAME}: your card expires before your next payment`,
    text: `Hi ${user.firstName}, your ${cardTypeLabel(row.card_type)} ${maskedCardNumber(row.last4)} expires at the end of ${cardExpiry(row.exp_month, row.exp_year)}, before your Premium renews on ${date} at ${formatPrice(row.price, row.currency)}. Update your card so your Premium keeps renewing: ${deps.publicBaseUrl}/subscription/change-payment-method`,
  });
  return true;
}
