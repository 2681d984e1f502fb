import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { ApiError } from '../../src/api/http';
import { createQueryClient } from '../../src/api/queries';
import { currentLocale, m, overwriteGetLocale, type Locale } from '../../src/i18n';
import { formatDate } from '../../src/lib/dates';
import { subscriptionMachine } from '../../src/machines/subscription/subscription.machine';
import SubscriptionPage from '../../src/views/pages/SubscriptionPage';
import { describeModel, generatePaths } from '../support/model';
import { SEED_PLANS, seededPlanTexts } from '../../server/billing/catalog';
import type { PaymentRecord, SubscriptionHistoryItem, SubscriptionStatusDetails } from '../../src/api/schemas';
import { cachingActors, historyFixture, pastDueStatus, paymentsFixture, premiumStatus, readKeys, renderSubscriptionView } from '../support/subscription';

type Part = 'status' | 'history' | 'payments';
const PARTS: Part[] = ['status', 'history', 'payments'];
// The words a person reads, from the catalog: the suite runs in English and in Bisaya (issue 20).
const REGION: Record<Part, () => string> = { status: m.current_subscription, history: m.subscription_history, payments: m.payments };
const LOADING: Record<Part, () => string> = { status: m.loading_subscription, history: m.loading_history, payments: m.loading_payments };
const region = (part: Part) => within(screen.getByRole('region', { name: REGION[part]() }));

/**
 * What the API answers in each language (issue 37, product.md#plan-texts): in Bisaya every plan is named
 * by its Bisaya text (the seeded plans' texts, server/billing/catalog.ts), and the Bisaya suite's status
 * is a failed renewal, whose reason the card says in Bisaya.
 */
interface Answers { status: SubscriptionStatusDetails; history: SubscriptionHistoryItem[]; payments: PaymentRecord[] }
function answersIn(locale: Locale): Answers {
  if (locale === 'en') return { status: premiumStatus, history: historyFixture, payments: paymentsFixture };
  const named = (name: string) => seededPlanTexts(SEED_PLANS.find((plan) => plan.name === name)?.slug ?? '')[locale]?.name ?? name;
  return {
    status: { ...pastDueStatus, planName: named(pastDueStatus.planName) },
    history: historyFixture.map((item) => ({ ...item, plan: named(item.plan) })),
    payments: paymentsFixture.map((payment) => ({ ...payment, planName: payment.planName && named(payment.planName) })),
  };
}
/** Every English plan name: none is shown in Bisaya. */
const ENGLISH_PLAN_NAMES = SEED_PLANS.map((plan) => plan.name);
let answers = answersIn('en');
let inEnglish = true;

const events = { 'load.retry': [{ type: 'load.retry' as const }] };
const invocationsIn = (locale: Locale) => {
  const shown = answersIn(locale);
  return {
    loadStatus: { done: [shown.status], error: [new ApiError('Something went wrong', 500)] },
    loadHistory: { done: [shown.history], error: [new ApiError('Network error')] },
    loadPayments: { done: [shown.payments], error: [new ApiError('Payments are resting, try again shortly', 503)] },
  };
};
const invocations = invocationsIn('en');
const noEnglishPlanName = (part: Part) => {
  if (inEnglish) return;
  for (const name of ENGLISH_PLAN_NAMES) expect(region(part).queryAllByText(name, { exact: false }), name).toHaveLength(0);
};
const partOf: Record<string, Part> = { loadStatus: 'status', loadHistory: 'history', loadPayments: 'payments' };

/**
 * The parts answer in order (status, then history, then payments) so that paths stay few while every
 * transition of every part is still walked; retry is walked from every failing combination.
 */
const prune = (snapshot: AnyMachineSnapshot, event: EventObject) => {
  const id = event.type.replace(/^xstate\.(done|error)\.actor\./, '');
  const part = partOf[id];
  if (!part) return true;
  const value = snapshot.value as Record<Part, string>;
  const earlier = PARTS.slice(0, PARTS.indexOf(part));
  return earlier.every((p) => value[p] !== 'loading');
};

const assertPart: Record<Part, Record<string, () => void>> = {
  status: {
    loading: () => {
      expect(region('status').getByRole('status')).toHaveTextContent(LOADING.status());
      expect(region('status').queryByRole('button', { name: m.try_again() })).not.toBeInTheDocument();
    },
    ready: () => {
      expect(region('status').getByText(answers.status.planName, { selector: 'p' })).toBeInTheDocument();
      const renewal = answers.status.renewal;
      if (renewal?.state === 'PAST_DUE') expect(region('status').getByText(`${m.your_payment_was_declined()}.`)).toBeInTheDocument();
      noEnglishPlanName('status');
      expect(region('status').getByText(`₱99 ${m.monthly()}`)).toBeInTheDocument();
      // The one-line state at the top (review expectation 4), then the method once.
      const summary = answers.status.status === 'PAST_DUE'
        ? m.premium_payment_overdue({ amount: '₱99' })
        : m.premium_renews_for_on({ date: formatDate(premiumStatus.endDate!), amount: '₱99', method: 'Visa •••• 1381' });
      expect(region('status').getByText(summary)).toBeInTheDocument();
      expect(region('status').getByText('Visa •••• 1381')).toBeInTheDocument();
      // The destructive action last, outlined in the danger colour.
      const cancel = region('status').getByRole('button', { name: m.cancel_subscription() });
      expect(cancel).toBeEnabled();
      expect(cancel.className).toMatch(/button_danger/);
      expect(cancel.parentElement!.lastElementChild).toBe(cancel);
      expect(region('status').queryByRole('status')).not.toBeInTheDocument();
    },
    failed: () => {
      expect(region('status').getByRole('alert')).toHaveTextContent('Something went wrong');
      expect(region('status').getByRole('button', { name: m.try_again() })).toBeEnabled();
      expect(region('status').queryByRole('status')).not.toBeInTheDocument();
    },
  },
  history: {
    loading: () => expect(region('history').getByRole('status')).toHaveTextContent(LOADING.history()),
    ready: () => {
      expect(region('history').getByRole('tab', { name: m.active(), selected: true })).toBeInTheDocument();
      expect(region('history').getByRole('list', { name: m.active_subscriptions() })).toBeInTheDocument();
      expect(region('history').getAllByText(answers.history[0]!.plan).length).toBeGreaterThan(0);
      noEnglishPlanName('history');
      expect(region('history').queryByRole('status')).not.toBeInTheDocument();
    },
    failed: () => {
      expect(region('history').getByRole('alert')).toHaveTextContent('Network error');
      expect(region('history').getByRole('button', { name: m.try_again() })).toBeEnabled();
      expect(region('history').queryByRole('status')).not.toBeInTheDocument();
    },
  },
  payments: {
    loading: () => expect(region('payments').getByRole('status')).toHaveTextContent(LOADING.payments()),
    ready: () => {
      expect(region('payments').getByRole('table')).toBeInTheDocument();
      expect(region('payments').getAllByRole('row')).toHaveLength(paymentsFixture.length + 1);
      expect(region('payments').getAllByText(answers.payments[0]!.planName!)).toHaveLength(paymentsFixture.length);
      noEnglishPlanName('payments');
      expect(region('payments').queryByRole('status')).not.toBeInTheDocument();
    },
    failed: () => {
      expect(region('payments').getByRole('alert')).toHaveTextContent('Payments are resting, try again shortly');
      expect(region('payments').queryByRole('status')).not.toBeInTheDocument();
    },
  },
};

// Every reachable combination of the three parts gets the three parts' assertions.
const { states: reachable } = generatePaths({ machine: subscriptionMachine, events, invocations, prune });
const states = Object.fromEntries(
  [...reachable].map((key) => {
    const value = Object.fromEntries(key.split(',').map((part) => part.split('.') as [Part, string]));
    return [key, () => PARTS.forEach((part) => assertPart[part][value[part]!]!())];
  }),
);

// The same paths in each language: headings, buttons and labels are found by the catalog's words.
for (const locale of ['en', 'ceb'] satisfies Locale[]) {
  describe(`in ${locale}`, () => {
    beforeAll(() => {
      overwriteGetLocale(() => locale);
      answers = answersIn(locale);
      inEnglish = locale === 'en';
    });
    afterAll(() => {
      overwriteGetLocale(() => 'en');
      answers = answersIn('en');
      inEnglish = true;
    });
    it('renders in that language', () => expect(currentLocale()).toBe(locale));

    describeModel(locale === 'en' ? 'subscription' : `subscription (${locale})`, {
      machine: subscriptionMachine,
      events,
      invocations: invocationsIn(locale),
      prune,
      render: ({ actors, inspect }) => {
        // The harness's deferreds also fill the cache the view reads, as the real actors' fetchQuery does.
        const queryClient = createQueryClient();
        return renderSubscriptionView(<SubscriptionPage />, {
          path: '/subscription', queryClient, overrides: { actors: cachingActors(actors.actors, queryClient, readKeys), inspect },
        });
      },
      executors: {
        'load.retry': async (run) => run.user.click(screen.getAllByRole('button', { name: m.try_again() })[0]!),
      },
      states,
    });
  });
}
