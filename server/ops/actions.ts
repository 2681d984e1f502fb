/**
 * The back office's money and state actions (issue 35, docs/product.md#back-office). Each goes through
 * billing's own paths (reversals and credit memos, renewals, the reconciler, the cancel) and writes
 * exactly one audit entry: in the action's own transaction where the action is a database write, and
 * in the transaction that records the outcome where it is a call to Maya (a reversal, a renewal), so
 * an action that fails leaves no entry and one that happened always has its entry.
 *
 * A reversal is taken once: the console's `requestKey` answers the first result to a second press,
 * and two operators at once find the payment locked and its one reversal in flight (the ledger's
 * gateway_attempts_one_reversal). An operator's reversal leaves the viewer's period as it is: a
 * goodwill refund, recorded with its audit entry (gateway_attempts.operator_audit_id).
 */
import type { ReverseRequest } from '../../src/api/ops/schemas';
import { OPS_MESSAGES, roleAtLeast } from '../../src/api/ops/schemas';
import { fromCentavos, toCentavos } from '../../src/lib/vat';
import { RENEWS_KEY } from '../billing/activation';
import type { BillingDeps } from '../billing/deps';
import { issueCreditMemo } from '../billing/invoices';
import { classifyError, openAttempt, resolveAttempt } from '../billing/ledger';
import { reconcileNow } from '../billing/reconciler';
import { renewSubscription } from '../billing/renewals';
import { cancelSubscriptionIn } from '../billing/subscriptions';
import { toMayaValue, type MayaPayment } from '../gateway/maya';
import { addDays, now } from '../platform/clock';
import type { Queryable } from '../platform/db';
import { HttpError } from '../platform/http';
import type { Mailer } from '../platform/mail';
import { writeAudit, type Actor } from './audit';
import { GATEWAY_DOWN, NOT_FOUND, paymentsOf, subscriptionView, toTimelineSubscription, UUID } from './viewers';

export type OpsDeps = Pick<BillingDeps, 'db' | 'gateway' | 'log' | 'publicBaseUrl'> & { mailer: Mailer };

export const GATEWAY_UNSURE = 'Maya did not answer. The reversal may have been made: it is listed under reversals in the queues; check it at Maya before trying again.';
const MAYA_REASON = 'Sine Bisaya: given back by our support';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/* ------------------------------------------------------------------ reverse */

interface StoredRequest {
  action: string;
  target_id: string;
  result: unknown;
  status: number | null;
}

/**
 * The answer a request key already has: the stored result (or its failure), waiting while the first
 * press is still on its way; null for a new key.
 */
async function replay(db: OpsDeps['db'], key: string, action: string, targetId: string): Promise<unknown> {
  for (let waited = 0; waited < 20_000; waited += 100) {
    const row = (await db.query<StoredRequest>('SELECT action, target_id, result, status FROM ops_requests WHERE request_key = $1', [key])).rows[0];
    if (!row) return null;
    if (row.action !== action || row.target_id !== targetId) throw new HttpError(409, OPS_MESSAGES.requestKeyReused);
    if (row.status !== null) {
      if (row.status === 200) return row.result;
      throw new HttpError(row.status as 409, (row.result as { message?: string } | null)?.message ?? GATEWAY_UNSURE);
    }
    await sleep(100);
  }
  throw new HttpError(409, OPS_MESSAGES.reversalInFlight);
}

interface Claimed {
  attemptId: string;
  userId: string;
  referenceId: string;
  currency: string;
  kind: 'void' | 'refund';
  amount: string;
  full: boolean;
  charge: { id: string; mayaId: string | null; amount: string };
  before: { status: string; reversible: unknown };
}

/**
 * Voids (the same Manila day, whole) or refunds (after, whole or part, within 180 days) the payment
 * that paid a record, once. Answers `{ kind, amount, outcome }`.
 */
export async function reversePayment(deps: OpsDeps, actor: Actor, recordId: string, body: ReverseRequest, requestId: string | null) {
  const { db, gateway } = deps;
  if (!UUID.test(recordId)) throw new HttpError(404, NOT_FOUND);
  const earlier = await replay(db, body.requestKey, 'payment.reverse', recordId);
  if (earlier !== null) return earlier;

  let claimed: Claimed;
  try {
    claimed = await db.transaction(async (tx) => {
      // The record locked first (settlement.ts's order): a second operator waits here and then finds the reversal in flight.
      const owner = (await tx.query<{ user_id: string; status: string }>('SELECT user_id, status FROM payment_records WHERE id = $1 FOR UPDATE', [recordId])).rows[0];
      if (!owner) throw new HttpError(404, NOT_FOUND);
      await tx.query('INSERT INTO ops_requests (request_key, action, target_id, actor_user_id) VALUES ($1, $2, $3, $4)', [
        body.requestKey, 'payment.reverse', recordId, actor.userId,
      ]);
      const at = await now(tx);
      const payment = (await paymentsOf(tx, owner.user_id, at, recordId))[0]!;
      const reversible = payment.reversible;
      if (reversible.kind === 'none') throw new HttpError(409, reversible.why ?? OPS_MESSAGES.notReversible);
      const amount = toCentavos(body.amount);
      const max = toCentavos(reversible.maxAmount);
      if (amount > max) throw new HttpError(400, OPS_MESSAGES.tooMuch);
      if (reversible.kind === 'void' && amount !== max) throw new HttpError(400, OPS_MESSAGES.voidFullOnly);
      const record = (await tx.query<{ applied_attempt_id: string; reference_id: string; currency: string }>(
        'SELECT applied_attempt_id, reference_id, currency FROM payment_records WHERE id = $1', [recordId],
      )).rows[0]!;
      const charge = payment.attempts.find((a) => a.id === record.applied_attempt_id)!;
      const attemptId = await openAttempt(tx, {
        recordId, kind: reversible.kind === 'void' ? 'VOID' : 'REFUND', referenceId: record.reference_id, amount: fromCentavos(amount),
        currency: record.currency, reverses: charge.id, at,
      });
      await tx.query('UPDATE gateway_attempts SET operator_request_key = $2 WHERE id = $1', [attemptId, body.requestKey]);
      return {
        attemptId, userId: owner.user_id, referenceId: record.reference_id, currency: record.currency, kind: reversible.kind, amount: fromCentavos(amount),
        // The last of it: this part and those given back before make the whole charge.
        full: amount === max && max + payment.attempts.filter((a) => a.reverses === charge.id && a.outcome === 'SUCCEEDED').reduce((sum, a) => sum + toCentavos(a.amount), 0) === toCentavos(charge.amount),
        charge: { id: charge.id, mayaId: charge.mayaId, amount: charge.amount },
        before: { status: owner.status, reversible },
      };
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === '23505') {
      // The same key pressed twice at once (the other press holds it), or a reversal of this charge already in flight.
      const again = await replay(db, body.requestKey, 'payment.reverse', recordId);
      if (again !== null) return again;
      throw new HttpError(409, OPS_MESSAGES.reversalInFlight);
    }
    throw error;
  }

  /** Nothing was given back: the attempt is closed, the key forgotten (the same confirmation may try again). */
  const nothingDone = async (why: string, error?: unknown) => {
    const result = error === undefined ? { outcome: 'FAILED' as const, reason: why } : { ...classifyError(error, 'VOID'), outcome: 'FAILED' as const };
    await resolveAttempt(db, claimed.attemptId, result, await now(db));
    await db.query('DELETE FROM ops_requests WHERE request_key = $1 AND result IS NULL', [body.requestKey]);
  };

  // Maya's payment behind the charge (a checkout's charge names the checkout: its payment is read by reference).
  let paid: MayaPayment | undefined;
  try {
    const payments = await gateway.getPaymentsByReference(claimed.referenceId);
    const others = new Set((await db.query<{ maya_id: string }>(
      'SELECT maya_id FROM gateway_attempts WHERE record_id = $1 AND id <> $2 AND maya_id IS NOT NULL', [recordId, claimed.charge.id],
    )).rows.map((r) => r.maya_id));
    paid = payments.find((p) => p.id === claimed.charge.mayaId) ?? payments.find((p) => !others.has(p.id) && ['PAYMENT_SUCCESS', 'CAPTURED', 'VOIDED', 'REFUNDED'].includes(p.status));
  } catch (error) {
    await nothingDone('Maya could not be read', error);
    throw new HttpError(502, GATEWAY_DOWN);
  }
  if (!paid) {
    await nothingDone('Maya shows no such payment');
    throw new HttpError(409, OPS_MESSAGES.notReversible);
  }

  let kind = claimed.kind;
  let status: string;
  if (paid.status === 'VOIDED' || paid.status === 'REFUNDED') {
    // Given back already in Maya's own dashboard: recorded as this reversal.
    kind = paid.status === 'VOIDED' ? 'void' : 'refund';
    status = paid.status;
  } else {
    if (kind === 'void' && paid.canVoid === false) kind = 'refund';
    if (kind !== claimed.kind) await db.query(`UPDATE gateway_attempts SET kind = 'REFUND' WHERE id = $1`, [claimed.attemptId]);
    try {
      const answer = kind === 'void'
        ? await gateway.voidPayment(paid.id, { reason: MAYA_REASON })
        : await gateway.refundPayment(paid.id, { totalAmount: { amount: toMayaValue(claimed.amount), currency: claimed.currency }, reason: MAYA_REASON });
      status = answer.status ?? (kind === 'void' ? 'VOIDED' : 'REFUNDED');
    } catch (error) {
      const result = classifyError(error, 'VOID');
      if (result.outcome !== 'UNKNOWN') {
        await nothingDone(result.reason, error);
        deps.log(`ALERT ops: Maya refused the ${kind} of ${claimed.referenceId}: ${error instanceof Error ? error.message : String(error)}`);
        throw new HttpError(502, GATEWAY_DOWN);
      }
      // The answer was lost: Maya may have given it back. Read once; still unsure, the attempt stays open for the queue.
      const after = await gateway.getPayment(paid.id).catch(() => null);
      const reversedNow = after && (after.status === 'VOIDED' || after.status === 'REFUNDED' || (after.status === 'PAYMENT_SUCCESS' && !claimed.full && Number((after as { refundedAmount?: unknown }).refundedAmount ?? 0) > 0));
      if (!reversedNow) {
        await resolveAttempt(db, claimed.attemptId, { outcome: 'UNKNOWN', reason: 'the answer was lost: check it at Maya' }, await now(db));
        await db.query('UPDATE ops_requests SET status = 502, result = $2 WHERE request_key = $1', [body.requestKey, JSON.stringify({ message: GATEWAY_UNSURE })]);
        deps.log(`ALERT ops: the ${kind} of ${claimed.referenceId} got no answer from Maya: check it`);
        throw new HttpError(502, GATEWAY_UNSURE);
      }
      status = after.status;
    }
  }

  const result = { kind, amount: claimed.amount, outcome: 'SUCCEEDED' };
  await db.transaction(async (tx) => {
    const at = await now(tx);
    await tx.query('SELECT 1 FROM payment_records WHERE id = $1 FOR UPDATE', [recordId]);
    await tx.query(`UPDATE gateway_attempts SET kind = $2, outcome = 'SUCCEEDED', gateway_status = $3, resolved_at = $4 WHERE id = $1`, [
      claimed.attemptId, kind === 'void' ? 'VOID' : 'REFUND', status, at,
    ]);
    const after = claimed.full ? (kind === 'void' ? 'VOIDED' : 'REFUNDED') : claimed.before.status;
    if (claimed.full) {
      await tx.query(`UPDATE gateway_attempts SET outcome = 'REVERSED', reversal_due = false, resolved_at = COALESCE(resolved_at, $2) WHERE id = $1`, [claimed.charge.id, at]);
      await tx.query(
        `UPDATE payment_records SET status = $2, updated_at = $3,
           gateway_response = COALESCE(gateway_response, '{}'::jsonb) || jsonb_build_object('reversal', jsonb_build_object('by', 'operator', 'attemptId', $4::text))
         WHERE id = $1`,
        [recordId, after, at, claimed.attemptId],
      );
    }
    const auditId = await writeAudit(tx, actor, {
      action: 'payment.reverse', targetUserId: claimed.userId, targetType: 'payment_record', targetId: recordId, reason: body.reason,
      before: claimed.before, after: { ...result, status: after, attemptId: claimed.attemptId }, requestId,
    });
    await tx.query('UPDATE gateway_attempts SET operator_audit_id = $2::bigint WHERE id = $1', [claimed.attemptId, auditId]);
    await tx.query('UPDATE ops_requests SET status = 200, result = $2 WHERE request_key = $1', [body.requestKey, JSON.stringify(result)]);
    // The credit memo last (its series stays locked until the end of the transaction): for what this reversal gave back.
    await issueCreditMemo(tx, recordId, at, { amount: claimed.amount, reversalAttemptId: claimed.attemptId });
  });
  deps.log(`ops: ${actor.email} ${kind === 'void' ? 'voided' : 'refunded'} ${claimed.amount} of ${claimed.referenceId}`);
  return result;
}

/* ------------------------------------------------------------------ subscriptions */

async function lockedSubscription(tx: Queryable, id: string) {
  if (!UUID.test(id)) throw new HttpError(404, NOT_FOUND);
  const row = (await tx.query<{ id: string; user_id: string; status: string; end_date: Date | null; auto_renew: boolean; payment_method: string | null; next_attempt_at: Date | null; dunning_stopped_at: Date | null }>(
    'SELECT id, user_id, status, end_date, auto_renew, payment_method, next_attempt_at, dunning_stopped_at FROM subscriptions WHERE id = $1 FOR UPDATE', [id],
  )).rows[0];
  if (!row) throw new HttpError(404, NOT_FOUND);
  return row;
}

async function viewOf(q: Queryable, id: string) {
  return toTimelineSubscription((await subscriptionView(q, id))!);
}

const RETRY_OUTCOMES = { renewed: 'CHARGED', failed: 'DECLINED', pending: 'PENDING', ended: 'ENDED', skipped: 'NOTHING_DONE' } as const;

/** Runs the subscription's due renewal now (renewals.ts: one charge per period, whoever asks). */
export async function retryRenewal(deps: OpsDeps, actor: Actor, id: string, reason: string, requestId: string | null) {
  const { db } = deps;
  const before = await db.transaction(async (tx) => {
    const sub = await lockedSubscription(tx, id);
    const at = await now(tx);
    const renewable = sub.payment_method === 'MAYA_VAULT' || sub.payment_method === 'MAYA_WALLET';
    if (renewable && sub.status === 'PAST_DUE') {
      await tx.query('UPDATE subscriptions SET next_attempt_at = $2 WHERE id = $1', [id, at]);
    } else if (!(renewable && sub.status === 'ACTIVE' && sub.auto_renew && sub.end_date && sub.end_date <= at)) {
      throw new HttpError(409, OPS_MESSAGES.notRenewable);
    }
    return { status: sub.status, nextRetryAt: sub.next_attempt_at?.toISOString() ?? null };
  });
  const outcome = RETRY_OUTCOMES[await renewSubscription(deps, id, { operator: true })];
  return db.transaction(async (tx) => {
    const subscription = await viewOf(tx, id);
    const sub = (await tx.query<{ user_id: string }>('SELECT user_id FROM subscriptions WHERE id = $1', [id])).rows[0]!;
    await writeAudit(tx, actor, {
      action: 'subscription.retry', targetUserId: sub.user_id, targetType: 'subscription', targetId: id, reason, before,
      after: { outcome, status: subscription.status, nextRetryAt: subscription.nextRetryAt }, requestId,
    });
    return { outcome, subscription };
  });
}

/** Stops or resumes the retries of a subscription (renewals.ts charges no retry while stopped). */
export async function setDunning(deps: OpsDeps, actor: Actor, id: string, stopped: boolean, reason: string, requestId: string | null) {
  return deps.db.transaction(async (tx) => {
    const sub = await lockedSubscription(tx, id);
    if (!['ACTIVE', 'PAST_DUE', 'CANCELED'].includes(sub.status)) throw new HttpError(409, OPS_MESSAGES.alreadyEnded);
    const at = await now(tx);
    await tx.query('UPDATE subscriptions SET dunning_stopped_at = CASE WHEN $2::boolean THEN COALESCE(dunning_stopped_at, $3) END, updated_at = $3 WHERE id = $1', [id, stopped, at]);
    await writeAudit(tx, actor, {
      action: 'subscription.dunning', targetUserId: sub.user_id, targetType: 'subscription', targetId: id, reason,
      before: { dunningStopped: sub.dunning_stopped_at !== null }, after: { dunningStopped: stopped }, requestId,
    });
    return { subscription: await viewOf(tx, id) };
  });
}

/**
 * Adds days to the period (a comp): support up to 7, finance and admin up to 366. A PAST_DUE
 * subscription gets them from now, ACTIVE again, as a voucher's days (vouchers.ts): its unpaid
 * period is not charged any more (a late success is given back: its period no longer stands).
 */
export async function extendSubscription(deps: OpsDeps, actor: Actor, id: string, days: number, reason: string, requestId: string | null) {
  if (actor.role === 'cli' || (!roleAtLeast(actor.role, 'finance') && days > 7)) throw new HttpError(400, OPS_MESSAGES.extendTooLong);
  return deps.db.transaction(async (tx) => {
    const sub = await lockedSubscription(tx, id);
    const at = await now(tx);
    if (!['ACTIVE', 'PAST_DUE', 'CANCELED'].includes(sub.status)) throw new HttpError(409, OPS_MESSAGES.alreadyEnded);
    if (!sub.end_date) throw new HttpError(409, OPS_MESSAGES.nothingToExtend);
    const from = sub.status === 'PAST_DUE' && sub.end_date < at ? at : sub.end_date;
    const endDate = addDays(from, days);
    await tx.query(
      `UPDATE subscriptions SET end_date = $2, updated_at = $3, renewal_notice_at = NULL, reminded_at = NULL,
         status = CASE WHEN status = 'PAST_DUE' THEN 'ACTIVE' ELSE status END,
         next_attempt_at = CASE WHEN status = 'PAST_DUE' THEN NULL ELSE next_attempt_at END,
         renewal_failure = CASE WHEN status = 'PAST_DUE' THEN NULL ELSE renewal_failure END
       WHERE id = $1`,
      [id, endDate, at],
    );
    await writeAudit(tx, actor, {
      action: 'subscription.extend', targetUserId: sub.user_id, targetType: 'subscription', targetId: id, reason,
      before: { status: sub.status, endDate: sub.end_date.toISOString() }, after: { days, endDate: endDate.toISOString() }, requestId,
    });
    return { endDate: endDate.toISOString(), subscription: await viewOf(tx, id) };
  });
}

/** Cancels now (access ends now; nothing is given back by this: a refund is its own action) or at the period's end. */
export async function cancelByOperator(deps: OpsDeps, actor: Actor, id: string, when: 'now' | 'period_end', reason: string, requestId: string | null) {
  return deps.db.transaction(async (tx) => {
    const sub = await lockedSubscription(tx, id);
    const at = await now(tx);
    if (when === 'period_end') {
      await cancelSubscriptionIn(tx, sub.user_id, id, 'en', 'Canceled by support');
    } else {
      const ended = await tx.query(
        `UPDATE subscriptions SET status = 'EXPIRED', auto_renew = false, next_attempt_at = NULL, scheduled_plan_id = NULL, canceled_date = $2,
           canceled_reason = 'Canceled now by support', end_date = LEAST(COALESCE(end_date, $2), $2), updated_at = $2
         WHERE id = $1 AND status IN ('ACTIVE', 'PAST_DUE', 'CANCELED') RETURNING id`,
        [id, at],
      );
      if (!ended.rows.length) throw new HttpError(409, OPS_MESSAGES.alreadyEnded);
    }
    const subscription = await viewOf(tx, id);
    await writeAudit(tx, actor, {
      action: 'subscription.cancel', targetUserId: sub.user_id, targetType: 'subscription', targetId: id, reason,
      before: { status: sub.status, endDate: sub.end_date?.toISOString() ?? null }, after: { when, status: subscription.status, endDate: subscription.endDate }, requestId,
    });
    return { subscription };
  });
}

/* ------------------------------------------------------------------ records and mails */

/** Runs the reconciler on one record now: Maya read, the record decided, what follows done. */
export async function resolveRecord(deps: OpsDeps, actor: Actor, recordId: string, reason: string, requestId: string | null) {
  const { db } = deps;
  if (!UUID.test(recordId)) throw new HttpError(404, NOT_FOUND);
  const before = (await db.query<{ user_id: string; status: string; renews: string | null }>(
    `SELECT user_id, status, gateway_response->'details'->>'${RENEWS_KEY}' AS renews FROM payment_records WHERE id = $1`, [recordId],
  )).rows[0];
  if (!before) throw new HttpError(404, NOT_FOUND);
  const decided = await reconcileNow(deps, recordId);
  if (decided === null) throw new HttpError(502, GATEWAY_DOWN);
  const decision = decided === before.status ? 'UNCHANGED' : `${before.status} -> ${decided}`;
  await db.transaction((tx) =>
    writeAudit(tx, actor, {
      action: 'record.resolve', targetUserId: before.user_id, targetType: 'payment_record', targetId: recordId, reason,
      before: { status: before.status }, after: { status: decided, decision }, requestId,
    }),
  );
  return { decision, status: decided };
}

/** Sends a logged mail again, to the viewer's address now, in their language now. */
export async function resendMail(deps: OpsDeps, actor: Actor, mailId: string, reason: string, requestId: string | null) {
  const { db } = deps;
  if (!/^\d{1,18}$/.test(mailId)) throw new HttpError(404, OPS_MESSAGES.mailGone);
  const mail = (await db.query<{ user_id: string | null; subject: string; body: string; email: string | null; language: 'en' | 'ceb' | null }>(
    'SELECT m.user_id, m.subject, m.body, u.email, u.language FROM mail_log m LEFT JOIN users u ON u.id = m.user_id WHERE m.id = $1::bigint', [mailId],
  )).rows[0];
  if (!mail || !mail.user_id || !mail.email) throw new HttpError(404, OPS_MESSAGES.mailGone);
  await deps.mailer.send({ to: mail.email, subject: mail.subject, text: mail.body, language: mail.language ?? 'en' });
  const sent = (await db.query<{ id: string }>('SELECT id::text AS id FROM mail_log WHERE user_id = $1 ORDER BY id DESC LIMIT 1', [mail.user_id])).rows[0];
  await db.transaction((tx) =>
    writeAudit(tx, actor, {
      action: 'mail.resend', targetUserId: mail.user_id, targetType: 'mail', targetId: mailId, reason,
      after: { to: mail.email, subject: mail.subject, mailId: sent?.id ?? null }, requestId,
    }),
  );
  return { mailId: sent?.id ?? mailId, to: mail.email };
}
