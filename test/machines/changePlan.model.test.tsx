import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Plan } from '../../src/api/schemas';
import { currentLocale, m, overwriteGetLocale, type Locale } from '../../src/i18n';
import { formatDate, formatDateTime } from '../../src/lib/dates';
import { ApiError } from '../../src/api/http';
import { createQueryClient, queryKeys } from '../../src/api/queries';
import { leaveFor } from '../../src/lib/leave';
import { CHANGE_PLAN_NOTE, changeExplanation, VOUCHER_PLAN_NOTE } from '../../src/machines/changePlan/changePlan.connect';
import { changePlanMachine } from '../../src/machines/changePlan/changePlan.machine';
import ChangePlanPage from '../../src/views/pages/ChangePlanPage';
import { escapeFromDialog, type ActorOutput } from '../support/flow';
import { describeModel } from '../support/model';
import { noEnglishPlanText, plansIn as plansInLanguage } from '../support/plan-texts';
import { plansFixture, previewFixture, renderPlanChangeView, scheduledPreviewFixture } from '../support/planChange';
import { cachingActors, freeStatus, premiumStatus, voucherStatus } from '../support/subscription';

vi.mock('../../src/lib/leave', () => ({ leaveFor: vi.fn() }));
beforeEach(() => {
  vi.mocked(leaveFor).mockClear();
  attemptedWithoutPlan = false;
});

type Run = ReturnType<typeof renderPlanChangeView>;
const CHECKOUT_LINK = 'http://localhost/sandbox/maya/pages/checkout/0b6f7f43-6c1e-4d43-9d3c-2b8f2a1c9e10';
// The server's answers, in the language of the run (the server writes them in the request's).
const CHANGED = () => m.your_plan_has_been_changed_to_the({ plan: plansIn(currentLocale())[1].name });
const PAY_TO_CHANGE = () => m.complete_the_payment_to_change_your();
const DECLINED = () => m.your_payment_was_declined_please_try();
/** A scheduled move down (product.md#scheduled-downgrade): the day as the reader's pages write a date. */
const CHANGES_ON = () => formatDate(scheduledPreviewFixture.changesOn!);
const SCHEDULED = () => m.your_plan_changes_to_on_nothing({ plan: plansIn(currentLocale())[1].name, date: CHANGES_ON() });
const dialog = () => within(screen.getByRole('alertdialog'));
const yes = () => dialog().getByRole('button', { name: m.yes_i_m_sure() });

/** The plans as GET /subscription/plans answers them in `locale` (product.md#plan-texts): [monthly, yearly]. */
const plansIn = (locale: Locale): [Plan, Plan] => plansInLanguage(locale, [plansFixture.find((p) => p.slug === 'monthly')!, plansFixture.find((p) => p.slug === 'yearly')!]);
const planCard = (name: string) => within(screen.getByRole('listitem', { name }));
/** premium@ renews on its card: the dialog says when and at what price the new plan renews, with the tick (not invalid). */
const expectConsent = (renewsOn: string) => {
  expect(dialog().getByText(m.renews_automatically_on_date_at({ date: formatDate(renewsOn), price: '₱990' }))).toBeInTheDocument();
  expect(dialog().getByRole('checkbox', { name: m.i_agree_to_automatic_renewal() })).not.toHaveAttribute('aria-invalid');
  expect(dialog().queryByText(m.please_agree_to_automatic_renewal())).toBeNull();
};
let attemptedWithoutPlan = false;

/** The three ways a person dismisses the dialog, taken in turn. */
const dismissals = [
  (run: Run) => escapeFromDialog(run),
  (run: Run) => run.user.click(dialog().getByRole('button', { name: m.close() })),
  (run: Run) => run.user.click(dialog().getByRole('button', { name: m.not_now_keep_plan() })),
];
let dismissal = 0;

const updatedIn = (): Array<ActorOutput<typeof changePlanMachine, 'updatePlan'>> => [
  { data: { paymentMethod: 'MAYA_VAULT', paymentLink: null }, message: CHANGED() },
  { data: { paymentMethod: 'MAYA_CHECKOUT', paymentLink: CHECKOUT_LINK }, message: PAY_TO_CHANGE() },
  { data: { paymentMethod: 'MAYA_VAULT', paymentLink: null }, message: SCHEDULED() },
];

function changePlanModel(locale: Locale) {
const [monthly, yearly] = plansIn(locale);
const planCardOf = (plan: Plan) => planCard(plan.name);
// The invocations' answers are made in the run's language (the server answers in the request's).
const withLocale = <T,>(make: () => T): T => {
  overwriteGetLocale(() => locale);
  try {
    return make();
  } finally {
    overwriteGetLocale(() => 'en');
  }
};
describeModel(locale === 'en' ? 'changePlan' : `changePlan (${locale})`, {
  machine: changePlanMachine,
  scenarios: locale === 'en',
  events: {
    'plan.select': [{ type: 'plan.select', planId: 2 }],
    'dialog.open': [{ type: 'dialog.open' }],
    'dialog.confirm': [{ type: 'dialog.confirm' }],
    'dialog.cancel': [{ type: 'dialog.cancel' }],
    // The view sends the sentence it shows (product.md#renewal-consent); the fixture's words only stand for it.
    'consent.toggle': [{ type: 'consent.toggle', consent: { accepted: true, text: 'the sentence shown', language: locale } }, { type: 'consent.toggle', consent: null }],
    'load.retry': [{ type: 'load.retry' }],
  },
  // Each press of the box flips it: the ticking fixture while unticked, the other while ticked.
  prune: (s, e) => e.type !== 'consent.toggle' || ((e as unknown as { consent: unknown }).consent !== null) === (s.context.renewalConsent === null),
  // A scheduled move down's numbers lead elsewhere from the same states (rejected → scheduling).
  serializeContext: (s) => `${s.context.selectedPlanId} ${Boolean(s.context.preview?.changesOn)} ${s.context.renewalConsent ? 'agreed' : ''}`,
  invocations: {
    // The status names the plan as the API does in this language (product.md#plan-texts).
    loadStatus: { done: [{ ...premiumStatus, planName: monthly.name }, freeStatus, voucherStatus], error: [new ApiError('Something went wrong', 500)] },
    loadPlans: { done: [locale === 'en' ? plansFixture : [yearly, monthly]], error: [new ApiError('Network error')] },
    previewPlanChange: { done: [previewFixture, scheduledPreviewFixture], error: [new ApiError('This is already your current plan. Please select another plan.', 409)] },
    updatePlan: { done: withLocale(updatedIn), error: [new ApiError(withLocale(DECLINED), 402)] },
  },
  render: ({ actors, inspect }) => {
    const queryClient = createQueryClient();
    const keys = { loadStatus: queryKeys.subscriptionStatus, loadPlans: queryKeys.plans };
    return renderPlanChangeView(<ChangePlanPage />, {
      path: '/subscription/change-plan', queryClient, overrides: { actors: cachingActors(actors.actors, queryClient, keys), inspect },
    });
  },
  executors: {
    'plan.select': async (run) => run.user.click(planCardOf(yearly).getByRole('button', { name: m.select_plan() })),
    'dialog.open': async (run, _event) => {
      attemptedWithoutPlan = !screen.queryByRole('button', { name: m.select_plan(), pressed: true });
      await run.user.click(screen.getByRole('button', { name: m.change_plan() }));
    },
    'dialog.confirm': async (run) => run.user.click(yes()),
    'dialog.cancel': async (run) => dismissals[dismissal++ % dismissals.length]!(run),
    'consent.toggle': async (run) => run.user.click(dialog().getByRole('checkbox', { name: m.i_agree_to_automatic_renewal() })),
    'load.retry': async (run) => run.user.click(screen.getByRole('button', { name: m.try_again() })),
  },
  states: {
    loadingStatus: () => {
      expect(screen.getByRole('status')).toHaveTextContent(m.loading_subscription_status());
      expect(screen.queryByRole('button', { name: m.try_again() })).not.toBeInTheDocument();
    },
    loadingPlans: () => {
      expect(screen.getByRole('status')).toHaveTextContent(m.loading_subscription_plans());
      expect(screen.queryByText(m.loading_subscription_status())).not.toBeInTheDocument();
    },
    failed: (_run, snapshot) => {
      expect(screen.getByRole('alert')).toHaveTextContent(snapshot.context.error as string);
      expect(screen.getByRole('button', { name: m.try_again() })).toBeEnabled();
      expect(screen.queryByRole('status')).not.toBeInTheDocument();
    },
    noSubscription: () => {
      expect(screen.getByText(m.no_subscription_found())).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: new RegExp(`${m.select_plan()}|${m.change_plan()}`) })).not.toBeInTheDocument();
    },
    voucher: () => {
      expect(screen.getByText(VOUCHER_PLAN_NOTE())).toBeInTheDocument();
      expect(screen.getByText('SUGBO365')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: new RegExp(`${m.select_plan()}|${m.change_plan()}`) })).not.toBeInTheDocument();
    },
    choosing: async (run, snapshot) => {
      await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
      expect(screen.getByRole('heading', { level: 1, name: m.choose_your_plan() })).toBeInTheDocument();
      expect(screen.getByText(m.select_the_plan_that_works_best_for())).toBeInTheDocument();
      expect(screen.getByText(CHANGE_PLAN_NOTE())).toBeInTheDocument();
      expect(screen.getByText('**** **** **** 1381')).toBeInTheDocument();
      // Sorted by the plans' order: Monthly (current, disabled), then Yearly (popular).
      expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([m.current_payment_method(), monthly.name, yearly.name]);
      expect(planCardOf(monthly).getByRole('button', { name: m.current_plan() })).toBeDisabled();
      expect(planCardOf(monthly).queryByText(m.popular())).not.toBeInTheDocument();
      expect(planCardOf(yearly).getByText(m.popular())).toBeInTheDocument();
      expect(planCardOf(yearly).getByText('₱990')).toBeInTheDocument();
      expect(planCardOf(yearly).getByText(`/ ${m.yearly()}`)).toBeInTheDocument();
      expect(planCardOf(monthly).getByText(`/ ${m.monthly()}`)).toBeInTheDocument();
      // Each plan as the API answers it in this language: description and every feature.
      for (const plan of [monthly, yearly]) {
        expect(planCardOf(plan).getByText(plan.description)).toBeInTheDocument();
        for (const feature of plan.features) expect(planCardOf(plan).getByText(feature)).toBeInTheDocument();
      }
      noEnglishPlanText();
      const select = planCardOf(yearly).getByRole('button', { name: m.select_plan() });
      expect(select).toHaveAttribute('aria-pressed', String(snapshot.context.selectedPlanId === 2));
      // Chosen is said in words too, not only by the border's colour.
      if (snapshot.context.selectedPlanId === 2) expect(planCardOf(yearly).getByText(m.chosen())).toBeInTheDocument();
      else expect(screen.queryByText(m.chosen())).not.toBeInTheDocument();
      if (attemptedWithoutPlan) expect(await screen.findByText(m.please_select_a_plan())).toBeInTheDocument();
      expect(run.location.history.at(-1)).toBe('/subscription/change-plan');
    },
    'open.previewing': async () => {
      // The dialog's code loads on demand (parts/OnDemand): on the first opening it arrives a moment later (two busy cores).
      await screen.findByRole('alertdialog', {}, { timeout: 5000 });
      expect(dialog().getByRole('heading', { name: m.are_you_sure_you_want_to_change_your() })).toBeInTheDocument();
      // The chosen plan by its name in this language.
      expect(dialog().getByText(changeExplanation(yearly.name, premiumStatus.paymentMethod))).toBeInTheDocument();
      if (locale === 'en') expect(dialog().getByText(/changing to the Yearly plan\. The payment is taken immediately with your current payment method, and the remaining days/)).toBeInTheDocument();
      noEnglishPlanText();
      expect(dialog().getByRole('status')).toHaveTextContent(m.calculating_your_new_plan());
      expect(yes()).toBeDisabled();
      expect(dialog().getByRole('button', { name: m.not_now_keep_plan() })).toBeEnabled();
    },
    'open.confirming': () => {
      const facts = dialog();
      expect(facts.getByText(m.charged_now()).nextSibling).toHaveTextContent('₱990');
      expect(facts.getByText(m.days_carried_over()).nextSibling).toHaveTextContent(m.days({ days: 20 }));
      // product.md#dates: Asia/Manila, month/day/year, 12-hour clock (Bisaya names the month).
      // (textContent: Bisaya keeps its AM on the line with a no-break space, which toHaveTextContent would not match.)
      expect(facts.getByText(m.new_end_date()).nextSibling?.textContent).toBe(locale === 'en' ? '02/04/2028 8:00 am' : formatDateTime(previewFixture.newEndDate));
      if (locale === 'ceb') expect(formatDateTime(previewFixture.newEndDate)).toBe('Peb 4, 2028, 8:00\u00a0AM');
      expect(dialog().queryByRole('alert')).not.toBeInTheDocument();
      expect(dialog().queryByRole('status')).not.toBeInTheDocument();
      expect(yes()).toBeEnabled();
      expectConsent(previewFixture.newEndDate);
    },
    // product.md#scheduled-downgrade: nothing now, the day the plan changes, and that it can be undone.
    'open.confirmingLater': () => {
      const facts = dialog();
      expect(facts.getByText(m.charged_now()).nextSibling).toHaveTextContent('₱0');
      expect(facts.getByText(m.your_plan_changes_to_on_label({ planName: yearly.name })).nextSibling).toHaveTextContent(CHANGES_ON());
      expect(facts.queryByText(m.days_carried_over())).not.toBeInTheDocument();
      expect(dialog().getByText(m.you_are_moving_to_the_plan_nothing({ planName: yearly.name, currentPlanName: monthly.name, date: CHANGES_ON() }))).toBeInTheDocument();
      if (locale === 'en') expect(CHANGES_ON()).toBe('01/27/2028');
      expect(dialog().queryByText(changeExplanation(yearly.name, premiumStatus.paymentMethod))).not.toBeInTheDocument();
      noEnglishPlanText();
      expect(dialog().queryByRole('alert')).not.toBeInTheDocument();
      expect(yes()).toBeEnabled();
      expectConsent(scheduledPreviewFixture.changesOn!);
    },
    'open.scheduling': () => {
      expect(dialog().getByRole('button', { name: m.changing() })).toBeDisabled();
      expect(dialog().getByRole('button', { name: m.not_now_keep_plan() })).toBeDisabled();
      expect(dialog().getByText(m.your_plan_changes_to_on_label({ planName: yearly.name })).nextSibling).toHaveTextContent(CHANGES_ON());
    },
    // product.md#renewal-consent: the card plan renews at the new price; pressed without the tick, the box says so and has the focus.
    'open.consentMissing': async (_run, snapshot) => {
      const box = dialog().getByRole('checkbox', { name: m.i_agree_to_automatic_renewal() });
      expect(box).not.toBeChecked();
      expect(box).toHaveAttribute('aria-invalid', 'true');
      expect(box).toHaveAccessibleDescription(new RegExp(`^${m.please_agree_to_automatic_renewal().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      await waitFor(() => expect(box).toHaveFocus());
      expect(yes()).toBeEnabled();
      const renewsOn = snapshot.context.preview!.changesOn ?? snapshot.context.preview!.newEndDate;
      expect(dialog().getByText(m.renews_automatically_on_date_at({ date: formatDate(renewsOn), price: '₱990' }))).toBeInTheDocument();
    },
    'open.previewFailed': (_run, snapshot) => {
      expect(dialog().getByRole('alert')).toHaveTextContent(snapshot.context.error as string);
      expect(yes()).toBeDisabled();
      expect(dialog().queryByRole('status')).not.toBeInTheDocument();
    },
    'open.changing': () => {
      expect(dialog().getByRole('button', { name: m.changing() })).toBeDisabled();
      expect(dialog().getByRole('button', { name: m.not_now_keep_plan() })).toBeDisabled();
      expect(dialog().getByRole('button', { name: m.close() })).toBeDisabled();
    },
    'open.rejected': async (_run, snapshot) => {
      expect(dialog().getByRole('alert')).toHaveTextContent(DECLINED());
      // The error toast carries the same server message; the numbers stay in view.
      expect(await screen.findAllByText(DECLINED())).toHaveLength(2);
      if (snapshot.context.preview?.changesOn) expect(dialog().getByText(m.your_plan_changes_to_on_label({ planName: yearly.name })).nextSibling).toHaveTextContent(CHANGES_ON());
      else expect(dialog().getByText(m.days({ days: 20 }))).toBeInTheDocument();
      expect(yes()).toBeEnabled();
    },
    changed: async (run) => {
      await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
      if (vi.mocked(leaveFor).mock.calls.length) {
        // A checkout subscription pays on the gateway's page; the app does not route anywhere itself.
        expect(vi.mocked(leaveFor).mock.calls).toEqual([[CHECKOUT_LINK]]);
        expect(await screen.findByText(PAY_TO_CHANGE())).toBeInTheDocument();
        expect(run.location.history.at(-1)).toBe('/subscription/change-plan');
      } else {
        await waitFor(() => expect(run.location.history.at(-1)).toBe('/subscription'));
        // Changed now, or scheduled: the server's toast names the new plan in this language ('…ngadto sa Tinuig').
        expect(await screen.findByText((text) => [CHANGED(), SCHEDULED(), PAY_TO_CHANGE()].some((message) => message === text))).toBeInTheDocument();
      }
    },
  },
});
}

// The same paths in each language (issue 37): in Bisaya the plans are the API's Bisaya answer (in an order
// the page sorts), the server's answers are Bisaya, and every state is checked for English plan text.
for (const locale of ['en', 'ceb'] satisfies Locale[]) {
  describe(`in ${locale}`, () => {
    beforeAll(() => overwriteGetLocale(() => locale));
    afterAll(() => overwriteGetLocale(() => 'en'));
    it('renders in that language', () => expect(currentLocale()).toBe(locale));
    changePlanModel(locale);
  });
}
