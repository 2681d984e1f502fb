/**
 * The back office's queues (issue 35): what needs a person. Past-due subscriptions, renewals refused
 * for our own fault (keys, rate limits: never the viewer's), gateway attempts left open or unknown,
 * reversals due or failed, and webhooks that could not be verified. Each row names the viewer (when
 * known) so the console opens their timeline. Reads only; at most 100 rows each, oldest first.
 */
import type { Queues } from '../../src/api/ops/schemas';
import { now } from '../platform/clock';
import type { Db } from '../platform/db';

const LIMIT = 100;
/** An attempt open longer than this (real time) is stuck: its answer normally settles it in seconds. */
export const STUCK_AFTER_MS = 5 * 60 * 1000;

const minutes = (since: Date, at: number) => Math.max(0, Math.round((at - since.getTime()) / 60_000));

export async function queues(db: Db): Promise<Queues> {
  const billingNow = await now(db);
  const realNow = Date.now();
  const pastDue = await db.query<{ user_id: string; email: string; id: string; plan_name: string; reason: string | null; attempts: number; next_attempt_at: Date | null; end_date: Date; dunning_stopped: boolean }>(
    `SELECT s.user_id, u.email, s.id, p.name AS plan_name, s.renewal_failure AS reason, s.next_attempt_at, s.end_date, (s.dunning_stopped_at IS NOT NULL) AS dunning_stopped,
       COALESCE((SELECT r.retry_count + 1 FROM payment_records r WHERE r.subscription_id = s.id AND r.gateway_response->'details' ? 'renewsSubscriptionId'
         ORDER BY r.created_at DESC, r.seq DESC LIMIT 1), 0)::int AS attempts
     FROM subscriptions s JOIN users u ON u.id = s.user_id JOIN plans p ON p.id = s.plan_id
     WHERE s.status = 'PAST_DUE' ORDER BY s.end_date LIMIT ${LIMIT}`,
  );
  const ourFault = await db.query<{ user_id: string; email: string; subscription_id: string | null; record_id: string; amount: string; reason: string | null; attempts: number; hold_until: Date | null; made_at: Date }>(
    `SELECT r.user_id, u.email, r.gateway_response->'details'->>'renewsSubscriptionId' AS subscription_id, r.id AS record_id, r.total_amount::text AS amount,
       a.reason, (SELECT count(*)::int FROM gateway_attempts x WHERE x.record_id = r.id AND x.reverses IS NULL) AS attempts, r.hold_until, a.made_at
     FROM gateway_attempts a JOIN payment_records r ON r.id = a.record_id JOIN users u ON u.id = r.user_id
     WHERE a.outcome = 'OURS' AND a.reverses IS NULL AND r.status NOT IN ('PAYMENT_SUCCESS', 'VOIDED', 'REFUNDED')
       AND a.seq = (SELECT max(x.seq) FROM gateway_attempts x WHERE x.record_id = r.id AND x.reverses IS NULL)
     ORDER BY a.made_at LIMIT ${LIMIT}`,
  );
  const stuck = await db.query<{ user_id: string; email: string; record_id: string; id: string; kind: string; outcome: string; amount: string; reason: string | null; made_at: Date }>(
    `SELECT r.user_id, u.email, r.id AS record_id, a.id, a.kind, a.outcome, a.amount::text AS amount, a.reason, a.made_at
     FROM gateway_attempts a JOIN payment_records r ON r.id = a.record_id JOIN users u ON u.id = r.user_id
     WHERE a.outcome IN ('OPEN', 'UNKNOWN') AND a.made_at < $1 ORDER BY a.made_at LIMIT ${LIMIT}`,
    [new Date(realNow - STUCK_AFTER_MS)],
  );
  const reversals = await db.query<{ user_id: string; email: string; record_id: string; id: string; amount: string; failed: boolean; reason: string | null; made_at: Date }>(
    `SELECT r.user_id, u.email, r.id AS record_id, a.id, a.amount::text AS amount, a.made_at,
       EXISTS (SELECT 1 FROM gateway_attempts f WHERE f.reverses = a.id AND f.outcome = 'FAILED') AS failed,
       (SELECT f.reason FROM gateway_attempts f WHERE f.reverses = a.id AND f.outcome = 'FAILED' ORDER BY f.seq DESC LIMIT 1) AS reason
     FROM gateway_attempts a JOIN payment_records r ON r.id = a.record_id JOIN users u ON u.id = r.user_id
     WHERE a.reversal_due
     UNION ALL
     SELECT r.user_id, u.email, r.id, c.id, o.amount::text, o.made_at, true, COALESCE(o.reason, 'an operator''s reversal got no answer')
     FROM gateway_attempts o JOIN gateway_attempts c ON c.id = o.reverses JOIN payment_records r ON r.id = o.record_id JOIN users u ON u.id = r.user_id
     WHERE o.operator_request_key IS NOT NULL AND o.outcome IN ('OPEN', 'UNKNOWN') AND NOT c.reversal_due
     ORDER BY made_at LIMIT ${LIMIT}`,
  );
  const webhooks = await db.query<{ id: string; user_id: string | null; email: string | null; received_at: Date; reason: string | null; maya_payment_id: string | null; status: string | null }>(
    `SELECT w.id::text AS id, w.user_id, u.email, w.received_at, w.reason, w.maya_payment_id, w.status
     FROM webhook_events w LEFT JOIN users u ON u.id = w.user_id
     WHERE NOT w.verified AND w.received_at > $1 ORDER BY w.id DESC LIMIT ${LIMIT}`,
    [new Date(realNow - 7 * 24 * 60 * 60 * 1000)],
  );
  const at = billingNow.getTime();
  return {
    pastDue: pastDue.rows.map((r) => ({
      userId: r.user_id, email: r.email, since: r.end_date.toISOString(), ageMinutes: minutes(r.end_date, at), subscriptionId: r.id, planName: r.plan_name,
      reason: r.reason, attempts: r.attempts, nextTryAt: r.dunning_stopped ? null : r.next_attempt_at?.toISOString() ?? null, dunningStopped: r.dunning_stopped,
    })),
    ourFault: ourFault.rows.map((r) => ({
      userId: r.user_id, email: r.email, since: r.made_at.toISOString(), ageMinutes: minutes(r.made_at, realNow), subscriptionId: r.subscription_id,
      recordId: r.record_id, amount: r.amount, reason: r.reason, attempts: r.attempts, nextTryAt: r.hold_until?.toISOString() ?? null,
    })),
    stuck: stuck.rows.map((r) => ({
      userId: r.user_id, email: r.email, since: r.made_at.toISOString(), ageMinutes: minutes(r.made_at, realNow), recordId: r.record_id, attemptId: r.id,
      kind: r.kind, outcome: r.outcome, amount: r.amount, reason: r.reason,
    })),
    reversals: reversals.rows.map((r) => ({
      userId: r.user_id, email: r.email, since: r.made_at.toISOString(), ageMinutes: minutes(r.made_at, realNow), recordId: r.record_id, attemptId: r.id,
      amount: r.amount, state: r.failed ? ('failed' as const) : ('due' as const), reason: r.reason,
    })),
    unverifiedWebhooks: webhooks.rows.map((w) => ({
      id: w.id, userId: w.user_id, email: w.email, since: w.received_at.toISOString(), ageMinutes: minutes(w.received_at, realNow), reason: w.reason,
      mayaPaymentId: w.maya_payment_id, status: w.status,
    })),
  };
}
