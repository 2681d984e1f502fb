/**
 * "Renew now" (product.md#checkout-renewal, product.md#pay-now): a Maya Checkout subscription near its end
 * offers to pay the next period on Maya's hosted checkout; a PAST_DUE subscription offers to pay the
 * overdue period now, beside Change Payment Method: on its own card or wallet (a card whose bank asks to
 * confirm goes to the bank's page: the step a renewal made while nobody was there could not take), or on
 * the hosted checkout. Pressing it asks the server to pay; the person leaves for Maya's page, or is told
 * it is paid (or still being processed) while the page reads the subscription again; a refusal is shown
 * next to the button and toasted, and the person may try again.
 */
import { assign, setup } from 'xstate';
import type { RenewResponse } from '../../api/schemas';
import { m } from '../../i18n';
import { notProvided } from '../actors';
import { errorMessageOf, type Notify } from '../shared';

export interface RenewNowContext {
  /** The subscription being paid (the page's notice names it). */
  subscriptionId: string | null;
  error: string | null;
}

export type RenewNowEvent = { type: 'renew.start'; subscriptionId: string };

type Answered = { output: RenewResponse };

export const renewNowMachine = setup({
  types: {
    context: {} as RenewNowContext,
    events: {} as RenewNowEvent,
  },
  actors: {
    payRenewal: notProvided<'payRenewal'>('payRenewal'),
  },
  guards: {
    toMaya: ({ event }) => 'paymentLink' in (event as unknown as Answered).output,
    paid: ({ event }) => 'paid' in (event as unknown as Answered).output,
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
    'On /subscription, a Maya Checkout subscription near its end, or a PAST_DUE subscription, offers Renew now: the server pays the period on the subscription\'s card or wallet (or opens Maya\'s page: the hosted checkout, or the bank\'s confirmation) and the page says so or leaves for it; a refusal is shown and toasted.',
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
      on: { 'renew.start': { target: 'paying', actions: 'assignRequest' } },
    },
    paying: {
      description: 'Paying the period, or opening Maya\'s page for it',
      invoke: {
        id: 'payRenewal',
        src: 'payRenewal',
        input: ({ context }) => ({ subscriptionId: context.subscriptionId! }),
        onDone: [
          {
            guard: 'toMaya',
            target: 'leaving',
            actions: { type: 'openPaymentLink', params: ({ event }) => ({ url: (event.output as { paymentLink: string }).paymentLink }) },
          },
          {
            guard: 'paid',
            target: 'paid',
            actions: [{ type: 'notify', params: { kind: 'success', message: m.paid_your_premium_continues } }, 'subscriptionChanged'],
          },
          {
            target: 'processing',
            actions: [{ type: 'notify', params: { kind: 'info', message: m.your_payment_is_being_processed } }, 'subscriptionChanged'],
          },
        ],
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
    leaving: { description: 'Going to Maya\'s page: the hosted checkout, or the bank\'s confirmation', type: 'final' },
    paid: {
      description: 'Paid on the subscription\'s card or wallet: the page reads the subscription again',
      on: { 'renew.start': { target: 'paying', actions: 'assignRequest' } },
    },
    processing: {
      description: 'Maya has not answered yet: the page reads the subscription again and shows it when it is known',
      on: { 'renew.start': { target: 'paying', actions: 'assignRequest' } },
    },
    rejected: {
      description: 'Showing why it could not be paid',
      on: { 'renew.start': { target: 'paying', actions: 'assignRequest' } },
    },
  },
});

export type RenewNowMachine = typeof renewNowMachine;
