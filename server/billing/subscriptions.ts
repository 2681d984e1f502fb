/**
 * Subscriptions: the current status, history, cancel and resubscribe.
 *
 * Expiry is computed when read: a subscription that is ACTIVE, CANCELED or PAST_DUE and whose end
 * date is at or before the server clock (server/platform/clock.ts) reads as EXPIRED, and the viewer
 * falls back to FREE; a card or wallet subscription that renews keeps access while its renewal is
 * charged and retried (renewals.ts). Moving the clock back makes it current again, which is what QA
 * wants from a clock they can move.
 */
import type {
  BillingCycle,
  PaymentMethod,
  SubscriptionHistoryItem,
  SubscriptionStatusDetails,
} from '../../src/api/schemas';
import { cardExpiry, cardTypeLabel, maskedCardNumber } from '../../src/lib/card';
import { DISPLAY_TIME_ZONE, MANILA_OFFSET_MS } from '../../src/lib/product';
import type { Language } from '../platform/language';
import { formatDateTime } from '../../src/lib/dates';
import { clockSql, DAY_MS, now, rememberedClock, unsetClock, type Queryable } from '../platform/clock';
import type { Db } from '../platform/db';
import { NO_CONSENT, nextPeriodPrice, recordRenewalConsent, renews, type ConsentRequest } from './consent';
import { HttpError } from '../platform/http';
import { sessionGuardSql } from '../identity/tokens';
import { isoSql, jsonList, jsonRows, type JsonList } from '../platform/jsonList';
import { FREE_PLAN_ID } from './catalog';
import { PLAN_SELECT, rememberedPlans, type PlanRow, type ShownPlan } from './plans';

export const SUBSCRIPTION_MESSAGES = {
  notFound: 'Subscription not found',
  planNotFound: 'Plan not found',
  canceled: (end: string) => `Your subscription has been canceled. You keep Premium access until ${end}. Fees already paid are not refunded.`,
  alreadyCanceled: 'This subscription is already canceled.',
  cancelNotActive: 'Only an active subscription can be canceled.',
  ended: 'This subscription has already ended.',
  reactivated: (end: string) => `Your subscription is active again. Your next billing date is ${end}.`,
  reactivatedVoucher: (end: string) => `Your voucher subscription is active again until ${end}.`,
  /** A checkout subscription has no next billing date: it is renewed by hand (product.md#checkout-renewal). */
  reactivatedCheckout: (end: string) => `Your subscription is active again until ${end}. Maya Checkout does not renew by itself: press Renew now from 3 days before.`,
  alreadyActive: 'This subscription is already active.',
  resubscribeNotCanceled: 'Only a canceled subscription can be reactivated.',
  resubscribeEnded: (end: string) =>
    `This subscription ended on ${end} and can no longer be reactivated. Please subscribe again.`,
} as const;

/** Statuses that give access until the end date; anything else (EXPIRED, PENDING, ...) does not. */
export const LIVE_STATUSES = ['ACTIVE', 'CANCELED', 'PAST_DUE'] as const;
const LIVE_SQL = `(${LIVE_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/**
 * How long a card or wallet subscription keeps access past its end date while its renewal is being
 * charged and retried (PAST_DUE: again 1, 3, 5 and 7 days after the end date; renewals.ts). The
 * engine ends it explicitly after the last failed attempt; this bound only keeps reads honest if it
 * has not run.
 */
export const RENEWAL_GRACE_DAYS = 8;

/** SQL: the instant the subscription (alias `s`) stops giving access. */
const accessEndSql = `CASE WHEN s.status = 'PAST_DUE'
    OR (s.status = 'ACTIVE' AND s.auto_renew AND s.payment_method IN ('MAYA_VAULT', 'MAYA_WALLET'))
  THEN s.end_date + interval '${RENEWAL_GRACE_DAYS} days' ELSE s.end_date END`;

/** SQL: the status as read at the instant in parameter `at` (e.g. '$1'), for table alias `s`. */
export const effectiveStatusSql = (at: string) =>
  `CASE WHEN s.status IN ${LIVE_SQL} AND s.end_date IS NOT NULL AND ${accessEndSql} <= ${at} THEN 'EXPIRED' ELSE s.status END`;

/**
 * SQL: the status the history shows at `at` (product.md#renew-early): the effective status, except that a
 * period renewed early (Renew now paid before its end: startNextPeriod marks it EXPIRED with its end
 * date kept and no reason) reads ACTIVE until that end, and the paid period after it reads UPCOMING
 * until it starts. Every other close (plan change, voucher, purchase) moves the end date to the close.
 */
export const historyStatusSql = (at: string) =>
  `CASE WHEN s.status = 'EXPIRED' AND s.canceled_reason IS NULL AND s.end_date IS NOT NULL AND s.start_date <= ${at} AND s.end_date > ${at} THEN 'ACTIVE'
    WHEN s.status IN ${LIVE_SQL} AND s.start_date > ${at} THEN 'UPCOMING'
    ELSE ${effectiveStatusSql(at)} END`;

/** SQL: the subscription (alias `s`) gives access at the instant in parameter `at`. */
export const isCurrentSql = (at: string) => `(s.status IN ${LIVE_SQL} AND (s.end_date IS NULL OR ${accessEndSql} > ${at}))`;

/** Newest first; rows written at one fixed instant keep their write order. */
export const NEWEST_FIRST = 's.start_date DESC, s.seq DESC';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/* ----------------------------------------------------------------- subscriptions */

export interface SubscriptionRow {
  id: string;
  user_id: string;
  plan_id: number;
  status: string;
  effective_status: string;
  start_date: Date;
  end_date: Date | null;
  payment_method: PaymentMethod | null;
  payment_details: Record<string, unknown> | null;
  auto_renew: boolean;
  canceled_date: Date | null;
  canceled_reason: string | null;
  previous_plan_id: number | null;
  created_at: Date;
  updated_at: Date;
  plan_name: string;
  plan_type: 'FREE' | 'PREMIUM' | 'VOUCHER';
  plan_price: string;
  plan_currency: string;
  plan_duration: number;
  plan_billing_cycle: BillingCycle;
  voucher_code: string | null;
  voucher_days: number | null;
  voucher_amount: string | null;
  terms_cycle: string | null;
  terms_price: string | null;
  terms_duration: number | null;
  card_type: string | null;
  card_last4: string | null;
  next_attempt_at: Date | null;
  renewal_failure: string | null;
  /** Canceled while its period was unpaid: the end date it had (cancelSubscription). */
  past_due_end: Date | null;
  /** A move down scheduled for the end of the paid period (planChange.ts, product.md#scheduled-downgrade): its plan. */
  scheduled_plan_id: number | null;
  scheduled_plan_name: string | null;
  scheduled_plan_price: string | null;
}

/**
 * The subscription's plan (joined), and the card and voucher it shows: copied onto the row when it is
 * written (migration 010, issue 21), so a read joins one table, not four.
 */
const OWN_SHOWN_COLUMNS = `
         s.payment_details->>'voucherCode' AS voucher_code, s.voucher_days, s.voucher_amount::text AS voucher_amount,
         s.terms_cycle, s.terms_price::text AS terms_price, s.terms_duration, s.card_type, s.card_last4`;
/** The plan a scheduled move down goes to: looked up only for a row that names one. */
const SCHEDULED_COLUMNS = `
         s.scheduled_plan_id, (SELECT sp.name FROM plans sp WHERE sp.id = s.scheduled_plan_id) AS scheduled_plan_name,
         (SELECT sp.price::text FROM plans sp WHERE sp.id = s.scheduled_plan_id) AS scheduled_plan_price`;
const SHOWN_COLUMNS = `
         p.name AS plan_name, p.type AS plan_type, p.price::text AS plan_price, p.currency AS plan_currency,
         p.duration AS plan_duration, p.billing_cycle AS plan_billing_cycle,${OWN_SHOWN_COLUMNS}`;
type PlanColumns = Pick<SubscriptionRow, 'plan_name' | 'plan_type' | 'plan_price' | 'plan_currency' | 'plan_duration' | 'plan_billing_cycle'>;

/**
 * PGlite's reads (issue 21): `rows` with the columns of their plan (`plan_id`), as the join gives them,
 * from the remembered plans (rememberedPlans). Null when a row's plan is not among them: a plan made
 * between the read and the plans' (nothing makes one at run time), or removed since the read. The caller
 * then reads again with the join, so that an answer is always one snapshot's.
 */
function withPlans<T extends { plan_id: number }>(rows: T[], plans: ReadonlyMap<number, ShownPlan>): Array<T & PlanColumns> | null {
  const joined: Array<T & PlanColumns> = [];
  for (const row of rows) {
    const plan = plans.get(row.plan_id);
    if (!plan) return null;
    joined.push(Object.assign(row, {
      plan_name: plan.name, plan_type: plan.type, plan_price: plan.price, plan_currency: plan.currency,
      plan_duration: plan.duration, plan_billing_cycle: plan.billing_cycle,
    }));
  }
  return joined;
}
/** Subscriptions with their plan, voucher terms and card; `$1` is the instant they are read at. */
const subscriptionColumns = (at: string) => `
         s.id, s.user_id, s.plan_id, s.status, ${effectiveStatusSql(at)} AS effective_status, s.start_date, s.end_date,
         s.payment_method, s.payment_details, s.auto_renew, s.canceled_date, s.canceled_reason, s.previous_plan_id,
         s.created_at, s.updated_at, s.next_attempt_at, s.renewal_failure, s.past_due_end,${SCHEDULED_COLUMNS},${SHOWN_COLUMNS}`;
const SUBSCRIPTION_JOINS = `
  JOIN plans p ON p.id = s.plan_id`;
const SUBSCRIPTION_SELECT = `SELECT ${subscriptionColumns('$1')} FROM subscriptions s ${SUBSCRIPTION_JOINS}`;

/** The status read's columns only (issue 21): none of the row's bookkeeping, the voucher's code but not the rest of the details. */
type StatusRow = Omit<SubscriptionRow, 'user_id' | 'status' | 'payment_details' | 'auto_renew' | 'canceled_date' | 'canceled_reason' | 'previous_plan_id' | 'created_at' | 'updated_at'>;
/**
 * Where a read takes the billing clock's instant from (issue 21): given as `$1` where the clock is
 * remembered (rememberedClock), or read inside the statement, `$1` being `unsetClock()` (one round trip
 * per read instead of two). `from` puts the instant in scope as `at`; read once (OFFSET 0 keeps the
 * planner from copying the clock's sub-select into every use of it).
 */
interface ClockSource {
  from: string;
  at: string;
}
const CLOCK_GIVEN: ClockSource = { from: '', at: '$1::timestamptz' };
const CLOCK_IN_STATEMENT: ClockSource = { from: `(SELECT ${clockSql('$1')} AS at OFFSET 0) AS clock CROSS JOIN`, at: 'clock.at' };

/**
 * The status read's rows, with the instant they are read at (`read_at`). Only a subscription current
 * then is read (CURRENT_OF), and a current one has not expired: its status is its effective status.
 */
const clockedSelect = (clock: ClockSource, plans: 'joined' | 'not joined') => `SELECT
         s.id, s.plan_id, s.status AS effective_status, s.start_date, s.end_date,
         s.payment_method, s.next_attempt_at, s.renewal_failure,${SCHEDULED_COLUMNS},${plans === 'joined' ? SHOWN_COLUMNS : OWN_SHOWN_COLUMNS}, ${clock.at} AS read_at
  FROM ${clock.from} subscriptions s ${plans === 'joined' ? SUBSCRIPTION_JOINS : ''}`;

/** A viewer's read, with the session checked in its statement (`guarded`) or not, by how it reads the clock. */
interface ClockedRead {
  plain: string;
  guarded: string;
}
type ClockedReads = Record<'given' | 'inStatement', ClockedRead>;

/** A viewer's read's four statements from `sql(clock, guard)`, `guard` being empty or the session (`$3`) check, with its AND. */
const clockedReads = (sql: (clock: ClockSource, guard: string) => string): ClockedReads => {
  const read = (clock: ClockSource) => ({ plain: sql(clock, ''), guarded: sql(clock, ` AND ${sessionGuardSql('$3', '$2')}`) });
  return { given: read(CLOCK_GIVEN), inStatement: read(CLOCK_IN_STATEMENT) };
};

/**
 * The statement and parameters of a viewer's read (`$2`) at the billing clock's instant (`$1`),
 * remembered or read in the statement, with the session (`$3`) checked in it when `uncheckedSession`.
 */
async function clockedRead(db: Db, reads: ClockedReads, userId: string, uncheckedSession: string | null): Promise<[string, unknown[]]> {
  const at = await rememberedClock(db);
  const read = at ? reads.given : reads.inStatement;
  const params = [at ?? unsetClock(), userId];
  return uncheckedSession === null ? [read.plain, params] : [read.guarded, [...params, uncheckedSession]];
}

/** SQL: the viewer's (`$2`) subscription that gives access at `at`, newest first; `guard`: a further condition, with its AND. */
const CURRENT_OF = (at: string, guard = '') => `WHERE s.user_id = $2 AND ${isCurrentSql(at)}${guard} ORDER BY ${NEWEST_FIRST} LIMIT 1`;

/** The subscription that gives the viewer access at `at`, or null (FREE). */
export async function currentSubscription(q: Queryable, userId: string, at: Date): Promise<SubscriptionRow | null> {
  const result = await q.query<SubscriptionRow>(
    `${SUBSCRIPTION_SELECT} ${CURRENT_OF('$1')}`,
    [at, userId],
  );
  return result.rows[0] ?? null;
}

async function ownSubscription(q: Queryable, userId: string, subscriptionId: string, at: Date): Promise<SubscriptionRow> {
  if (!UUID.test(subscriptionId)) throw new HttpError(404, SUBSCRIPTION_MESSAGES.notFound);
  // Someone else's id answers exactly like an unknown one.
  const result = await q.query<SubscriptionRow>(`${SUBSCRIPTION_SELECT} WHERE s.id = $2 AND s.user_id = $3`, [at, subscriptionId, userId]);
  const row = result.rows[0];
  if (!row) throw new HttpError(404, SUBSCRIPTION_MESSAGES.notFound);
  return row;
}


function paymentMethodDetails(row: StatusRow): SubscriptionStatusDetails['paymentMethodDetails'] {
  switch (row.payment_method) {
    case 'MAYA_VAULT':
      return row.card_last4
        ? { description: row.card_type ? cardTypeLabel(row.card_type) : 'Card', maskedCardNumber: maskedCardNumber(row.card_last4) }
        : { description: 'Card' };
    case 'MAYA_WALLET':
      return { description: 'Maya Wallet' };
    case 'MAYA_CHECKOUT':
      return { description: 'Maya Checkout' };
    case 'VOUCHER':
      return { description: 'Voucher', voucherCode: voucherCodeOf(row) };
    default:
      return null;
  }
}

const voucherCodeOf = (row: Pick<SubscriptionRow, 'voucher_code'>) => row.voucher_code ?? '';

/** A VOUCHER plan gives PREMIUM access; the contract knows only FREE and PREMIUM. */
const accessType = (type: SubscriptionRow['plan_type']) => (type === 'FREE' ? ('FREE' as const) : ('PREMIUM' as const));

export function originalVoucherTerms(row: Pick<SubscriptionRow, 'terms_cycle' | 'terms_price' | 'terms_duration'>) {
  return row.terms_cycle && row.terms_price && row.terms_duration !== null
    ? { cycle: row.terms_cycle, price: row.terms_price, duration: String(row.terms_duration) }
    : undefined;
}

/** Days after the end date a PAST_DUE subscription keeps access while its renewal is retried (renewals.ts RETRY_DAYS). */
export const LAST_RETRY_DAY = 7;
/** Days after the end date on which a failed renewal is tried again; after the last, the subscription ends. */
export const RETRY_DAYS = [1, 3, 5, LAST_RETRY_DAY] as const;
/** Attempts on one overdue period within one Manila day beyond which a viewer's action no longer charges at once. */
export const IMMEDIATE_ATTEMPTS_A_DAY = 3;

/**
 * When an overdue period is tried next after the viewer acted (a new card or wallet, the same one saved
 * again, a reactivation): now, unless the period has had IMMEDIATE_ATTEMPTS_A_DAY attempts today
 * (Asia/Manila), then at its next scheduled retry day (null: none left).
 */
export async function immediateAttemptAt(q: Queryable, subscriptionId: string, periodEnd: Date, at: Date): Promise<Date | null> {
  const dayStart = new Date(Math.floor((at.getTime() + MANILA_OFFSET_MS) / DAY_MS) * DAY_MS - MANILA_OFFSET_MS);
  const tried = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM gateway_attempts a JOIN payment_records r ON r.id = a.record_id
     WHERE r.gateway_response->'details'->>'renewsSubscriptionId' = $1 AND r.gateway_response->'details'->>'periodStart' = $2
       AND a.kind IN ('CARD', 'WALLET') AND a.outcome <> 'NOT_MADE' AND a.created_at >= $3`,
    [subscriptionId, periodEnd.toISOString(), dayStart],
  );
  if ((tried.rows[0]?.n ?? 0) < IMMEDIATE_ATTEMPTS_A_DAY) return at;
  const day = RETRY_DAYS.find((days) => periodEnd.getTime() + days * DAY_MS > at.getTime());
  return day === undefined ? null : new Date(periodEnd.getTime() + day * DAY_MS);
}
/** From how long before the end date a checkout subscription is reminded to renew (product.md#checkout-renewal). */
export const REMINDER_DAYS = 3;

/** What the viewer must know about paying the next period at `at`, if anything. */
function renewalOf(row: StatusRow, at: Date): SubscriptionStatusDetails['renewal'] {
  if (!row.end_date) return undefined;
  if (row.effective_status === 'PAST_DUE') {
    return {
      state: 'PAST_DUE',
      failure: row.renewal_failure ?? 'Your payment was declined',
      nextAttemptDate: row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
      accessEndDate: new Date(row.end_date.getTime() + LAST_RETRY_DAY * DAY_MS).toISOString(),
    };
  }
  const reminderFrom = row.end_date.getTime() - REMINDER_DAYS * DAY_MS;
  if (row.effective_status === 'ACTIVE' && row.payment_method === 'MAYA_CHECKOUT' && reminderFrom <= at.getTime() && at < row.end_date) {
    return { state: 'DUE', dueDate: row.end_date.toISOString() };
  }
  return undefined;
}

export function toStatusDetails(row: StatusRow, at: Date): SubscriptionStatusDetails {
  const details: SubscriptionStatusDetails = {
    planId: row.plan_id,
    planName: row.plan_name,
    planType: accessType(row.plan_type),
    status: row.effective_status,
    startDate: row.start_date.toISOString(),
    endDate: row.end_date ? row.end_date.toISOString() : null,
    planCurrency: row.plan_currency,
    planAmount: row.plan_price,
    planDuration: String(row.plan_duration),
    planBillingCycle: row.plan_billing_cycle,
    subscriptionId: row.id,
    paymentMethod: row.payment_method,
    paymentMethodDetails: paymentMethodDetails(row),
  };
  const renewal = renewalOf(row, at);
  if (renewal) details.renewal = renewal;
  // A move down waiting for the end of the paid period (product.md#scheduled-downgrade): undoable until then.
  if (row.scheduled_plan_id !== null && row.effective_status === 'ACTIVE' && row.end_date && row.end_date > at) {
    details.scheduledChange = {
      planName: row.scheduled_plan_name ?? '',
      planAmount: row.scheduled_plan_price ?? '',
      date: row.end_date.toISOString(),
    };
  }
  if (row.payment_method !== 'VOUCHER') return details;
  const terms = originalVoucherTerms(row);
  return {
    ...details,
    isVoucherSubscription: true,
    voucherCode: voucherCodeOf(row),
    ...(row.voucher_amount !== null ? { voucherAmount: row.voucher_amount } : {}),
    ...(row.voucher_days !== null ? { subscriptionDays: row.voucher_days } : {}),
    ...(terms ? { originalVoucherTerms: terms } : {}),
  };
}

const STATUS_READS = clockedReads((clock, guard) => `${clockedSelect(clock, 'joined')} ${CURRENT_OF(clock.at, guard)}`);
/** PGlite's: the plan's columns come from the remembered plans. */
const STATUS_OWN_READS = clockedReads((clock, guard) => `${clockedSelect(clock, 'not joined')} ${CURRENT_OF(clock.at, guard)}`);
const STATUS_INSTANTS = ['start_date', 'end_date', 'next_attempt_at', 'read_at'] as const;

/**
 * product.md#renew-early: the current subscription starts later (its period was paid early with Renew
 * now, startNextPeriod): the answer's period is the one running now (its start), paid through the
 * current one's end, and `nextPeriodStart` says when the paid one begins. One more read, only then.
 */
async function paidAhead(q: Queryable, userId: string, details: SubscriptionStatusDetails, nextStart: Date, at: Date): Promise<SubscriptionStatusDetails> {
  const running = (await q.query<{ start_date: Date }>(
    `SELECT start_date FROM subscriptions WHERE user_id = $1 AND end_date = $2 AND start_date <= $3 ORDER BY start_date DESC, seq DESC LIMIT 1`,
    [userId, nextStart, at],
  )).rows[0];
  return { ...details, startDate: (running?.start_date ?? nextStart).toISOString(), nextPeriodStart: nextStart.toISOString() };
}

/**
 * product.md#ended-unpaid: the viewer's newest subscription ended because its renewal was never paid
 * (the engine ended it, or its grace ran out before the engine did): when Premium ended. Null otherwise.
 */
async function endedUnpaid(q: Queryable, userId: string, at: Date): Promise<{ reason: 'PAYMENT_FAILED'; date: string } | null> {
  const newest = (await q.query<{ status: string; canceled_reason: string | null; canceled_date: Date | null; end_date: Date | null }>(
    `SELECT status, canceled_reason, canceled_date, end_date FROM subscriptions WHERE user_id = $1 AND start_date <= $2 ORDER BY start_date DESC, seq DESC LIMIT 1`,
    [userId, at],
  )).rows[0];
  if (!newest?.end_date) return null;
  if (newest.status === 'EXPIRED' && newest.canceled_reason?.startsWith('Renewal failed:')) {
    return { reason: 'PAYMENT_FAILED', date: (newest.canceled_date ?? newest.end_date).toISOString() };
  }
  const graceEnd = newest.end_date.getTime() + RENEWAL_GRACE_DAYS * DAY_MS;
  if (newest.status === 'PAST_DUE' && graceEnd <= at.getTime()) return { reason: 'PAYMENT_FAILED', date: new Date(graceEnd).toISOString() };
  return null;
}

/** How long before the billing date a card that expires first is said (product.md#card-expiry; renewals.ts mails it then). */
const CARD_EXPIRY_BANNER_DAYS = 30;

/** A card subscription that renews within 30 days: its card's expiry is worth one more read. */
const expiringCardNear = (row: StatusRow, at: Date) =>
  row.payment_method === 'MAYA_VAULT' && row.effective_status === 'ACTIVE' && row.end_date !== null && row.end_date > at
  && row.end_date.getTime() - CARD_EXPIRY_BANNER_DAYS * DAY_MS <= at.getTime();

/**
 * product.md#card-expiry: the saved card the subscription renews on expires before its next billing
 * date: the status says which card, its expiry and the date, for the banner with 'Update card'.
 */
async function withExpiringCard(q: Queryable, userId: string, details: SubscriptionStatusDetails): Promise<SubscriptionStatusDetails> {
  const card = (await q.query<{ card_type: string; last4: string; exp_month: number; exp_year: number; end_date: Date }>(
    `SELECT c.card_type, c.last4, c.exp_month, c.exp_year, s.end_date FROM subscriptions s
     JOIN saved_cards c ON c.card_token_id = s.payment_details->>'cardTokenId' AND c.user_id = s.user_id
     WHERE s.id = $1 AND s.user_id = $2 AND s.auto_renew AND c.expires_at IS NOT NULL AND c.expires_at <= s.end_date`,
    [details.subscriptionId, userId],
  )).rows[0];
  if (!card) return details;
  return {
    ...details,
    cardExpiresBeforeRenewal: { cardType: cardTypeLabel(card.card_type), last4: card.last4, expiry: cardExpiry(card.exp_month, card.exp_year), billingDate: card.end_date.toISOString() },
  };
}

/**
 * product.md#subscription-status; FREE (plan 3, no subscription id, no method) when nothing is current.
 * With `uncheckedSession`, the session is checked in the same statement (issue 21), and null is the
 * answer when nothing current was found under it.
 */
export async function subscriptionStatus(db: Db, userId: string, uncheckedSession: string | null = null): Promise<SubscriptionStatusDetails | null> {
  // On PostgreSQL its one row is read as one JSON text (jsonRows): 23 columns through node-postgres cost more.
  let current: (StatusRow & { read_at: Date }) | undefined;
  const own = db.kind === 'pglite'
    ? withPlans((await db.query<Omit<StatusRow, keyof PlanColumns> & { read_at: Date }>(...(await clockedRead(db, STATUS_OWN_READS, userId, uncheckedSession)))).rows, await rememberedPlans(db))
    : null;
  if (own) [current] = own;
  else [current] = await jsonRows<StatusRow & { read_at: Date }>(db, ...(await clockedRead(db, STATUS_READS, userId, uncheckedSession)), STATUS_INSTANTS);
  if (current) {
    let details = toStatusDetails(current, current.read_at);
    if (current.start_date > current.read_at) details = await paidAhead(db, userId, details, current.start_date, current.read_at);
    return expiringCardNear(current, current.read_at) ? await withExpiringCard(db, userId, details) : details;
  }
  if (uncheckedSession !== null) return null;
  const at = await now(db);
  const plan = (await db.query<PlanRow>(`${PLAN_SELECT} WHERE id = $1`, [FREE_PLAN_ID])).rows[0];
  const user = (await db.query<{ created_at: Date }>('SELECT created_at FROM users WHERE id = $1', [userId])).rows[0];
  const ended = await endedUnpaid(db, userId, at);
  return {
    ...(ended ? { premiumEnded: ended } : {}),
    planId: FREE_PLAN_ID,
    planName: plan?.name ?? 'Free',
    planType: 'FREE',
    status: 'ACTIVE',
    // As on user.subscription: a FREE viewer has been FREE since the account was made.
    startDate: (user?.created_at ?? at).toISOString(),
    endDate: null,
    planCurrency: plan?.currency ?? 'PHP',
    planAmount: plan?.price ?? '0.00',
    planDuration: String(plan?.duration ?? 1),
    planBillingCycle: plan?.billing_cycle ?? 'month',
    subscriptionId: null,
    paymentMethod: null,
    paymentMethodDetails: null,
  };
}

/**
 * The history as the answer's JSON (server/platform/jsonList.ts), each subscription named and ordered
 * as `SubscriptionHistoryItem`: a VOUCHER plan shows as PREMIUM, a voucher's period at 0.00 (it cost nothing),
 * and a period that has ended renews nothing any more, whatever it did while it ran. PostgreSQL's path.
 */
const historyAnswer = (clock: ClockSource, guard: string) => {
  const status = historyStatusSql(clock.at);
  return `SELECT s.id, p.name AS plan, CASE WHEN p.type = 'FREE' THEN 'FREE' ELSE 'PREMIUM' END AS "planType",
         p.currency, CASE WHEN s.payment_method = 'VOUCHER' THEN '0.00' ELSE p.price::text END AS price,
         ${status} AS status, ${isoSql('s.start_date', 'startDate')}, ${isoSql('s.end_date', 'endDate')},
         s.auto_renew AND ${status} <> 'EXPIRED' AS "autoRenew"
  FROM ${clock.from} subscriptions s
  JOIN plans p ON p.id = s.plan_id
  WHERE s.user_id = $2${guard}
  ORDER BY ${NEWEST_FIRST}`;
};
const HISTORY_READS = clockedReads(historyAnswer);
/** The history's answer at the instant `$1`, for the viewer `$2` (PostgreSQL's path; for the tests). */
export const HISTORY_ANSWER = HISTORY_READS.given.plain;

/**
 * PGlite's path: the history's columns, mapped by `toHistoryItem`, each plan's from the remembered plans
 * (withPlans). The answer's CASEs (the effective status twice, for `autoRenew`) cost PGlite's
 * WebAssembly more than this mapping costs here (test/server/platform/json-list.test.ts holds the two
 * paths to the same answer).
 */
type HistoryRow = Pick<SubscriptionRow, 'id' | 'plan_name' | 'plan_type' | 'plan_currency' | 'plan_price' | 'payment_method' | 'voucher_amount' | 'effective_status' | 'start_date' | 'end_date' | 'auto_renew'>;
type HistoryOwnRow = Omit<HistoryRow, keyof PlanColumns> & Pick<SubscriptionRow, 'plan_id'>;
const HISTORY_ROWS_READS = clockedReads((clock, guard) => `SELECT s.id, s.plan_id, s.payment_method, s.voucher_amount::text AS voucher_amount,
         ${historyStatusSql(clock.at)} AS effective_status, s.start_date, s.end_date, s.auto_renew
  FROM ${clock.from} subscriptions s
  WHERE s.user_id = $2${guard}
  ORDER BY ${NEWEST_FIRST}`);

export function toHistoryItem(row: HistoryRow): SubscriptionHistoryItem {
  return {
    id: row.id,
    plan: row.plan_name,
    planType: accessType(row.plan_type),
    currency: row.plan_currency,
    // A voucher's period cost the viewer nothing (product.md#voucher-price): its face value is not a price paid.
    price: row.payment_method === 'VOUCHER' ? '0.00' : row.plan_price,
    status: row.effective_status,
    startDate: row.start_date.toISOString(),
    endDate: row.end_date ? row.end_date.toISOString() : null,
    // A period that has ended renews nothing any more, whatever it did while it ran.
    autoRenew: row.auto_renew && row.effective_status !== 'EXPIRED',
  };
}

/**
 * Every subscription of the viewer, newest first, ended ones as EXPIRED, as JSON text. With
 * `uncheckedSession`, the session is checked in the same statement (issue 21), and null is the
 * answer when none was found.
 */
export async function subscriptionHistory(db: Db, userId: string, uncheckedSession: string | null = null): Promise<JsonList | null> {
  let history: JsonList | undefined;
  if (db.kind === 'pglite') {
    const [sql, params] = await clockedRead(db, HISTORY_ROWS_READS, userId, uncheckedSession);
    const rows = withPlans((await db.query<HistoryOwnRow>(sql, params)).rows, await rememberedPlans(db));
    if (rows) history = { json: JSON.stringify(rows.map(toHistoryItem)), count: rows.length, flagged: false };
  }
  history ??= await jsonList(db, ...(await clockedRead(db, HISTORY_READS, userId, uncheckedSession)));
  return history.count === 0 && uncheckedSession !== null ? null : history;
}

/** A date in a toast as the page writes it in the reader's language (product.md#server-dates). */
const shownDate = (date: Date | null, language: Language) => (date ? formatDateTime(date, DISPLAY_TIME_ZONE, language) : '');

/**
 * Cancel at period end: CANCELED, auto-renew off, end date kept, canceled date set. A subscription
 * whose period is unpaid (PAST_DUE, or a renewal due and not yet charged) can be canceled too
 * (product.md#dunning): no more attempts, and access to the end of the grace (its end date moves
 * there; the one it had is kept in past_due_end, so reactivating makes it PAST_DUE again). A renewal
 * already on its way when it is canceled is given back if it succeeds (settlement.ts). One guarded
 * UPDATE inside the transaction, so a second cancel sent at the same moment finds nothing to change.
 */
export async function cancelSubscription(db: Db, userId: string, subscriptionId: string, language: Language = 'en'): Promise<string> {
  return db.transaction((tx) => cancelSubscriptionIn(tx, userId, subscriptionId, language));
}

/**
 * The cancel at the end of the period, in the caller's transaction (the back office writes its audit
 * entry beside it, server/ops/actions.ts); `reason` is what the subscription keeps.
 */
export async function cancelSubscriptionIn(tx: Queryable, userId: string, subscriptionId: string, language: Language = 'en', reason = 'Canceled by the subscriber'): Promise<string> {
  {
    const at = await now(tx);
    const row = await ownSubscription(tx, userId, subscriptionId, at);
    const unpaid = `(s.status = 'PAST_DUE' OR (s.status = 'ACTIVE' AND s.auto_renew AND s.payment_method IN ('MAYA_VAULT', 'MAYA_WALLET') AND s.end_date <= $1))`;
    const updated = await tx.query<{ end_date: Date | null }>(
      `UPDATE subscriptions s SET status = 'CANCELED', auto_renew = false, canceled_date = $1, canceled_reason = $4, updated_at = $1,
         next_attempt_at = NULL, scheduled_plan_id = NULL,
         past_due_end = CASE WHEN ${unpaid} THEN s.end_date END,
         end_date = CASE WHEN NOT ${unpaid} THEN s.end_date
           WHEN s.end_date + interval '${LAST_RETRY_DAY} days' > $1 THEN s.end_date + interval '${LAST_RETRY_DAY} days'
           ELSE s.end_date + interval '${RENEWAL_GRACE_DAYS} days' END
       WHERE s.id = $2 AND s.user_id = $3
         AND ((s.status = 'ACTIVE' AND (s.end_date IS NULL OR s.end_date > $1)) OR (${unpaid} AND s.end_date + interval '${RENEWAL_GRACE_DAYS} days' > $1))
       RETURNING s.end_date`,
      [at, subscriptionId, userId, reason],
    );
    const done = updated.rows[0];
    if (done) return SUBSCRIPTION_MESSAGES.canceled(shownDate(done.end_date, language));
    if (row.effective_status === 'EXPIRED') throw new HttpError(409, SUBSCRIPTION_MESSAGES.ended);
    if (row.status === 'CANCELED') throw new HttpError(409, SUBSCRIPTION_MESSAGES.alreadyCanceled);
    throw new HttpError(409, SUBSCRIPTION_MESSAGES.cancelNotActive);
  }
}

/**
 * Reactivate: only a CANCELED subscription, only before its end date; ACTIVE again, auto-renew on
 * (a checkout or voucher one does not renew by itself). One canceled while its period was unpaid is
 * PAST_DUE again at the end date it had, and tried again at once (capped: renewals' immediate attempts).
 */
export async function resubscribe(db: Db, userId: string, subscriptionId: string, language: Language = 'en', consent: ConsentRequest = NO_CONSENT): Promise<string> {
  return db.transaction(async (tx) => {
    const at = await now(tx);
    const row = await ownSubscription(tx, userId, subscriptionId, at);
    // A card or wallet one renews again: agreed to first (product.md#renewal-consent). Recorded before the
    // update; a refusal below rolls it back with the rest.
    if (renews(row.payment_method) && row.status === 'CANCELED' && row.end_date && row.end_date > at) {
      const price = await nextPeriodPrice(tx, row.id);
      await recordRenewalConsent(tx, consent, {
        userId, action: 'REACTIVATE', paymentMethod: row.payment_method, subscriptionId: row.id, at,
        terms: { renewsOn: row.past_due_end ? at : row.end_date, amount: price.amount, currency: price.currency },
      });
    }
    const updated = await tx.query<{ end_date: Date | null; payment_method: PaymentMethod | null; status: string }>(
      `UPDATE subscriptions s SET status = CASE WHEN s.past_due_end IS NULL THEN 'ACTIVE' ELSE 'PAST_DUE' END,
         auto_renew = s.payment_method IN ('MAYA_VAULT', 'MAYA_WALLET'),
         end_date = COALESCE(s.past_due_end, s.end_date), past_due_end = NULL,
         next_attempt_at = CASE WHEN s.past_due_end IS NOT NULL AND s.payment_method IN ('MAYA_VAULT', 'MAYA_WALLET') THEN $4::timestamptz END,
         canceled_date = NULL, canceled_reason = NULL, updated_at = $1
       WHERE s.id = $2 AND s.user_id = $3 AND s.status = 'CANCELED' AND (s.end_date IS NULL OR s.end_date > $1)
       RETURNING s.end_date, s.payment_method, s.status`,
      [at, subscriptionId, userId, row.past_due_end ? await immediateAttemptAt(tx, subscriptionId, row.past_due_end, at) : null],
    );
    const done = updated.rows[0];
    if (done) {
      // A voucher cannot renew itself, so it stays without auto-renew and says until when it runs.
      if (done.payment_method === 'VOUCHER') return SUBSCRIPTION_MESSAGES.reactivatedVoucher(shownDate(done.end_date, language));
      if (done.payment_method === 'MAYA_CHECKOUT' && done.status !== 'PAST_DUE') return SUBSCRIPTION_MESSAGES.reactivatedCheckout(shownDate(done.end_date, language));
      return SUBSCRIPTION_MESSAGES.reactivated(shownDate(done.status === 'PAST_DUE' ? at : done.end_date, language));
    }
    if (row.effective_status === 'EXPIRED') throw new HttpError(409, SUBSCRIPTION_MESSAGES.resubscribeEnded(shownDate(row.end_date, language)));
    if (row.status === 'ACTIVE') throw new HttpError(409, SUBSCRIPTION_MESSAGES.alreadyActive);
    throw new HttpError(409, SUBSCRIPTION_MESSAGES.resubscribeNotCanceled);
  });
}

/**
 * The viewer's current subscription for a plan or payment-method change: it must be the one named
 * (when named), paid (not FREE), and not a voucher one (`voucherMessage` says why not).
 */
export async function changeableSubscription(q: Queryable, userId: string, at: Date, subscriptionId: string | null, voucherMessage: string): Promise<SubscriptionRow> {
  const current = await currentSubscription(q, userId, at);
  // Someone else's id, an ended one and an unknown one answer alike.
  if (!current || current.plan_type === 'FREE' || (subscriptionId !== null && current.id !== subscriptionId)) {
    throw new HttpError(404, SUBSCRIPTION_MESSAGES.notFound);
  }
  if (current.payment_method === 'VOUCHER' || current.plan_type === 'VOUCHER') throw new HttpError(400, voucherMessage);
  return current;
}
