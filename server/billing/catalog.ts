/**
 * The product's catalog: the plans on sale and the vouchers (reference data of docs/product.md; QA and
 * the tests rely on these exact values). Written at every start, before anything else reads them.
 */
import type { Db } from '../platform/db';

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

/** Plans and vouchers, upserted on every start (idempotent: existing rows are kept as they are). */
export async function ensureCatalog(db: Db): Promise<void> {
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
}
