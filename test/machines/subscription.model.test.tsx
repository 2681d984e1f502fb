import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { ApiError } from '../../src/api/http';
import { createQueryClient } from '../../src/api/queries';
import { currentLocale, m, overwriteGetLocale, type Locale } from '../../src/i18n';
import { subscriptionMachine } from '../../src/machines/subscription/subscription.machine';
import SubscriptionPage from '../../src/views/pages/SubscriptionPage';
import { describeModel, generatePaths } from '../support/model';
import { cachingActors, historyFixture, paymentsFixture, premiumStatus, readKeys, renderSubscriptionView } from '../support/subscription';

type Part = 'status' | 'history' | 'payments';
const PARTS: Part[] = ['status', 'history', 'payments'];
// The words a person reads, from the catalog: the suite runs in English and in Bisaya (issue 20).
const REGION: Record<Part, () => string> = { status: m.current_subscription, history: m.subscription_history, payments: m.payments };
const LOADING: Record<Part, () => string> = { status: m.loading_subscription, history: m.loading_history, payments: m.loading_payments };
const region = (part: Part) => within(screen.getByRole('region', { name: REGION[part]() }));

const events = { 'load.retry': [{ type: 'load.retry' as const }] };
const invocations = {
  loadStatus: { done: [premiumStatus], error: [new ApiError('Something went wrong', 500)] },
  loadHistory: { done: [historyFixture], error: [new ApiError('Network error')] },
  loadPayments: { done: [paymentsFixture], error: [new ApiError('Payments are resting, try again shortly', 503)] },
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
      expect(region('status').getByText(`₱99 ${m.monthly()}`)).toBeInTheDocument();
      expect(region('status').getByText('**** **** **** 1381')).toBeInTheDocument();
      expect(region('status').getByRole('button', { name: m.cancel_subscription() })).toBeEnabled();
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
    beforeAll(() => overwriteGetLocale(() => locale));
    afterAll(() => overwriteGetLocale(() => 'en'));
    it('renders in that language', () => expect(currentLocale()).toBe(locale));

    describeModel(locale === 'en' ? 'subscription' : `subscription (${locale})`, {
      machine: subscriptionMachine,
      events,
      invocations,
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
