/**
 * The demo accounts of the README (QA and the tests rely on their exact state), written once into an
 * empty database after the catalog; `resetDemoData` writes them again. Dev data: only the start-up
 * (server/startup.ts), the dev routes and the tests use this module.
 */
import { randomUUID } from 'node:crypto';
import { ensureCatalog, SEED_PLANS, SEED_VOUCHERS } from '../billing/catalog';
import { issueInvoice } from '../billing/invoices';
import { recordPayment } from '../billing/payments';
import { hashPassword } from '../identity/passwords';
import { addDays, now } from '../platform/clock';
import type { Db } from '../platform/db';
import { resetSandbox, sandboxCard } from '../sandbox/seed';

export { FREE_PLAN_ID, SEED_PLANS, SEED_VOUCHER_PLANS, SEED_VOUCHERS } from '../billing/catalog';

export const DEMO_PASSWORD = 'Bisaya-Demo-2026';

/**
 * Idempotent: plans and vouchers are upserted on every start; the demo accounts and their
 * subscriptions and payments are written once, into an empty database, at dates relative to the
 * server clock (server/platform/clock.ts) at that moment.
 */
export async function seed(db: Db): Promise<void> {
  await ensureCatalog(db);

  const existing = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM users');
  if ((existing.rows[0]?.count ?? 0) > 0) {
    await seedCardInSandbox(db);
    await seedOperators(db);
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
      `INSERT INTO saved_cards (card_token_id, user_id, card_type, first6, last4, is_default, created_at, updated_at, exp_month, exp_year, expires_at)
       VALUES ('seed-card-premium', $1, 'visa', '412345', '1381', true, $2, $2, 12, 2030, '2030-12-31T16:00:00Z')`,
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
    await tx.query(
      `INSERT INTO voucher_redemptions (code, user_id, subscription_id, redeemed_at, email_hash)
       VALUES ($1, $2, $3, $4, encode(sha256(convert_to('voucher@example.com', 'UTF8')), 'hex'))`, [
      bisaya.code, voucher, voucherSub, daysAgo(5),
    ]);

    // Every seeded paid payment has its invoice (product.md#invoices), numbered in the order paid.
    const paidRecords = await tx.query<{ id: string }>(`SELECT id FROM payment_records WHERE status = 'PAYMENT_SUCCESS' ORDER BY COALESCE(paid_at, created_at), seq`);
    for (const row of paidRecords.rows) await issueInvoice(tx, row.id);
  });
  await seedCardInSandbox(db);
  await seedOperators(db);
}

/**
 * The demo operators (issue 35, dev only: production never seeds one, docs/operations.md#back-office),
 * password DEMO_PASSWORD, not enrolled in TOTP (their first sign-in to /ops enrols). Idempotent: an
 * account or role already there is left as it is.
 */
export const DEMO_OPERATORS = [
  { email: 'support@example.com', firstName: 'Sam', lastName: 'Support', role: 'support' },
  { email: 'finance@example.com', firstName: 'Fe', lastName: 'Finance', role: 'finance' },
  { email: 'admin@example.com', firstName: 'Ada', lastName: 'Admin', role: 'admin' },
] as const;

export async function seedOperators(db: Db): Promise<void> {
  const missing: Array<(typeof DEMO_OPERATORS)[number]> = [];
  for (const operator of DEMO_OPERATORS) {
    const known = await db.query('SELECT 1 FROM users WHERE email = $1', [operator.email]);
    if (!known.rows.length) missing.push(operator);
  }
  if (!missing.length) return;
  const hash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const at = await now(tx);
    for (const operator of missing) {
      const user = await tx.query<{ id: string }>(
        `INSERT INTO users (email, password_hash, first_name, last_name, birthdate, created_at, updated_at)
         VALUES ($1, $2, $3, $4, '1990-06-15', $5, $5) ON CONFLICT (email) DO NOTHING RETURNING id`,
        [operator.email, hash, operator.firstName, operator.lastName, at],
      );
      const id = user.rows[0]?.id;
      if (id) await tx.query(`INSERT INTO operator_roles (user_id, role, granted_by) VALUES ($1, $2, 'seed') ON CONFLICT (user_id) DO NOTHING`, [id, operator.role]);
    }
  });
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
    const customerId = await sandboxCard(tx, {
      customerId: known?.customer_id ?? null, customer: { firstName: user.first_name, lastName: user.last_name, email: user.email },
      cardTokenId: SEED_CARD_TOKEN, brand: 'visa', first6: '412345', last4: '1381', at: card.created_at,
    });
    if (!known) await tx.query('INSERT INTO maya_customers (user_id, customer_id, created_at) VALUES ($1, $2, $3)', [card.user_id, customerId, card.created_at]);
    await tx.query(`UPDATE saved_cards SET customer_id = $2, masked_pan = '1381', state = 'VERIFIED' WHERE card_token_id = $1`, [SEED_CARD_TOKEN, customerId]);
  });
}

/**
 * Back to the seeded demo data (the dev route `POST /dev/reset`, for QA and the browser tests): every
 * account with what hangs off it (sessions, subscriptions, payments, cards), the sign-in throttles,
 * the sent codes, the moved clock and the demo invoices go, then the seed runs again.
 */
export async function resetDemoData(db: Db): Promise<void> {
  // The accounts' invoices and credit memos go with them (TRUNCATE … CASCADE; never a row's DELETE, which
  // tax_documents refuses), and their series start again at 1: this is a demo database, never production's.
  await db.exec(`TRUNCATE users, auth_throttle, otp_sends, otp_challenges, mailbox, server_clock, audit_log, ops_requests CASCADE;
    UPDATE document_series SET last = 0;`);
  // The local sandbox's records (its customers and cards) go too: the seeded card is created there again.
  await resetSandbox(db);
  await seed(db);
}
