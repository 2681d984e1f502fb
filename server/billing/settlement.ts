/**
 * Learning a payment's outcome and applying it exactly once (issue 32, product.md#money-ledger).
 *
 * A payment record carries its gateway attempts (ledger.ts). Its outcome is decided from them, here
 * and nowhere else (`decideRecord`), in one transaction that locks the record and writes the
 * subscription it pays for (activation.ts):
 * - the first attempt that SUCCEEDED pays the record's period, if that period still stands (the
 *   subscription a renewal renews is still live at that end date; the one a plan change replaces is
 *   still the viewer's live one; a purchase finds no paid period running) and the amount is the
 *   record's; otherwise it is given back (REVERSAL_DUE, reversals.ts);
 * - every other success of the record is given back too (a second charge for one period);
 * - without a success, the NEWEST attempt decides, once it is final: a read during a retry never
 *   settles the record from the attempt before it;
 * - an attempt whose answer was lost stays open until Maya is read by reference.
 *
 * Outcomes come from the gateway, read where Maya documents it (a checkout by its id, card and wallet
 * payments by our reference number), never from a webhook body or a return address.
 */
import type { PaymentMethod } from '../../src/api/schemas';
import { fromMayaValue, type MayaPayment } from '../gateway/maya';
import { clockSql, now, unsetClock, type Queryable } from '../platform/clock';
import type { Db } from '../platform/db';
import { activatePaidRecord, CHANGE_KEY, RENEWS_KEY } from './activation';
import type { BillingDeps } from './deps';
import { issueCreditMemo, issueInvoice } from './invoices';
import { attemptsOf, charges, classifyPayment, OPEN_OUTCOMES, resolveAttempt, type AttemptKind, type AttemptRow } from './ledger';
import { currentSubscription } from './subscriptions';

export interface RecordRow {
  id: string;
  user_id: string;
  plan_id: number | null;
  subscription_id: string | null;
  checkout_id: string | null;
  reference_id: string;
  status: string;
  amount: string;
  currency: string;
  payment_method: PaymentMethod;
  payment_details: Record<string, unknown> | null;
  applied_attempt_id: string | null;
  created_at: Date;
}

const RECORD_COLUMNS = `id, user_id, plan_id, subscription_id, checkout_id, reference_id, status, total_amount::text AS amount, currency, payment_method,
  gateway_response->'details' AS payment_details, applied_attempt_id, created_at`;

export async function findRecord(q: Queryable, where: 'id' | 'reference_id', value: string): Promise<RecordRow | null> {
  return (await q.query<RecordRow>(`SELECT ${RECORD_COLUMNS} FROM payment_records WHERE ${where} = $1`, [value])).rows[0] ?? null;
}

type SettleDeps = Pick<BillingDeps, 'db' | 'gateway' | 'log'>;

/** Record statuses of a payment we had given up on: a success arriving for one of them is looked at again. */
export const GIVEN_UP = ['PAYMENT_FAILED', 'PAYMENT_EXPIRED', 'PAYMENT_CANCELLED'];

/**
 * How long an attempt whose answer was lost may take to show at Maya (real time). An attempt Maya still
 * lists nothing for after this was never made (the call died before it reached Maya), so a renewal may
 * be charged again and a record with nothing else open expires.
 */
export const NOT_MADE_AFTER_MS = 2 * 60 * 1000;

/** The kind of attempt a record's own method makes. */
export const attemptKindOf = (method: PaymentMethod): AttemptKind => (method === 'MAYA_CHECKOUT' ? 'CHECKOUT' : method === 'MAYA_WALLET' ? 'WALLET' : 'CARD');

/** What the gateway says of one payment or checkout, whichever way it was read. */
export interface GatewayOutcome {
  id: string;
  status: string;
  amount: number | string;
  currency: string;
  requestReferenceNumber: string;
  createdAt?: string | null | undefined;
  updatedAt?: string | null | undefined;
  errorCode?: unknown;
}

export interface Decision {
  recordId: string;
  userId: string;
  status: string;
  /** The record was paid by this decision (its receipt is due). */
  paidNow: boolean;
  /** A renewal record whose newest attempt was declined by this decision (dunning follows). */
  failedNow: { reason: string; hard: boolean; attemptId: string } | null;
  /** The subscription a renewal record renews, when it is one. */
  renews: string | null;
}

/** Thrown when Maya could not be read: a webhook is then answered non-2xx, so Maya delivers it again. */
export class GatewayReadError extends Error {}

/**
 * Reads what Maya holds for the record's attempts, writes it into the ledger, and decides the record.
 * `read`: 'open' reads only while an attempt is open; 'always' reads anyway (a webhook, the reconciler:
 * a late success or a reversal made in Maya's dashboard). Throws GatewayReadError when Maya could not
 * be read; the decision is then left as it was.
 */
export async function settleRecord(
  deps: SettleDeps, recordId: string, read: 'open' | 'always' = 'open', realNow = Date.now(), paidLook = false,
): Promise<Decision | null> {
  const record = await findRecord(deps.db, 'id', recordId);
  if (!record) return null;
  let attempts = charges(await attemptsOf(deps.db, recordId));
  if (!attempts.length && (record.status === 'PENDING' || record.status === 'REVERSAL_DUE')) {
    await adoptLegacy(deps.db, record);
    attempts = charges(await attemptsOf(deps.db, recordId));
  }
  const open = attempts.some((a) => OPEN_OUTCOMES.includes(a.outcome));
  const looked = read === 'always' || open || (record.status === 'PENDING' && attempts.length === 0);
  if (looked) await readGateway(deps, record, attempts, realNow);
  return decideAndSchedule(deps.db, recordId, realNow, paidLook);
}

/**
 * A record left open by a version before the ledger (migration 011) has no attempt: it is given the one
 * it stands for, so the ledger's rules settle it (an open checkout read by its id, a charge by reference
 * and expired when Maya holds nothing for it, a success that paid nothing given back).
 */
async function adoptLegacy(db: Db, record: RecordRow): Promise<void> {
  const legacy = (await db.query<{ maya_id: string | null; updated_at: Date }>(
    `SELECT COALESCE(checkout_id, gateway_response->'gateway'->>'id') AS maya_id, updated_at FROM payment_records WHERE id = $1`, [record.id],
  )).rows[0]!;
  await db.query(
    `INSERT INTO gateway_attempts (record_id, kind, reference_id, maya_id, amount, currency, outcome, reversal_due, reason, created_at, made_at)
     VALUES ($1, $2, $3, $4, $5::numeric, $6, $7, $8, 'made before the ledger', $9, $10)
     ON CONFLICT (maya_id) WHERE maya_id IS NOT NULL AND reverses IS NULL DO NOTHING`,
    [record.id, attemptKindOf(record.payment_method), record.reference_id, legacy.maya_id, record.amount, record.currency,
      record.status === 'REVERSAL_DUE' ? 'SUCCEEDED' : 'OPEN', record.status === 'REVERSAL_DUE', record.created_at, legacy.updated_at],
  );
}

/** Maya's view of the record's attempts, written into the ledger. */
async function readGateway(deps: SettleDeps, record: RecordRow, attempts: AttemptRow[], realNow: number): Promise<void> {
  const { db, gateway } = deps;
  const outcomes: GatewayOutcome[] = [];
  try {
    // A hosted checkout is read by its id (each attempt has its own); card and wallet payments by reference.
    for (const attempt of attempts) {
      if (attempt.kind !== 'CHECKOUT' || !attempt.maya_id) continue;
      const checkout = await gateway.getCheckout(attempt.maya_id);
      outcomes.push({
        id: checkout.id, status: checkout.paymentStatus, amount: checkout.totalAmount.value ?? checkout.totalAmount.amount ?? '',
        currency: checkout.totalAmount.currency, requestReferenceNumber: checkout.requestReferenceNumber, createdAt: null, updatedAt: checkout.updatedAt,
      });
    }
    if (record.payment_method !== 'MAYA_CHECKOUT' || attempts.some((a) => a.kind !== 'CHECKOUT')) {
      outcomes.push(...(await gateway.getPaymentsByReference(record.reference_id)));
    }
  } catch (error) {
    deps.log(`gateway: could not read payment ${record.reference_id}: ${error instanceof Error ? error.message : String(error)}`);
    throw new GatewayReadError(`could not read ${record.reference_id}`);
  }
  await writeOutcomes(db, record, attempts, outcomes, realNow);
}

/** Each payment Maya listed, matched to its attempt (by Maya's id, else the oldest open one without an id), or entered as found. */
export async function writeOutcomes(db: Db, record: RecordRow, attempts: AttemptRow[], outcomes: GatewayOutcome[], realNow = Date.now()): Promise<void> {
  await db.transaction(async (tx) => {
    const at = await now(tx);
    const waiting = attempts.filter((a) => !a.maya_id && OPEN_OUTCOMES.includes(a.outcome) && a.kind !== 'CHECKOUT');
    const seen = new Set<string>();
    for (const payment of outcomes) {
      if (payment.requestReferenceNumber !== record.reference_id || seen.has(payment.id)) continue;
      seen.add(payment.id);
      let amount: string;
      try {
        amount = fromMayaValue(payment.amount);
      } catch {
        continue;
      }
      let attempt = attempts.find((a) => a.maya_id === payment.id) ?? null;
      if (!attempt && payment.status !== 'FOR_AUTHENTICATION') attempt = waiting.shift() ?? null;
      let attemptId = attempt?.id;
      if (!attemptId) {
        // Money Maya holds under our reference that no attempt of ours names: entered, so the ledger knows it.
        attemptId = (
          await tx.query<{ id: string }>(
            `INSERT INTO gateway_attempts (record_id, kind, reference_id, maya_id, amount, currency, reason, created_at)
             VALUES ($1, $2, $3, $4, $5::numeric, $6, 'found at the gateway', $7)
             ON CONFLICT (maya_id) WHERE maya_id IS NOT NULL AND reverses IS NULL DO UPDATE SET maya_id = EXCLUDED.maya_id RETURNING id`,
            [record.id, attemptKindOf(record.payment_method), record.reference_id, payment.id, amount, payment.currency, at],
          )
        ).rows[0]!.id;
      } else if (amount !== attempt!.amount) {
        // What Maya took is what the ledger says was taken.
        await tx.query('UPDATE gateway_attempts SET amount = $2::numeric WHERE id = $1', [attemptId, amount]);
      }
      const result = classifyPayment(payment as MayaPayment);
      if (result.outcome === 'REVERSED') {
        // Given back: by us (our VOID or REFUND attempt says so) or in Maya's own dashboard.
        await tx.query(
          `UPDATE gateway_attempts SET outcome = 'REVERSED', gateway_status = $2, maya_id = COALESCE(maya_id, $3), resolved_at = COALESCE(resolved_at, $4), reversal_due = false
           WHERE id = $1 AND outcome IN ('OPEN', 'UNKNOWN', 'SUCCEEDED')`,
          [attemptId, payment.status, payment.id, at],
        );
      } else {
        await resolveAttempt(tx, attemptId, { ...result, mayaId: payment.id, paidAt: result.outcome === 'SUCCEEDED' ? mayaTime(payment, at) : null }, at);
      }
    }
    // Asked long ago, and Maya lists nothing for it: it never reached Maya. Long ago by real time, or by
    // the billing clock QA moves (a payment found at Maya later is still entered and decided: above).
    const old = (attempt: AttemptRow) => realNow - attempt.made_at.getTime() >= NOT_MADE_AFTER_MS || at.getTime() - attempt.created_at.getTime() >= NOT_MADE_AFTER_MS;
    for (const attempt of waiting) {
      if (old(attempt)) await resolveAttempt(tx, attempt.id, { outcome: 'NOT_MADE', reason: 'Maya holds no payment for it' }, at);
    }
    // A hosted checkout whose creation never answered (its process died, its answer was lost): nobody
    // holds its page, so nobody can pay it; it is closed once as old.
    for (const attempt of attempts) {
      if (attempt.kind === 'CHECKOUT' && !attempt.maya_id && OPEN_OUTCOMES.includes(attempt.outcome) && old(attempt)) {
        await resolveAttempt(tx, attempt.id, { outcome: 'NOT_MADE', reason: 'the checkout was never created' }, at);
      }
    }
  });
}

/**
 * When Maya says a success was paid (its updatedAt, else createdAt), by the billing clock's frame: not
 * later than now, and the read's own time when Maya gives none.
 */
export function mayaTime(payment: { updatedAt?: string | null; createdAt?: string | null }, at: Date): Date {
  const said = Date.parse(payment.updatedAt ?? payment.createdAt ?? '');
  return Number.isFinite(said) && said <= at.getTime() ? new Date(said) : at;
}

/** The record's outcome from its attempts, and when the reconciler should look at it again. */
export async function decideAndSchedule(db: Db, recordId: string, realNow = Date.now(), looked = false): Promise<Decision | null> {
  return db.transaction((tx) => decideRecord(tx, recordId, realNow, looked));
}

const RECORD_STATUS_OF: Partial<Record<AttemptRow['outcome'], string>> = {
  DECLINED: 'PAYMENT_FAILED', OURS: 'PAYMENT_FAILED', FAILED: 'PAYMENT_FAILED', EXPIRED: 'PAYMENT_EXPIRED', NOT_MADE: 'PAYMENT_EXPIRED', CANCELLED: 'PAYMENT_CANCELLED',
};

/** The one place a record's outcome is written. Locks the record; answers what changed. */
export async function decideRecord(tx: Queryable, recordId: string, realNow = Date.now(), looked = false): Promise<Decision | null> {
  // The record, locked, with the billing clock and the reconciler's plans for it, in one statement.
  const found = (
    await tx.query<RecordRow & { at: Date; recheck_at: Date | null; paid_looks: number | null }>(
      `SELECT ${RECORD_COLUMNS}, ${clockSql('$2')} AS at, recheck_at, (gateway_response->>'paidLooks')::int AS paid_looks FROM payment_records WHERE id = $1 FOR UPDATE`,
      [recordId, unsetClock()],
    )
  ).rows[0];
  if (!found) return null;
  const { at, recheck_at: recheckAt, paid_looks: paidLooks, ...record } = found;
  const all = await attemptsOf(tx, recordId);
  const attempts = charges(all);
  const renews = typeof record.payment_details?.[RENEWS_KEY] === 'string' ? (record.payment_details[RENEWS_KEY] as string) : null;
  const decision: Decision = { recordId, userId: record.user_id, status: record.status, paidNow: false, failedNow: null, renews };
  const setStatus = async (status: string, extra = '') => {
    await tx.query(`UPDATE payment_records SET status = $2, updated_at = $3${extra} WHERE id = $1`, [recordId, status, at]);
    decision.status = status;
  };
  const dueBack = new Set(all.filter((a) => a.reversal_due).map((a) => a.id));
  const markReversal = async (attemptId: string) => {
    await tx.query(`UPDATE gateway_attempts SET reversal_due = true WHERE id = $1 AND outcome = 'SUCCEEDED' AND NOT reversal_due`, [attemptId]);
    dueBack.add(attemptId);
  };

  const successes = attempts.filter((a) => a.outcome === 'SUCCEEDED');
  let applied = record.applied_attempt_id;
  if (!applied && successes.length && (record.status === 'PENDING' || GIVEN_UP.includes(record.status))) {
    const first = successes[0]!;
    // The viewer is locked before their periods are judged: two payments applied at once (PostgreSQL)
    // are judged one after the other, and the second finds the first's period.
    await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [record.user_id]);
    if (first.amount === record.amount && record.plan_id !== null && (await periodStands(tx, record, at))) {
      // Paid: looked at again later (PAID_LOOKS_MS), in the same write.
      await tx.query(
        `UPDATE payment_records SET status = 'PAYMENT_SUCCESS', applied_attempt_id = $2, paid_at = $3, checkout_id = COALESCE(checkout_id, $4), updated_at = $6,
           recheck_at = $5, gateway_response = COALESCE(gateway_response, '{}'::jsonb) || '{"paidLooks": 0}'::jsonb
         WHERE id = $1`,
        [recordId, first.id, first.paid_at ?? at, first.maya_id, new Date(realNow + PAID_LOOKS_MS[0]!), at],
      );
      decision.status = 'PAYMENT_SUCCESS';
      decision.paidNow = true;
      applied = first.id;
      await activatePaidRecord(tx, { ...record, plan_id: record.plan_id }, at);
    } else {
      // Money that pays for nothing: the period is paid, replaced, canceled or ended meanwhile.
      await markReversal(first.id);
      await setStatus('REVERSAL_DUE');
    }
  }
  // A second success for one record is never kept.
  for (const extra of successes) if (extra.id !== applied && !extra.reversal_due) await markReversal(extra.id);

  if (decision.status === 'PENDING' && !successes.length) {
    const newest = attempts.at(-1);
    let final = newest ? RECORD_STATUS_OF[newest.outcome] : undefined;
    // A renewal whose last attempt was refused as our own fault, or never made, is no failure of the
    // viewer's: while its period stands it stays open for the engine's next attempt.
    if (final && renews && (newest!.outcome === 'OURS' || newest!.outcome === 'NOT_MADE') && (await stillRenewing(tx, record))) final = undefined;
    if (final) {
      await setStatus(final);
      // Dunning follows a card or wallet attempt the gateway declined; never our fault, an abandoned Renew now checkout, or an attempt not made.
      if (renews && newest!.outcome === 'DECLINED' && newest!.kind !== 'CHECKOUT') {
        decision.failedNow = { reason: newest!.reason ?? 'Your payment was declined', hard: newest!.decline === 'HARD', attemptId: newest!.id };
      }
    }
  }

  // Given back in Maya's own dashboard: the period it paid ends now, and the record says so.
  const appliedRow = applied ? all.find((a) => a.id === applied) : undefined;
  if (record.status === 'PAYMENT_SUCCESS' && appliedRow?.outcome === 'REVERSED' && !all.some((a) => a.reverses === appliedRow.id)) {
    await setStatus('REFUNDED', `, gateway_response = COALESCE(gateway_response, '{}'::jsonb) || '{"reversal": {"reason": "reversed at the gateway"}}'::jsonb`);
    await tx.query(
      `UPDATE subscriptions SET status = 'EXPIRED', auto_renew = false, next_attempt_at = NULL, end_date = LEAST(end_date, $2),
         canceled_reason = 'Payment reversed at the gateway', updated_at = $2, end_notice_at = COALESCE(end_notice_at, $2)
       WHERE id = (SELECT subscription_id FROM payment_records WHERE id = $1) AND status IN ('ACTIVE', 'PAST_DUE', 'CANCELED')`,
      [recordId, at],
    );
  }
  // Every charge of a record that paid nothing given back: the record says how.
  if (decision.status === 'REVERSAL_DUE' && !successes.length) {
    // Ours (a VOID or REFUND attempt that succeeded), else one made in Maya's dashboard.
    const reversal = all.filter((a) => a.reverses && a.outcome === 'SUCCEEDED').at(-1);
    const atMaya = attempts.filter((a) => a.outcome === 'REVERSED').at(-1);
    if (reversal) await setStatus(reversal.kind === 'VOID' ? 'VOIDED' : 'REFUNDED');
    else if (atMaya) await setStatus(atMaya.gateway_status === 'VOIDED' ? 'VOIDED' : 'REFUNDED');
  }
  await schedule(tx, { recordId, status: decision.status, paidNow: decision.paidNow, recheckAt, paidLooks, looked, realNow }, all, dueBack);
  // Its tax documents last (invoices.ts): the series' counter stays locked until this transaction ends,
  // so it is taken after every other write. A payment decided paid now gets its invoice; a paid one
  // whose charge was given back (by us, or in Maya's dashboard) gets the credit memo naming it.
  if (decision.paidNow) await issueInvoice(tx, recordId);
  else if (appliedRow?.outcome === 'REVERSED') await issueCreditMemo(tx, recordId, at);
  return decision;
}

/** The renewal record's subscription is still one the engine charges, at the end date this period starts from. */
async function stillRenewing(tx: Queryable, record: RecordRow): Promise<boolean> {
  const details = record.payment_details ?? {};
  const found = await tx.query(
    `SELECT 1 FROM subscriptions WHERE id = $1 AND user_id = $2 AND end_date = $3 AND payment_method IN ('MAYA_VAULT', 'MAYA_WALLET')
       AND ((status = 'ACTIVE' AND auto_renew) OR (status = 'PAST_DUE' AND next_attempt_at IS NOT NULL))`,
    [details[RENEWS_KEY], record.user_id, typeof details.periodStart === 'string' ? new Date(details.periodStart) : null],
  );
  return found.rows.length > 0;
}

/**
 * Does the period this record pays still stand? A renewal: the subscription it renews is still live
 * (ACTIVE or PAST_DUE) at the end date the period starts from. A plan change: the subscription it
 * replaces is still the viewer's live one. A purchase: the viewer has no paid period running.
 * Locks the subscription it looks at.
 */
async function periodStands(tx: Queryable, record: RecordRow, at: Date): Promise<boolean> {
  const details = record.payment_details ?? {};
  if (typeof details[RENEWS_KEY] === 'string') {
    const sub = (
      await tx.query<{ status: string; end_date: Date }>('SELECT status, end_date FROM subscriptions WHERE id = $1 AND user_id = $2 FOR UPDATE', [details[RENEWS_KEY], record.user_id])
    ).rows[0];
    const periodStart = typeof details.periodStart === 'string' ? new Date(details.periodStart).getTime() : NaN;
    return !!sub && (sub.status === 'ACTIVE' || sub.status === 'PAST_DUE') && sub.end_date.getTime() === periodStart;
  }
  if (typeof details[CHANGE_KEY] === 'string') {
    const sub = (
      await tx.query<{ status: string }>('SELECT status FROM subscriptions WHERE id = $1 AND user_id = $2 FOR UPDATE', [details[CHANGE_KEY], record.user_id])
    ).rows[0];
    return !!sub && ['ACTIVE', 'PAST_DUE', 'CANCELED'].includes(sub.status);
  }
  const current = await currentSubscription(tx, record.user_id, at);
  return !current || current.plan_type === 'FREE';
}

/**
 * When the reconciler reads the record at Maya again (real time): soon while an attempt is open or a
 * charge waits to be given back (the wait grows with the attempt's age, up to half an hour); twice
 * after a record is paid: ten minutes later (a late duplicate, still voidable that day), then a day
 * later (a refund made in Maya's own dashboard, of which Maya sends no event). Otherwise never.
 * Written only when it changes (a paid record's first look is written with its payment).
 */
const PAID_LOOKS_MS = [10 * 60_000, 24 * 60 * 60_000];

interface ScheduleInput {
  recordId: string;
  status: string;
  paidNow: boolean;
  recheckAt: Date | null;
  paidLooks: number | null;
  /** This decision follows the reconciler's own look at a paid record: that look is used up. */
  looked: boolean;
  realNow: number;
}

async function schedule(tx: Queryable, input: ScheduleInput, attempts: AttemptRow[], dueBack: Set<string>): Promise<void> {
  if (input.paidNow) return;
  const openOnes = attempts.filter((a) => OPEN_OUTCOMES.includes(a.outcome) || dueBack.has(a.id));
  let next: number | null = input.recheckAt?.getTime() ?? null;
  let looks = input.paidLooks;
  if (openOnes.length) {
    const age = input.realNow - Math.min(...openOnes.map((a) => a.made_at.getTime()));
    // Not later than a look already planned; at once when it was due.
    const wanted = input.realNow + Math.min(30 * 60_000, Math.max(30_000, age / 2));
    next = next !== null && next > input.realNow ? Math.min(next, wanted) : wanted;
  } else if (input.status === 'PAYMENT_SUCCESS' && input.looked) {
    looks = (looks ?? PAID_LOOKS_MS.length - 1) + 1;
    const wait = PAID_LOOKS_MS[looks];
    next = wait === undefined ? null : input.realNow + wait;
  } else if (input.status !== 'PAYMENT_SUCCESS') {
    next = null;
  }
  if (next === (input.recheckAt?.getTime() ?? null) && looks === input.paidLooks) return;
  await tx.query(
    `UPDATE payment_records SET recheck_at = $2,
       gateway_response = CASE WHEN $3::int IS NULL THEN gateway_response ELSE COALESCE(gateway_response, '{}'::jsonb) || jsonb_build_object('paidLooks', $3::int) END
     WHERE id = $1`,
    [input.recordId, next === null ? null : new Date(next), looks],
  );
}

/**
 * Asks the gateway about the viewer's open payments (an abandoned checkout reads as expired after its
 * hour). Reads only records with an attempt still open; a failed read leaves them to the reconciler.
 */
export async function refreshPending(deps: SettleDeps, userId: string): Promise<void> {
  const open = await deps.db.query<{ id: string }>(
    `SELECT r.id FROM payment_records r WHERE r.user_id = $1 AND (r.status = 'PENDING'
       OR EXISTS (SELECT 1 FROM gateway_attempts a WHERE a.record_id = r.id AND a.outcome IN ('OPEN', 'UNKNOWN') AND a.reverses IS NULL))`,
    [userId],
  );
  for (const row of open.rows) {
    try {
      await settleRecord(deps, row.id);
    } catch (error) {
      if (!(error instanceof GatewayReadError)) throw error;
    }
  }
}

/** Reads one record for a return address; Maya unreachable leaves it as it is. Returns its status. */
export async function settlePayment(deps: SettleDeps, recordId: string): Promise<string> {
  try {
    return (await settleRecord(deps, recordId))?.status ?? 'UNKNOWN';
  } catch (error) {
    if (!(error instanceof GatewayReadError)) throw error;
    return (await findRecord(deps.db, 'id', recordId))?.status ?? 'UNKNOWN';
  }
}

/** The wizard's name for each method it offers (its address, src/machines/subscribe/subscribe.address.ts; the server shares only the contract and lib). */
const WIZARD_METHOD: Partial<Record<PaymentMethod, 'card' | 'maya' | 'checkout'>> = { MAYA_VAULT: 'card', MAYA_WALLET: 'maya', MAYA_CHECKOUT: 'checkout' };

/**
 * The app's result page for a settled record. A failed one names the plan and method tried, so the
 * page's "Try again" reopens the wizard on that plan (what is named comes from our record, never
 * from the address Maya sent the browser back to).
 */
export async function resultAddress(deps: Pick<SettleDeps, 'db'>, publicBaseUrl: string, recordId: string | null, status: string): Promise<string> {
  const result = resultStatus(status);
  const params = new URLSearchParams({ status: result });
  if (result === 'failed' && recordId) {
    const tried = await deps.db.query<{ slug: string; payment_method: PaymentMethod }>(
      `SELECT p.slug, r.payment_method FROM payment_records r JOIN plans p ON p.id = r.plan_id WHERE r.id = $1`,
      [recordId],
    );
    const row = tried.rows[0];
    const method = row ? WIZARD_METHOD[row.payment_method] : undefined;
    if (row) params.set('plan', row.slug);
    if (method) params.set('payment-method', method);
  }
  return `${publicBaseUrl}/payment?${params.toString()}`;
}

/** Where the browser lands after a return: the app's payment result page. */
export function resultStatus(status: string): 'success' | 'failed' | 'canceled' {
  if (status === 'PAYMENT_SUCCESS') return 'success';
  if (status === 'PAYMENT_CANCELLED') return 'canceled';
  return 'failed';
}
