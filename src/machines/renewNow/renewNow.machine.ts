/**
 * "Renew now" (product.md#checkout-renewal, product.md#dunning): a Maya Checkout subscription never renews by
 * itself, so from 3 days before its end date the subscription page offers to pay the next period; a PAST_DUE
 * subscription (any method) offers it beside Change Payment Method, to pay the overdue period at once and keep
 * renewing on its method. Pressing it asks the server for the period's hosted checkout and leaves for it (an
 * action the view binds); a refusal is shown next to the button and toasted, and the person may try again.
 */
import { assign, setup } from 'xstate';
import { notProvided } from '../actors';
import { errorMessageOf, type Notify } from '../shared';

export interface RenewNowContext {
  /** The subscription being paid (the page's notice names it). */
  subscriptionId: string | null;
  error: string | null;
}

export type RenewNowEvent = { type: 'renew.start'; subscriptionId: string };

export const renewNowMachine = setup({
  types: {
    context: {} as RenewNowContext,
    events: {} as RenewNowEvent,
  },
  actors: {
    renewWithCheckout: notProvided<'renewWithCheckout'>('renewWithCheckout'),
  },
  actions: {
    assignRequest: assign(({ event }) => ({ subscriptionId: event.subscriptionId, error: null })),
    assignError: assign((_, params: { message: string }) => ({ error: params.message })),
    notify: (_, _params: Notify) => {},
    openPaymentLink: (_, _params: { url: string }) => {},
    subscriptionChanged: () => {},
  },
}).createMachine({
  id: 'renewNow',
  description:
    'On /subscription, a Maya Checkout subscription near its end, or a PAST_DUE subscription, offers Renew now: the server opens the period\'s hosted checkout and the person leaves for it; a refusal is shown and toasted.',
  meta: {
    title: 'Renew now',
    events: {
      'renew.start': 'The person presses Renew now',
    },
  },
  context: { subscriptionId: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      description: 'The reminder (or the failed-renewal notice) with Renew now',
      meta: { screen: '/subscription' },
      on: { 'renew.start': { target: 'opening', actions: 'assignRequest' } },
    },
    opening: {
      description: 'Opening the checkout',
      invoke: {
        id: 'renewWithCheckout',
        src: 'renewWithCheckout',
        input: ({ context }) => ({ subscriptionId: context.subscriptionId! }),
        onDone: {
          target: 'leaving',
          actions: { type: 'openPaymentLink', params: ({ event }) => ({ url: event.output.paymentLink }) },
        },
        onError: {
          target: 'rejected',
          actions: [
            { type: 'assignError', params: ({ event }) => ({ message: errorMessageOf(event) }) },
            { type: 'notify', params: ({ event }) => ({ kind: 'error', message: errorMessageOf(event) }) },
            // A refusal usually means the subscription changed meanwhile (paid, ended): read it again.
            'subscriptionChanged',
          ],
        },
      },
    },
    leaving: { description: 'Going to Maya\'s checkout page', type: 'final' },
    rejected: {
      description: 'Showing why it could not open',
      on: { 'renew.start': { target: 'opening', actions: 'assignRequest' } },
    },
  },
});

export type RenewNowMachine = typeof renewNowMachine;
