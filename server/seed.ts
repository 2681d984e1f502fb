/** Reference data of the design (QA and tests rely on these exact values). Idempotent. */
import type { PGlite } from '@electric-sql/pglite';
import { hashPassword } from './passwords';

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

export const SEED_VOUCHERS = [
  { code: 'BISAYA30', days: 30, amount: '99.00', reusable: true },
  { code: 'SUGBO365', days: 365, amount: '990.00', reusable: false },
] as const;

const DAY = 24 * 60 * 60 * 1000;

export async function seed(db: PGlite): Promise<void> {
  for (const p of SEED_PLANS) {
    await db.query(
      `INSERT INTO plans (id, slug, name, description, type, price, currency, duration, billing_cycle, sort_order, features, popular)
       VALUES ($1, $2, $3, $4, $5, $6, 'PHP', $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING`,
      [p.id, p.slug, p.name, p.description, p.type, p.price, p.duration, p.billingCycle, p.sortOrder, JSON.stringify(p.features), p.popular],
    );
  }
  for (const v of SEED_VOUCHERS) {
    await db.query('INSERT INTO vouchers (code, days, amount, reusable) VALUES ($1, $2, $3, $4) ON CONFLICT (code) DO NOTHING', [
      v.code, v.days, v.amount, v.reusable,
    ]);
  }

  const existing = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM users');
  if ((existing.rows[0]?.count ?? 0) > 0) return;

  const hash = await hashPassword(DEMO_PASSWORD);
  const now = Date.now();
  const addUser = async (email: string, firstName: string, lastName: string) => {
    const row = await db.query<{ id: string }>(
      `INSERT INTO users (email, password_hash, first_name, last_name, birthdate) VALUES ($1, $2, $3, $4, '1990-06-15') RETURNING id`,
      [email, hash, firstName, lastName],
    );
    return row.rows[0]!.id;
  };

  await addUser('free@example.com', 'Maria', 'Santos');

  const premium = await addUser('premium@example.com', 'Juan', 'Dela Cruz');
  await db.query(
    `INSERT INTO saved_cards (card_token_id, user_id, card_type, first6, last4, is_default) VALUES ('seed-card-premium', $1, 'visa', '412345', '1381', true)`,
    [premium],
  );
  await db.query(
    `INSERT INTO subscriptions (user_id, plan_id, status, start_date, end_date, payment_method, payment_details)
     VALUES ($1, 1, 'ACTIVE', $2, $3, 'MAYA_VAULT', $4)`,
    [premium, new Date(now - 10 * DAY), new Date(now + 20 * DAY), JSON.stringify({ cardTokenId: 'seed-card-premium' })],
  );

  const canceled = await addUser('canceled@example.com', 'Ana', 'Reyes');
  await db.query(
    `INSERT INTO subscriptions (user_id, plan_id, status, start_date, end_date, payment_method, auto_renew, canceled_date)
     VALUES ($1, 1, 'CANCELED', $2, $3, 'MAYA_CHECKOUT', false, $4)`,
    [canceled, new Date(now - 15 * DAY), new Date(now + 15 * DAY), new Date(now - 2 * DAY)],
  );

  const voucher = await addUser('voucher@example.com', 'Pedro', 'Garcia');
  const sub = await db.query<{ id: string }>(
    `INSERT INTO subscriptions (user_id, plan_id, status, start_date, end_date, payment_method, payment_details, auto_renew)
     VALUES ($1, 1, 'ACTIVE', $2, $3, 'VOUCHER', $4, false) RETURNING id`,
    [voucher, new Date(now - 5 * DAY), new Date(now + 360 * DAY), JSON.stringify({ voucherCode: 'SUGBO365' })],
  );
  await db.query('INSERT INTO voucher_redemptions (code, user_id, subscription_id) VALUES ($1, $2, $3)', ['SUGBO365', voucher, sub.rows[0]!.id]);
}
