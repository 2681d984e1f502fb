/**
 * Plan texts as the API answers them in each language (issue 37, product.md#plan-texts), shared by the
 * tests that check no English plan text is shown in Bisaya.
 */
import { expect } from 'vitest';
import { SEED_PLANS, SEED_VOUCHER_PLANS, seededPlanTexts } from '../../server/billing/catalog';
import { toPlan } from '../../server/billing/plans';
import type { Plan } from '../../src/api/schemas';
import { currentLocale, type Locale } from '../../src/i18n';

/** A seeded plan as GET /subscription/plans answers it in `locale`, through the server's own mapping. */
export function seededPlanIn(slug: string, locale: Locale): Plan {
  const plan = SEED_PLANS.find((seeded) => seeded.slug === slug)!;
  return toPlan({
    id: plan.id, slug: plan.slug, name: plan.name, description: plan.description, type: plan.type, price: plan.price, currency: 'PHP',
    duration: plan.duration, billing_cycle: plan.billingCycle, trial_days: 0, sort_order: plan.sortOrder, is_active: true,
    features: [...plan.features], popular: plan.popular, texts: seededPlanTexts(plan.slug),
  }, locale);
}

/** [monthly, yearly] in `locale`: English, the test's own fixtures; another language, the seeded plans' texts in it. */
export function plansIn(locale: Locale, english: [Plan, Plan]): [Plan, Plan] {
  return locale === 'en' ? english : [seededPlanIn('monthly', locale), seededPlanIn('yearly', locale)];
}

/** Every English text of every seeded plan: none is shown in Bisaya. */
export const ENGLISH_PLAN_TEXTS = [...SEED_PLANS, ...SEED_VOUCHER_PLANS].flatMap((plan) => [plan.name, plan.description, ...plan.features]);

/** In a language other than English, the page shows no English plan text. */
export function noEnglishPlanText(): void {
  if (currentLocale() === 'en') return;
  expect(ENGLISH_PLAN_TEXTS.filter((text) => document.body.textContent!.includes(text))).toEqual([]);
}
