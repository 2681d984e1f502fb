/**
 * Voucher redemption. A voucher subscribes the viewer to its VOUCHER plan for its number of days.
 *
 * On top of a current subscription (paid, canceled-in-period, or another voucher) the days are added to
 * that subscription's end date: the current one is closed now (status EXPIRED, end date now,
 * auto-renew off, reason 'Replaced by voucher CODE') and the voucher subscription runs from now to
 * old end date + days. So nothing is charged again and no day already paid for is lost.
 */
import type { VoucherSubscription } from '../../src/api/schemas';
import { addDays, now } from '../platform/clock';
import type { Db } from '../platform/db';
import { contactOf } from '../identity/users';
import { beginAttempt, giveBack, type ThrottleRule } from '../identity/throttle';
import { HttpError } from '../platform/http';
import { closeLive } from './activation';
import { supersedeCheckouts } from './purchase';
import { currentSubscription, originalVoucherTerms } from './subscriptions';

/** The address a redemption was made with, as kept after an erasure (migration 020): SHA-256 of it in lower case. */
const EMAIL_HASH = "encode(sha256(convert_to(lower(email), 'UTF8')), 'hex')";

export const VOUCHER_MESSAGES = {
  redeemed: 'Voucher redeemed successfully',
  unknown: 'Invalid voucher code. Please check the code and try again.',
  inactive: 'This voucher code is no longer active.',
  expired: 'This voucher code has expired.',
  usedByYou: 'You have already redeemed this voucher code.',
  usedByOther: 'This voucher code has already been used.',
  tooMany: (seconds: number) => `Too many voucher attempts. Please try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`,
} as const;

interface VoucherRow {
  code: string;
  days: number;
  amount: string;
  reusable: boolean;
  active: boolean;
  valid_until: Date | null;
  plan_id: number | null;
  plan_name: string | null;
  plan_price: string | null;
  plan_currency: string | null;
  plan_duration: number | null;
  terms_cycle: string | null;
  terms_price: string | null;
  terms_duration: number | null;
  /** A campaign's (issue 35): the code or its batch disabled, its use limit, one code of the batch per account. */
  disabled: boolean;
  use_limit: number | null;
  batch_id: string | null;
  per_account: boolean | null;
}

/**
 * Voucher guessing is slowed like sign-in (identity/throttle.ts): per account and per client address,
 * a few free tries, then growing delays, answered 429 with Retry-After. A redemption that works gives
 * its try back.
 */
export const VOUCHER_THROTTLE = {
  account: { free: 5, maxDelaySeconds: 15 * 60 },
  client: { free: 20, maxDelaySeconds: 15 * 60 },
  windowSeconds: 60 * 60,
} as const;

export const voucherThrottleRules = (userId: string, client: string): ThrottleRule[] => [
  { key: `voucher:account:${userId}`, ...VOUCHER_THROTTLE.account },
  { key: `voucher:client:${client}`, ...VOUCHER_THROTTLE.client },
];

/** Redeems under the throttle: refused with 429 while the account or the client must wait. */
export async function redeemThrottled(db: Db, userId: string, client: string, code: string): Promise<VoucherSubscription> {
  const rules = voucherThrottleRules(userId, client);
  const wait = await beginAttempt(db, rules, VOUCHER_THROTTLE.windowSeconds);
  if (wait > 0) throw new HttpError(429, VOUCHER_MESSAGES.tooMany(wait), wait);
  const redeemed = await redeemVoucher(db, userId, code);
  await giveBack(db, rules.map((rule) => rule.key));
  return redeemed;
}

/** `code` is already trimmed and upper-cased by voucherRedeemRequestSchema. */
export async function redeemVoucher(db: Db, userId: string, code: string): Promise<VoucherSubscription> {
  return db.transaction(async (tx) => {
    const at = await now(tx);
    // FOR UPDATE: on a PostgreSQL server two redemptions of one code wait for each other (PGlite
    // runs one transaction at a time anyway).
    const found = await tx.query<VoucherRow>(
      `SELECT v.code, v.days, v.amount::text AS amount, v.reusable, v.active, v.valid_until, v.plan_id,
              p.name AS plan_name, p.price::text AS plan_price, p.currency AS plan_currency, p.duration AS plan_duration,
              tp.billing_cycle AS terms_cycle, tp.price::text AS terms_price, tp.duration AS terms_duration,
              (v.disabled_at IS NOT NULL OR b.disabled_at IS NOT NULL) AS disabled, v.use_limit, v.batch_id, b.per_account
       FROM vouchers v
       LEFT JOIN plans p ON p.id = v.plan_id AND p.type = 'VOUCHER'
       LEFT JOIN plans tp ON tp.id = v.terms_plan_id
       LEFT JOIN voucher_batches b ON b.id = v.batch_id
       WHERE v.code = $1
       FOR UPDATE OF v`,
      [code],
    );
    const voucher = found.rows[0];
    // A disabled code (or batch) answers as an unknown one (the back office's campaigns, issue 35).
    if (!voucher || voucher.disabled) throw new HttpError(400, VOUCHER_MESSAGES.unknown);
    if (!voucher.active || voucher.plan_id === null || voucher.plan_name === null) throw new HttpError(400, VOUCHER_MESSAGES.inactive);
    if (voucher.valid_until && voucher.valid_until <= at) throw new HttpError(400, VOUCHER_MESSAGES.expired);

    // Mine: redeemed by this account, or by an earlier account of the same address (deleted, then signed up again).
    const used = await tx.query<{ mine: boolean }>(
      `SELECT (user_id = $2 OR email_hash IS NOT DISTINCT FROM (SELECT ${EMAIL_HASH} FROM users WHERE id = $2)) AS mine
       FROM voucher_redemptions WHERE code = $1 ORDER BY mine DESC LIMIT 1`,
      [code, userId],
    );
    if (used.rows[0]?.mine) throw new HttpError(409, VOUCHER_MESSAGES.usedByYou);
    // Used up by someone else answers exactly like a code that does not exist: a guesser learns nothing.
    if (used.rows[0] && !voucher.reusable) throw new HttpError(400, VOUCHER_MESSAGES.unknown);
    // A campaign code's use limit: as many accounts as it allows (the row is locked: counted one at a time).
    if (voucher.use_limit !== null) {
      const count = (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM voucher_redemptions WHERE code = $1', [code])).rows[0]!.n;
      if (count >= voucher.use_limit) throw new HttpError(400, VOUCHER_MESSAGES.unknown);
    }

    // One live subscription: an open checkout is superseded; a payment on its way that succeeds then
    // pays for nothing and is given back.
    await supersedeCheckouts(tx, userId, false);
    // The viewer is locked as a payment's outcome locks them (settlement.ts): a renewal or purchase applied
    // at the same moment (PostgreSQL) is judged after this, or this after it, never both on the same rows.
    await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
    // One code of a campaign per account, when the batch says so (the viewer is locked: two codes at once are judged in turn).
    if (voucher.per_account && voucher.batch_id) {
      const other = await tx.query(
        `SELECT 1 FROM voucher_redemptions r JOIN vouchers v ON v.code = r.code
         WHERE (r.user_id = $1 OR r.email_hash = (SELECT ${EMAIL_HASH} FROM users WHERE id = $1)) AND v.batch_id = $2 LIMIT 1`,
        [userId, voucher.batch_id],
      );
      if (other.rows.length) throw new HttpError(409, VOUCHER_MESSAGES.usedByYou);
    }
    const current = await currentSubscription(tx, userId, at);
    const from = current?.end_date && current.end_date > at ? current.end_date : at;
    const endDate = addDays(from, voucher.days);
    let subscriptionId: string;
    const renewing =
      current && current.plan_type === 'PREMIUM' && (current.payment_method === 'MAYA_VAULT' || current.payment_method === 'MAYA_WALLET') &&
      (current.status === 'PAST_DUE' || (current.status === 'ACTIVE' && current.auto_renew));
    const extended = renewing
      ? (await tx.query(
          `UPDATE subscriptions SET status = 'ACTIVE', end_date = $2, next_attempt_at = NULL, renewal_failure = NULL, auto_renew = true, updated_at = $3
           WHERE id = $1 AND status IN ('ACTIVE', 'PAST_DUE') RETURNING id`,
          [current.id, endDate, at],
        )).rows.length > 0
      : false;
    if (extended) {
      // A renewing card or wallet plan (product.md#voucher-on-renewing): the voucher adds its days to the
      // time paid (from now when the period is due or overdue: no more attempts at it), and the plan
      // renews on its method after them.
      subscriptionId = current!.id;
    } else {
      // Anything else is replaced: every live row of the viewer is closed, never charged again.
      await closeLive(tx, userId, at, `Replaced by voucher ${code}`);
      const inserted = await tx.query<{ id: string }>(
        `INSERT INTO subscriptions (user_id, plan_id, status, start_date, end_date, payment_method, payment_details, auto_renew,
           previous_plan_id, created_at, updated_at)
         VALUES ($1, $2, 'ACTIVE', $3, $4, 'VOUCHER', $5, false, $6, $3, $3) RETURNING id`,
        [userId, voucher.plan_id, at, endDate, JSON.stringify({ voucherCode: code, carriedFrom: current?.id ?? null }), current?.plan_id ?? null],
      );
      subscriptionId = inserted.rows[0]!.id;
    }
    // The primary key (code, user_id) is the last word on "once per account".
    await tx.query(`INSERT INTO voucher_redemptions (code, user_id, subscription_id, redeemed_at, email_hash) VALUES ($1, $2, $3, $4, (SELECT ${EMAIL_HASH} FROM users WHERE id = $2))`, [
      code, userId, subscriptionId, at,
    ]);

    const user = await contactOf(tx, userId);
    const terms = originalVoucherTerms(voucher);
    const iso = at.toISOString();
    return {
      id: subscriptionId,
      userId,
      subscriptionPlanId: voucher.plan_id,
      startDate: iso,
      endDate: endDate.toISOString(),
      status: 'ACTIVE',
      paymentMethod: 'VOUCHER',
      details: {
        amount: voucher.amount,
        createdAt: iso,
        voucherCode: code,
        voucherCycle: 'voucher',
        voucherDuration: String(voucher.days),
        subscriptionDays: voucher.days,
        ...(terms ? { originalVoucherTerms: terms } : {}),
      },
      isTrial: false,
      trialStartDate: null,
      trialEndDate: null,
      pausedDate: null,
      pauseResumeDate: null,
      canceledDate: null,
      canceledReason: null,
      autoRenew: false,
      isUpgraded: false,
      previousPlanId: current?.plan_id ?? null,
      createdAt: iso,
      updatedAt: iso,
      user: { id: userId, email: user.email, firstName: user.firstName, lastName: user.lastName },
      subscriptionPlan: {
        id: voucher.plan_id,
        type: 'VOUCHER',
        name: voucher.plan_name,
        price: voucher.plan_price ?? voucher.amount,
        currency: voucher.plan_currency ?? 'PHP',
        billingCycle: 'voucher',
        duration: String(voucher.plan_duration ?? voucher.days),
      },
    };
  });
}

