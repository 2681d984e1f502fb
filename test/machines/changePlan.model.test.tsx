import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, expect, vi } from 'vitest';
import { ApiError } from '../../src/api/http';
import { createQueryClient, queryKeys } from '../../src/api/queries';
import { leaveFor } from '../../src/lib/leave';
import { CHANGE_PLAN_NOTE, VOUCHER_PLAN_NOTE } from '../../src/machines/changePlan/changePlan.connect';
import { changePlanMachine } from '../../src/machines/changePlan/changePlan.machine';
import ChangePlanPage from '../../src/views/pages/ChangePlanPage';
import { escapeFromDialog, type ActorOutput } from '../support/flow';
import { describeModel } from '../support/model';
import { plansFixture, previewFixture, renderPlanChangeView } from '../support/planChange';
import { cachingActors, freeStatus, premiumStatus, voucherStatus } from '../support/subscription';

vi.mock('../../src/lib/leave', () => ({ leaveFor: vi.fn() }));
beforeEach(() => {
  vi.mocked(leaveFor).mockClear();
  attemptedWithoutPlan = false;
});

type Run = ReturnType<typeof renderPlanChangeView>;
const CHECKOUT_LINK = 'http://localhost/sandbox/maya/pages/checkout/0b6f7f43-6c1e-4d43-9d3c-2b8f2a1c9e10';
const CHANGED = 'Your plan has been changed to Yearly. The remaining days of your previous plan were added.';
const PAY_TO_CHANGE = 'Complete the payment to change your plan.';
const DECLINED = 'Your payment was declined. Please try another card or payment method.';
const dialog = () => within(screen.getByRole('alertdialog'));
const yes = () => dialog().getByRole('button', { name: "Yes, I'm sure" });
const planCard = (name: string) => within(screen.getByRole('listitem', { name }));
let attemptedWithoutPlan = false;

/** The three ways a person dismisses the dialog, taken in turn. */
const dismissals = [
  (run: Run) => escapeFromDialog(run),
  (run: Run) => run.user.click(dialog().getByRole('button', { name: 'Close' })),
  (run: Run) => run.user.click(dialog().getByRole('button', { name: 'Cancel' })),
];
let dismissal = 0;

const updated: Array<ActorOutput<typeof changePlanMachine, 'updatePlan'>> = [
  { data: { paymentMethod: 'MAYA_VAULT', paymentLink: null }, message: CHANGED },
  { data: { paymentMethod: 'MAYA_CHECKOUT', paymentLink: CHECKOUT_LINK }, message: PAY_TO_CHANGE },
];

describeModel('changePlan', {
  machine: changePlanMachine,
  events: {
    'plan.select': [{ type: 'plan.select', planId: 2 }],
    'dialog.open': [{ type: 'dialog.open' }],
    'dialog.confirm': [{ type: 'dialog.confirm' }],
    'dialog.cancel': [{ type: 'dialog.cancel' }],
    'load.retry': [{ type: 'load.retry' }],
  },
  serializeContext: (s) => String(s.context.selectedPlanId),
  invocations: {
    loadStatus: { done: [premiumStatus, freeStatus, voucherStatus], error: [new ApiError('Something went wrong', 500)] },
    loadPlans: { done: [plansFixture], error: [new ApiError('Network error')] },
    previewPlanChange: { done: [previewFixture], error: [new ApiError('This is already your current plan. Please select another plan.', 409)] },
    updatePlan: { done: updated, error: [new ApiError(DECLINED, 402)] },
  },
  render: ({ actors, inspect }) => {
    const queryClient = createQueryClient();
    const keys = { loadStatus: queryKeys.subscriptionStatus, loadPlans: queryKeys.plans };
    return renderPlanChangeView(<ChangePlanPage />, {
      path: '/subscription/change-plan', queryClient, overrides: { actors: cachingActors(actors.actors, queryClient, keys), inspect },
    });
  },
  executors: {
    'plan.select': async (run) => run.user.click(planCard('Yearly').getByRole('button', { name: /Select Plan/ })),
    'dialog.open': async (run, _event) => {
      attemptedWithoutPlan = !screen.queryByRole('button', { name: /Select Plan/, pressed: true });
      await run.user.click(screen.getByRole('button', { name: 'Change Plan' }));
    },
    'dialog.confirm': async (run) => run.user.click(yes()),
    'dialog.cancel': async (run) => dismissals[dismissal++ % dismissals.length]!(run),
    'load.retry': async (run) => run.user.click(screen.getByRole('button', { name: 'Try again' })),
  },
  states: {
    loadingStatus: () => {
      expect(screen.getByRole('status')).toHaveTextContent('Loading Subscription Status...');
      expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    },
    loadingPlans: () => {
      expect(screen.getByRole('status')).toHaveTextContent('Loading Subscription Plans...');
      expect(screen.queryByText('Loading Subscription Status...')).not.toBeInTheDocument();
    },
    failed: (_run, snapshot) => {
      expect(screen.getByRole('alert')).toHaveTextContent(snapshot.context.error as string);
      expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
      expect(screen.queryByRole('status')).not.toBeInTheDocument();
    },
    noSubscription: () => {
      expect(screen.getByText('No subscription found')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Select Plan|Change Plan/ })).not.toBeInTheDocument();
    },
    voucher: () => {
      expect(screen.getByText(VOUCHER_PLAN_NOTE())).toBeInTheDocument();
      expect(screen.getByText('SUGBO365')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Select Plan|Change Plan/ })).not.toBeInTheDocument();
    },
    choosing: async (run, snapshot) => {
      await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
      expect(screen.getByRole('heading', { level: 1, name: 'Choose Your Plan' })).toBeInTheDocument();
      expect(screen.getByText('Select the plan that works best for you')).toBeInTheDocument();
      expect(screen.getByText(CHANGE_PLAN_NOTE())).toBeInTheDocument();
      expect(screen.getByText('**** **** **** 1381')).toBeInTheDocument();
      // Sorted by the plans' order: Monthly (current, disabled), then Yearly (popular).
      expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Current Payment Method', 'Monthly', 'Yearly']);
      expect(planCard('Monthly').getByRole('button', { name: /Current Plan/ })).toBeDisabled();
      expect(planCard('Monthly').queryByText('Popular')).not.toBeInTheDocument();
      expect(planCard('Yearly').getByText('Popular')).toBeInTheDocument();
      expect(planCard('Yearly').getByText('₱990')).toBeInTheDocument();
      expect(planCard('Yearly').getByText('/ yearly')).toBeInTheDocument();
      expect(planCard('Monthly').getByText('/ monthly')).toBeInTheDocument();
      expect(planCard('Yearly').getByText('Save ₱198 a year')).toBeInTheDocument();
      const select = planCard('Yearly').getByRole('button', { name: /Select Plan/ });
      expect(select).toHaveAttribute('aria-pressed', String(snapshot.context.selectedPlanId === 2));
      // Chosen is said in words too, not only by the border's colour.
      if (snapshot.context.selectedPlanId === 2) expect(planCard('Yearly').getByText('✓ Chosen')).toBeInTheDocument();
      else expect(screen.queryByText('✓ Chosen')).not.toBeInTheDocument();
      if (attemptedWithoutPlan) expect(await screen.findByText('Please select a plan')).toBeInTheDocument();
      expect(run.location.history.at(-1)).toBe('/subscription/change-plan');
    },
    'open.previewing': async () => {
      // The dialog's code is loaded on first use (OnDemand): a slow machine shows it a moment later.
      await screen.findByRole('alertdialog', {}, { timeout: 5000 });
      expect(dialog().getByRole('heading', { name: 'Are you sure you want to change your plan?' })).toBeInTheDocument();
      expect(dialog().getByText(/changing to the Yearly plan\. The payment is taken immediately with your current payment method, and the remaining days/)).toBeInTheDocument();
      expect(dialog().getByRole('status')).toHaveTextContent('Calculating your new plan...');
      expect(yes()).toBeDisabled();
      expect(dialog().getByRole('button', { name: 'Cancel' })).toBeEnabled();
    },
    'open.confirming': () => {
      const facts = dialog();
      expect(facts.getByText('Charged now').nextSibling).toHaveTextContent('₱990');
      expect(facts.getByText('Days carried over').nextSibling).toHaveTextContent('20 days');
      // product.md#dates: Asia/Manila, month/day/year, 12-hour clock.
      expect(facts.getByText('New end date').nextSibling).toHaveTextContent('02/04/2028 8:00 am');
      expect(dialog().queryByRole('alert')).not.toBeInTheDocument();
      expect(dialog().queryByRole('status')).not.toBeInTheDocument();
      expect(yes()).toBeEnabled();
    },
    'open.previewFailed': (_run, snapshot) => {
      expect(dialog().getByRole('alert')).toHaveTextContent(snapshot.context.error as string);
      expect(yes()).toBeDisabled();
      expect(dialog().queryByRole('status')).not.toBeInTheDocument();
    },
    'open.changing': () => {
      expect(dialog().getByRole('button', { name: 'Changing...' })).toBeDisabled();
      expect(dialog().getByRole('button', { name: 'Cancel' })).toBeDisabled();
      expect(dialog().getByRole('button', { name: 'Close' })).toBeDisabled();
    },
    'open.rejected': async () => {
      expect(dialog().getByRole('alert')).toHaveTextContent(DECLINED);
      // The error toast carries the same server message; the numbers stay in view.
      expect(await screen.findAllByText(DECLINED)).toHaveLength(2);
      expect(dialog().getByText('20 days')).toBeInTheDocument();
      expect(yes()).toBeEnabled();
    },
    changed: async (run) => {
      await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
      if (vi.mocked(leaveFor).mock.calls.length) {
        // A checkout subscription pays on the gateway's page; the app does not route anywhere itself.
        expect(vi.mocked(leaveFor).mock.calls).toEqual([[CHECKOUT_LINK]]);
        expect(await screen.findByText(PAY_TO_CHANGE)).toBeInTheDocument();
        expect(run.location.history.at(-1)).toBe('/subscription/change-plan');
      } else {
        await waitFor(() => expect(run.location.history.at(-1)).toBe('/subscription'));
        expect(await screen.findByText(CHANGED)).toBeInTheDocument();
      }
    },
  },
});
