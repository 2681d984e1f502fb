/**
 * Issue 37: a Bisaya viewer sees the plans in Bisaya everywhere. The plans are what the API answers in
 * `ceb` (the server's own mapping: the seeded plans' texts, server/billing/catalog.ts, through `toPlan`,
 * which test/server/platform/json-list.test.ts holds equal to the list's SQL); the status names its plan
 * as the API does in `ceb`. The wizard's plan step, the change-plan page and the subscription home then
 * show Bisaya plan names and features, the PAST_DUE reason in Bisaya, and no English plan text at all.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEED_PLANS, seededPlanTexts } from '../../server/billing/catalog';
import { toPlan, type PlanRow } from '../../server/billing/plans';
import type { Plan, SubscriptionStatusDetails } from '../../src/api/schemas';
import { m, overwriteGetLocale } from '../../src/i18n';
import ChangePlanPage from '../../src/views/pages/ChangePlanPage';
import SubscribePage from '../../src/views/pages/SubscribePage';
import SubscriptionPage from '../../src/views/pages/SubscriptionPage';
import { planChangeServer, renderPlanChangeView } from '../support/planChange';
import { ENGLISH_PLAN_TEXTS } from '../support/plan-texts';
import { fakeServer, freeStatus, historyFixture, json, pastDueStatus, paymentsFixture, premiumStatus, renderSubscriptionView } from '../support/subscription';

vi.mock('../../src/lib/leave', () => ({ leaveFor: vi.fn() }));
beforeEach(() => overwriteGetLocale(() => 'ceb'));
afterEach(() => overwriteGetLocale(() => 'en'));

/** The seeded plans as GET /subscription/plans answers them in `language` (type PREMIUM, active, in order). */
function apiPlans(language: 'en' | 'ceb'): Plan[] {
  return SEED_PLANS.filter((plan) => plan.type === 'PREMIUM').toSorted((a, b) => a.sortOrder - b.sortOrder).map((plan) => {
    const row: PlanRow = {
      id: plan.id, slug: plan.slug, name: plan.name, description: plan.description, type: plan.type, price: plan.price, currency: 'PHP',
      duration: plan.duration, billing_cycle: plan.billingCycle, trial_days: 0, sort_order: plan.sortOrder, is_active: true,
      features: [...plan.features], popular: plan.popular, texts: seededPlanTexts(plan.slug),
    };
    return toPlan(row, language);
  });
}
const bisayaPlans = apiPlans('ceb');
const [monthly, yearly] = bisayaPlans as [Plan, Plan];
/** The English plan texts the page shows anywhere (none, in Bisaya). */
const englishShown = () => ENGLISH_PLAN_TEXTS.filter((text) => document.body.textContent!.includes(text));

const answer = (data: unknown) => json(200, { success: true, message: 'OK', data });
/** The status as the API answers it in Bisaya: the plan's Bisaya name. */
const bisayaStatus = (status: SubscriptionStatusDetails, name: string): SubscriptionStatusDetails => ({ ...status, planName: name });

describe('the plans from the API in Bisaya', () => {
  it('are Bisaya: names, descriptions and every feature (the fixture itself holds no English plan text)', () => {
    expect(bisayaPlans.map((plan) => plan.name)).toEqual([m.monthly_2(), m.yearly_2()]);
    for (const plan of bisayaPlans) for (const text of [plan.name, plan.description, ...plan.features]) expect(ENGLISH_PLAN_TEXTS).not.toContain(text);
    // And English is English: the list a viewer without Bisaya gets.
    expect(apiPlans('en').map((plan) => plan.name)).toEqual(['Monthly', 'Yearly']);
  });
});

describe("the wizard's plan step in Bisaya", () => {
  it('shows each plan in Bisaya with its features and a Bisaya button; choosing one names it in Bisaya on the next step', async () => {
    const server = planChangeServer(bisayaStatus(freeStatus, m.free()));
    server.answers.plans = () => answer(bisayaPlans);
    const run = renderPlanChangeView(<SubscribePage />, { path: '/subscription/payment', server });
    expect(await screen.findByRole('heading', { level: 2, name: m.select_plan() })).toBeInTheDocument();
    const card = (plan: Plan) => within(screen.getByRole('article', { name: plan.name }));
    for (const plan of bisayaPlans) {
      expect(await screen.findByRole('article', { name: plan.name })).toBeInTheDocument();
      expect(card(plan).getByText(plan.description)).toBeInTheDocument();
      for (const feature of plan.features) expect(card(plan).getByText(feature)).toBeInTheDocument();
    }
    expect(card(yearly).getByText(m.one_payment_a_year_renews())).toBeInTheDocument();
    expect(englishShown()).toEqual([]);

    await run.user.click(screen.getByRole('button', { name: m.choose({ planName: monthly.name }) }));
    expect(await screen.findByRole('heading', { level: 2, name: m.payment_method() })).toBeInTheDocument();
    expect(screen.getByText(new RegExp(`^${monthly.name}: ₱99 `))).toBeInTheDocument();
    expect(englishShown()).toEqual([]);
  });
});

describe('change plan in Bisaya', () => {
  it('shows the plans in Bisaya, the current one marked; the dialog names the chosen plan in Bisaya', async () => {
    const server = planChangeServer(bisayaStatus(premiumStatus, monthly.name));
    server.answers.plans = () => answer(bisayaPlans);
    const run = renderPlanChangeView(<ChangePlanPage />, { path: '/subscription/change-plan', server });
    for (const plan of bisayaPlans) {
      const card = within(await screen.findByRole('listitem', { name: plan.name }));
      expect(card.getByRole('heading', { name: plan.name })).toBeInTheDocument();
      for (const feature of plan.features) expect(card.getByText(feature)).toBeInTheDocument();
    }
    expect(within(screen.getByRole('listitem', { name: monthly.name })).getByRole('button', { name: m.current_plan() })).toBeDisabled();
    expect(englishShown()).toEqual([]);

    await run.user.click(within(screen.getByRole('listitem', { name: yearly.name })).getByRole('button', { name: m.select_plan() }));
    await run.user.click(screen.getByRole('button', { name: m.change_plan() }));
    const dialog = within(await screen.findByRole('alertdialog'));
    await waitFor(() => expect(dialog.getByText(new RegExp(yearly.name))).toBeInTheDocument());
    expect(englishShown()).toEqual([]);
  });
});

describe('the subscription home in Bisaya', () => {
  /** The status, history and payments as the API answers them in Bisaya: each plan by its Bisaya name. */
  const showPage = (status: SubscriptionStatusDetails) => {
    const server = fakeServer(status);
    const bisaya = (name: string | null) => bisayaPlans[apiPlans('en').findIndex((plan) => plan.name === name)]?.name ?? name;
    server.history = historyFixture.map((item) => ({ ...item, plan: bisaya(item.plan)! }));
    server.payments = paymentsFixture.map((payment) => ({ ...payment, planName: bisaya(payment.planName ?? null) }));
    return renderSubscriptionView(<SubscriptionPage />, { path: '/subscription', server });
  };
  const currentCard = () => within(screen.getByRole('region', { name: m.current_subscription() }));

  it('names the plan in Bisaya and says why the renewal failed in Bisaya', async () => {
    showPage(bisayaStatus(pastDueStatus, monthly.name));
    expect(await currentCard().findByText(monthly.name, { selector: 'p' })).toBeInTheDocument();
    expect(await screen.findByText(`${m.your_payment_was_declined()}.`)).toBeInTheDocument();
    // The history and the payments, once loaded, name it in Bisaya too.
    await waitFor(() => expect(screen.getAllByText(monthly.name).length).toBeGreaterThan(2));
    expect(screen.queryByText(/Your payment was declined/)).not.toBeInTheDocument();
    expect(englishShown()).toEqual([]);
  });

  it('a reason in the gateway\'s own words: a Bisaya sentence that says what to do, the words kept', async () => {
    const pastDue = pastDueStatus.renewal as Extract<NonNullable<typeof pastDueStatus.renewal>, { state: 'PAST_DUE' }>;
    showPage({ ...bisayaStatus(pastDueStatus, monthly.name), renewal: { ...pastDue, failure: 'Insufficient balance (PY0042).' } });
    expect(await screen.findByText(`${m.maya_did_not_accept_your_payment({ details: 'Insufficient balance (PY0042)' })}.`)).toBeInTheDocument();
  });

  it('the Free plan: its Bisaya name, not followed by a FREE badge (walk finding 21: "Free / FREE")', async () => {
    showPage(bisayaStatus(freeStatus, m.free()));
    const name = await currentCard().findByText(m.free(), { selector: 'p' });
    // The plan's name alone heads the card (no FREE badge, no status badge: review finding 25).
    expect(name.parentElement!.textContent).toBe(m.free());
    expect(englishShown()).toEqual([]);
  });
});
