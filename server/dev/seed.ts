/** Reference data of the design (QA and tests rely on these exact values). Idempotent. */
import type { Db } from '../platform/db';
import { randomUUID } from 'node:crypto';
import { addDays, now } from '../platform/clock';
import { hashPassword } from '../identity/passwords';
import { recordPayment } from '../billing/payments';

export const DEMO_PASSWORD = 'Bisaya-Demo-2026';
export const FREE_PLAN_ID = 3;

export const SEED_PLANS = [
  {
    id: 1, slug: 'monthly', name: 'Monthly', type: 'PREMIUM', price: '99.00', duration: 1, billingCycle: 'month',
    sortOrder: 1, popular: false,
    description: 'Every Bisaya film and series, billed monthly.',
    features: ['Unlimited Bisaya films and series', 'New releases every week', 'Watch on phone and tablet', 'Cancel anytime'],
  },
  {
    id: 2, slug: 'yearly', name: 'Yearly', type: 'PREMIUM', price: '990.00', duration: 1, billingCycle: 'year',
    sortOrder: 2, popular: true,
    description: 'One payment a year: save Php 198, the equal of 2 free months.',
    features: ['Everything in Monthly', 'Save Php 198 a year', 'One-time yearly payment'],
  },
  {
    id: FREE_PLAN_ID, slug: 'free', name: 'Free', type: 'FREE', price: '0.00', duration: 1, billingCycle: 'month',
    sortOrder: 0, popular: false,
    description: 'Free videos, no payment needed.',
    features: ['Free Bisaya videos'],
  },
] as const;

/** Plans a voucher subscribes to (type VOUCHER: never offered in the plan list of the wizard). */
export const SEED_VOUCHER_PLANS = [
  {
    id: 4, slug: 'voucher-30', name: 'Voucher 30 Days', type: 'VOUCHER', price: '99.00', duration: 30, billingCycle: 'voucher',
    sortOrder: 3, popular: false,
    description: 'Premium for 30 days, paid with a voucher.',
    features: ['Everything in Monthly', 'No automatic renewal'],
  },
  {
    id: 5, slug: 'voucher-365', name: 'Voucher 365 Days', type: 'VOUCHER', price: '990.00', duration: 365, billingCycle: 'voucher',
    sortOrder: 4, popular: false,
    description: 'Premium for 365 days, paid with a voucher.',
    features: ['Everything in Yearly', 'No automatic renewal'],
  },
] as const;

/** planId: the VOUCHER plan it subscribes to; termsPlanId: the PREMIUM plan it stands for. */
export const SEED_VOUCHERS = [
  { code: 'BISAYA30', days: 30, amount: '99.00', reusable: true, planId: 4, termsPlanId: 1 },
  { code: 'SUGBO365', days: 365, amount: '990.00', reusable: false, planId: 5, termsPlanId: 2 },
] as const;

/**
 * Idempotent: plans and vouchers are upserted on every start; the demo accounts and their
 * subscriptions and payments are written once, into an empty database, at dates relative to the
 * server clock (server/clock.ts) at that moment.
 */
export async function seed(db: Db): Promise<void> {
  for (const p of [...SEED_PLANS, ...SEED_VOUCHER_PLANS]) {
    await db.query(
      `INSERT INTO plans (id, slug, name, description, type, price, currency, duration, billing_cycle, sort_order, features, popular)
       VALUES ($1, $2, $3, $4, $5, $6, 'PHP', $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING`,
      [p.id, p.slug, p.name, p.description, p.type, p.price, p.duration, p.billingCycle, p.sortOrder, JSON.stringify(p.features), p.popular],
    );
  }
  for (const v of SEED_VOUCHERS) {
    // A database seeded before vouchers had plans gets them here.
    await db.query(
      `INSERT INTO vouchers (code, days, amount, reusable, plan_id, terms_plan_id) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (code) DO UPDATE SET plan_id = EXCLUDED.plan_id, terms_plan_id = EXCLUDED.terms_plan_id WHERE vouchers.plan_id IS NULL`,
      [v.code, v.days, v.amount, v.reusable, v.planId, v.termsPlanId],
    );
  }

  const existing = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM users');
  if ((existing.rows[0]?.count ?? 0) > 0) {
    await seedCardInSandbox(db);
    return;
  }

  const hash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const at = await now(tx);
    const daysAgo = (days: number) => addDays(at, -days);
    const addUser = async (email: string, firstName: string, lastName: string) => {
      const row = await tx.query<{ id: string }>(
        `INSERT INTO users (email, password_hash, first_name, last_name, birthdate, created_at, updated_at)
         VALUES ($1, $2, $3, $4, '1990-06-15', $5, $5) RETURNING id`,
        [email, hash, firstName, lastName, daysAgo(400)],
      );
      return row.rows[0]!.id;
    };
    const addSubscription = async (s: {
      userId: string; planId: number; status: string; start: Date; end: Date; method: string; details?: object; autoRenew: boolean;
      canceledDate?: Date;
    }) => {
      const row = await tx.query<{ id: string }>(
        `INSERT INTO subscriptions (user_id, plan_id, status, start_date, end_date, payment_method, payment_details, auto_renew,
           canceled_date, canceled_reason, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $4, $4) RETURNING id`,
        [s.userId, s.planId, s.status, s.start, s.end, s.method, s.details ? JSON.stringify(s.details) : null, s.autoRenew,
          s.canceledDate ?? null, s.canceledDate ? 'Canceled by the subscriber' : null],
      );
      return row.rows[0]!.id;
    };
    const monthly = SEED_PLANS[0];

    // free: one monthly checkout months ago, long ended (Active tab empty, All tab one EXPIRED item).
    const free = await addUser('free@example.com', 'Maria', 'Santos');
    const freeOld = await addSubscription({
      userId: free, planId: monthly.id, status: 'ACTIVE', start: daysAgo(200), end: daysAgo(170), method: 'MAYA_CHECKOUT', autoRenew: false,
    });
    await recordPayment(tx, {
      userId: free, subscriptionId: freeOld, planId: monthly.id, checkoutId: randomUUID(), status: 'PAYMENT_SUCCESS', amount: monthly.price,
      paymentMethod: 'MAYA_CHECKOUT', gatewayResponse: { seeded: true, status: 'PAYMENT_SUCCESS' }, at: daysAgo(200),
    });

    // premium: three monthly periods on a saved Visa; the latest renewal was declined once, then paid.
    const premium = await addUser('premium@example.com', 'Juan', 'Dela Cruz');
    await tx.query(
      `INSERT INTO saved_cards (card_token_id, user_id, card_type, first6, last4, is_default, created_at, updated_at)
       VALUES ('seed-card-premium', $1, 'visa', '412345', '1381', true, $2, $2)`,
      [premium, daysAgo(70)],
    );
    const card = { cardTokenId: 'seed-card-premium' };
    const periods: Array<[number, number, string]> = [[70, 40, 'EXPIRED'], [40, 10, 'EXPIRED'], [10, -20, 'ACTIVE']];
    for (const [from, to, status] of periods) {
      const id = await addSubscription({
        userId: premium, planId: monthly.id, status, start: daysAgo(from), end: daysAgo(to), method: 'MAYA_VAULT', details: card, autoRenew: true,
      });
      const paid = { userId: premium, subscriptionId: id, planId: monthly.id, amount: monthly.price, paymentMethod: 'MAYA_VAULT' as const };
      if (from === 10) {
        await recordPayment(tx, { ...paid, status: 'PAYMENT_FAILED', gatewayResponse: { seeded: true, status: 'PAYMENT_FAILED', reason: 'Declined by the issuer' }, at: daysAgo(from) });
        await recordPayment(tx, {
          ...paid, status: 'PAYMENT_SUCCESS', retryCount: 1, lastRetryDate: daysAgo(from - 0.25),
          gatewayResponse: { seeded: true, status: 'PAYMENT_SUCCESS' }, at: daysAgo(from - 0.25),
        });
      } else {
        await recordPayment(tx, { ...paid, status: 'PAYMENT_SUCCESS', gatewayResponse: { seeded: true, status: 'PAYMENT_SUCCESS' }, at: daysAgo(from) });
      }
    }

    // canceled: two checkout months, the current one canceled with 15 days left; one checkout left unpaid.
    const canceled = await addUser('canceled@example.com', 'Ana', 'Reyes');
    const checkout = { userId: canceled, planId: monthly.id, amount: monthly.price, paymentMethod: 'MAYA_CHECKOUT' as const };
    await recordPayment(tx, {
      ...checkout, checkoutId: randomUUID(), status: 'PAYMENT_EXPIRED', gatewayResponse: { seeded: true, status: 'PAYMENT_EXPIRED' }, at: daysAgo(46),
    });
    const canceledOld = await addSubscription({
      userId: canceled, planId: monthly.id, status: 'EXPIRED', start: daysAgo(45), end: daysAgo(15), method: 'MAYA_CHECKOUT', autoRenew: false,
    });
    await recordPayment(tx, {
      ...checkout, subscriptionId: canceledOld, checkoutId: randomUUID(), status: 'PAYMENT_SUCCESS',
      gatewayResponse: { seeded: true, status: 'PAYMENT_SUCCESS' }, at: daysAgo(45),
    });
    const canceledNow = await addSubscription({
      userId: canceled, planId: monthly.id, status: 'CANCELED', start: daysAgo(15), end: daysAgo(-15), method: 'MAYA_CHECKOUT', autoRenew: false,
      canceledDate: daysAgo(2),
    });
    await recordPayment(tx, {
      ...checkout, subscriptionId: canceledNow, checkoutId: randomUUID(), status: 'PAYMENT_SUCCESS',
      gatewayResponse: { seeded: true, status: 'PAYMENT_SUCCESS' }, at: daysAgo(15),
    });

    // voucher: BISAYA30 redeemed 5 days ago; no payments ('No payments yet'). SUGBO365 stays free
    // for one redemption, so QA can redeem it once and see the second account refused.
    const voucher = await addUser('voucher@example.com', 'Pedro', 'Garcia');
    const bisaya = SEED_VOUCHERS[0];
    const voucherSub = await addSubscription({
      userId: voucher, planId: bisaya.planId, status: 'ACTIVE', start: daysAgo(5), end: daysAgo(5 - bisaya.days), method: 'VOUCHER',
      details: { voucherCode: bisaya.code }, autoRenew: false,
    });
    await tx.query('INSERT INTO voucher_redemptions (code, user_id, subscription_id, redeemed_at) VALUES ($1, $2, $3, $4)', [
      bisaya.code, voucher, voucherSub, daysAgo(5),
    ]);
  });
  await seedCardInSandbox(db);
}

/** The seeded premium card's token (its subscription is charged on it). */
export const SEED_CARD_TOKEN = 'seed-card-premium';

/**
 * The seeded card exists on the local sandbox's side too (a Maya customer holding that card token,
 * approving like the Visa test card), so premium@ can be charged: a plan change, a renewal.
 * Idempotent; also completes a database seeded before the sandbox existed.
 */
async function seedCardInSandbox(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const card = (
      await tx.query<{ user_id: string; created_at: Date }>(`SELECT user_id, created_at FROM saved_cards WHERE card_token_id = $1 AND customer_id IS NULL`, [SEED_CARD_TOKEN])
    ).rows[0];
    if (!card) return;
    const user = (await tx.query<{ first_name: string; last_name: string; email: string }>('SELECT first_name, last_name, email FROM users WHERE id = $1', [card.user_id])).rows[0]!;
    const known = (await tx.query<{ customer_id: string }>('SELECT customer_id FROM maya_customers WHERE user_id = $1', [card.user_id])).rows[0];
    let customerId = known?.customer_id;
    if (!customerId) {
      customerId = (
        await tx.query<{ id: string }>(
          'INSERT INTO sandbox_customers (first_name, last_name, email, created_at) VALUES ($1, $2, $3, $4) RETURNING id',
          [user.first_name, user.last_name, user.email, card.created_at],
        )
      ).rows[0]!.id;
      await tx.query('INSERT INTO maya_customers (user_id, customer_id, created_at) VALUES ($1, $2, $3)', [card.user_id, customerId, card.created_at]);
    }
    await tx.query(
      `INSERT INTO sandbox_cards (card_token_id, customer_id, brand, first6, last4, behaviour, state, is_default, created_at, updated_at)
       VALUES ($1, $2, 'visa', '412345', '1381', 'APPROVE', 'VERIFIED', true, $3, $3) ON CONFLICT (card_token_id) DO NOTHING`,
      [SEED_CARD_TOKEN, customerId, card.created_at],
    );
    await tx.query(`UPDATE saved_cards SET customer_id = $2, masked_pan = '1381', state = 'VERIFIED' WHERE card_token_id = $1`, [SEED_CARD_TOKEN, customerId]);
  });
}

/**
 * Back to the seeded demo data (the dev route `POST /dev/reset`, for QA and the browser tests): every
 * account with what hangs off it (sessions, subscriptions, payments, cards), the sign-in throttles,
 * the sent codes and the moved clock go, then the seed runs again.
 */
export async function resetDemoData(db: Db): Promise<void> {
  // The local sandbox's records (its customers and cards) go too: the seeded card is created there again.
  await db.exec(`TRUNCATE users, auth_throttle, otp_sends, otp_challenges, mailbox, server_clock,
    sandbox_payment_tokens, sandbox_customers, sandbox_cards, sandbox_payments, sandbox_wallet_links CASCADE`);
  await seed(db);
}
