/**
 * The subscription home (product.md#subscription): the current status, the history and the payments
 * load side by side; each part shows a skeleton, then its data or its error with 'Try again'.
 * The data itself stays in React Query (the view reads it); the chart only knows where each part is.
 */
import { placeholder } from '../actors';
import { assign, setup } from 'xstate';
import type { PaymentRecord, SubscriptionHistoryItem, SubscriptionStatusDetails } from '../../api/schemas';
import { errorMessageOf } from '../shared';

export interface SubscriptionContext {
  statusError: string | null;
  historyError: string | null;
  paymentsError: string | null;
}

/** 'load.retry' reloads every part that failed (one answer usually fails them all). */
export type SubscriptionEvent = { type: 'load.retry' };

export const subscriptionMachine = setup({
  types: {
    context: {} as SubscriptionContext,
    events: {} as SubscriptionEvent,
  },
  actors: {
    loadStatus: placeholder<SubscriptionStatusDetails>('loadStatus'),
    loadHistory: placeholder<SubscriptionHistoryItem[]>('loadHistory'),
    loadPayments: placeholder<PaymentRecord[]>('loadPayments'),
  },
  actions: {
    assignStatusError: assign(({ event }) => ({ statusError: errorMessageOf(event) })),
    assignHistoryError: assign(({ event }) => ({ historyError: errorMessageOf(event) })),
    assignPaymentsError: assign(({ event }) => ({ paymentsError: errorMessageOf(event) })),
  },
}).createMachine({
  id: 'subscription',
  description:
    'On /subscription the current status, the history and the payments load side by side; each part shows a skeleton, then its data or its error with Try again.',
  meta: {
    title: 'Subscription home',
    events: {
      'load.retry': 'The person presses Try again',
    },
  },
  type: 'parallel',
  context: { statusError: null, historyError: null, paymentsError: null },
  states: {
    status: {
      description: 'The current status',
      initial: 'loading',
      states: {
        loading: {
          description: 'Skeleton while loading',
          invoke: {
            id: 'loadStatus',
            src: 'loadStatus',
            onDone: 'ready',
            onError: { target: 'failed', actions: 'assignStatusError' },
          },
        },
        ready: { description: 'Shown' },
        failed: { description: 'Error with Try again', on: { 'load.retry': 'loading' } },
      },
    },
    history: {
      description: 'The history',
      initial: 'loading',
      states: {
        loading: {
          description: 'Skeleton while loading',
          invoke: {
            id: 'loadHistory',
            src: 'loadHistory',
            onDone: 'ready',
            onError: { target: 'failed', actions: 'assignHistoryError' },
          },
        },
        ready: { description: 'Shown' },
        failed: { description: 'Error with Try again', on: { 'load.retry': 'loading' } },
      },
    },
    payments: {
      description: 'The payments',
      initial: 'loading',
      states: {
        loading: {
          description: 'Skeleton while loading',
          invoke: {
            id: 'loadPayments',
            src: 'loadPayments',
            onDone: 'ready',
            onError: { target: 'failed', actions: 'assignPaymentsError' },
          },
        },
        ready: { description: 'Shown' },
        failed: { description: 'Error with Try again', on: { 'load.retry': 'loading' } },
      },
    },
  },
});

export type SubscriptionMachine = typeof subscriptionMachine;
