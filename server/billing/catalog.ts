/**
 * The product's catalog: the plans on sale and the vouchers (reference data of docs/product.md; QA and
 * the tests rely on these exact values). Written at every start, before anything else reads them.
 */
import { m } from '../../src/i18n';
import type { Db } from '../platform/db';
import { LANGUAGES, type Language } from '../platform/language';

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
    description: 'One payment a year: save ₱198, the equal of 2 free months.',
    features: ['Everything in Monthly', 'Save ₱198 a year', 'One payment a year, renews automatically'],
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

type Message = (inputs?: Record<string, never>, options?: { locale?: Language }) => string;

/**
 * The seeded plans' texts as catalog messages (messages/<locale>.json), by slug: the name, the
 * description and each feature, in the list's order. Their English is the plan's own (SEED_PLANS; a
 * test holds the two equal); the other languages are written into the plan's `texts` (product.md#plan-texts).
 */
export const SEED_PLAN_MESSAGES: Record<string, { name: Message; description: Message; features: Message[] }> = {
  monthly: {
    name: m.monthly_2, description: m.every_bisaya_film_and_series_billed,
    features: [m.unlimited_bisaya_films_and_series, m.new_releases_every_week, m.watch_on_phone_and_tablet, m.cancel_anytime],
  },
  yearly: { name: m.yearly_2, description: m.one_payment_a_year_save_198_the, features: [m.everything_in_monthly, m.save_198_a_year, m.one_payment_a_year_renews] },
  free: { name: m.free, description: m.free_videos_no_payment_needed, features: [m.free_bisaya_videos] },
  'voucher-30': { name: m.voucher_30_days, description: m.premium_for_30_days_paid_with_a, features: [m.everything_in_monthly, m.no_automatic_renewal] },
  'voucher-365': { name: m.voucher_365_days, description: m.premium_for_365_days_paid_with_a, features: [m.everything_in_yearly, m.no_automatic_renewal] },
};

/** A plan's texts in a language other than English, as the `texts` column holds them (migration 013). */
export interface PlanTexts {
  name?: string;
  description?: string;
  features?: string[];
}

/** A seeded plan's `texts`: each language but English, from the catalogs. */
export function seededPlanTexts(slug: string): Partial<Record<Language, PlanTexts>> {
  const messages = SEED_PLAN_MESSAGES[slug];
  if (!messages) return {};
  return Object.fromEntries(LANGUAGES.filter((language) => language !== 'en').map((locale) => [locale, {
    name: messages.name({}, { locale }),
    description: messages.description({}, { locale }),
    features: messages.features.map((feature) => feature({}, { locale })),
  }]));
}

/**
 * Plans and vouchers, upserted on every start (idempotent: existing rows are kept as they are, except
 * that a seeded plan without texts in the other languages gets them: a database made before migration 013).
 * `vouchers: false` (production): the plans only; the demo vouchers are printed in the README.
 */
export async function ensureCatalog(db: Db, options: { vouchers?: boolean } = {}): Promise<void> {
  for (const p of [...SEED_PLANS, ...SEED_VOUCHER_PLANS]) {
    await db.query(
      `INSERT INTO plans (id, slug, name, description, type, price, currency, duration, billing_cycle, sort_order, features, popular, texts)
       VALUES ($1, $2, $3, $4, $5, $6, 'PHP', $7, $8, $9, $10, $11, $12)
       ON CONFLICT (id) DO UPDATE SET texts = EXCLUDED.texts WHERE plans.texts = '{}'::jsonb AND plans.slug = EXCLUDED.slug`,
      [p.id, p.slug, p.name, p.description, p.type, p.price, p.duration, p.billingCycle, p.sortOrder, JSON.stringify(p.features), p.popular, JSON.stringify(seededPlanTexts(p.slug))],
    );
  }
  for (const v of options.vouchers === false ? [] : SEED_VOUCHERS) {
    // A database seeded before vouchers had plans gets them here.
    await db.query(
      `INSERT INTO vouchers (code, days, amount, reusable, plan_id, terms_plan_id) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (code) DO UPDATE SET plan_id = EXCLUDED.plan_id, terms_plan_id = EXCLUDED.terms_plan_id WHERE vouchers.plan_id IS NULL`,
      [v.code, v.days, v.amount, v.reusable, v.planId, v.termsPlanId],
    );
  }
}
