/**
 * Keep the current plan (product.md#scheduled-downgrade): a move down waits for the end of the paid
 * period, and until then the subscription card says so with 'Keep {plan}'. Pressing it asks the server
 * to undo the scheduled change; the answer is toasted and the subscription read again (the line goes);
 * a refusal (the period has just ended, the subscription changed) is shown beside the button, toasted,
 * and the subscription read again.
 */
import { assign, setup } from 'xstate';
import { notProvided } from '../actors';
import { errorMessageOf, type Notify } from '../shared';

export interface KeepPlanContext {
  subscriptionId: string | null;
  error: string | null;
}

export type KeepPlanEvent = { type: 'keep.press'; subscriptionId: string };

export const keepPlanMachine = setup({
  types: {
    context: {} as KeepPlanContext,
    events: {} as KeepPlanEvent,
  },
  actors: {
    keepPlan: notProvided<'keepPlan'>('keepPlan'),
  },
  actions: {
    assignRequest: assign(({ event }) => ({ subscriptionId: event.subscriptionId, error: null })),
    assignError: assign((_, params: { message: string }) => ({ error: params.message })),
    notify: (_, _params: Notify) => {},
    subscriptionChanged: () => {},
  },
}).createMachine({
  id: 'keepPlan',
  description:
    'On /subscription, a move down scheduled for the end of the paid period shows the day it happens and Keep {plan}: the server undoes it, the answer is toasted and the subscription read again; a refusal is shown and toasted.',
  meta: {
    title: 'Keep the current plan',
    events: {
      'keep.press': 'The person presses Keep {plan}',
    },
  },
  context: { subscriptionId: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      description: 'The scheduled change with Keep {plan}',
      meta: { screen: '/subscription' },
      on: { 'keep.press': { target: 'undoing', actions: 'assignRequest' } },
    },
    undoing: {
      description: 'Undoing the scheduled change',
      invoke: {
        id: 'keepPlan',
        src: 'keepPlan',
        input: ({ context }) => ({ subscriptionId: context.subscriptionId! }),
        onDone: {
          target: 'kept',
          actions: [
            // The server always says what was kept and until when ('You keep the Yearly plan. It renews on …').
            { type: 'notify', params: ({ event }) => ({ kind: 'success', message: event.output.message }) },
            'subscriptionChanged',
          ],
        },
        onError: {
          target: 'rejected',
          actions: [
            { type: 'assignError', params: ({ event }) => ({ message: errorMessageOf(event) }) },
            { type: 'notify', params: ({ event }) => ({ kind: 'error', message: errorMessageOf(event) }) },
            'subscriptionChanged',
          ],
        },
      },
    },
    kept: {
      description: 'Kept: the subscription is read again, and the line goes',
      on: { 'keep.press': { target: 'undoing', actions: 'assignRequest' } },
    },
    rejected: {
      description: 'Showing why it could not be undone',
      on: { 'keep.press': { target: 'undoing', actions: 'assignRequest' } },
    },
  },
});

export type KeepPlanMachine = typeof keepPlanMachine;
