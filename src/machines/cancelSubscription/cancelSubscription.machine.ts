/**
 * Cancel and reactivate (product.md#subscription, product.md#subscription-flow, product.md#errors): one dialog confirms, the call runs, the server's message
 * is toasted as a success or an error according to its success flag; the dialog closes on success
 * and stays open with the message on failure. Status, history and payments are refreshed either way
 * (a refusal often means the subscription changed meanwhile).
 */
import { placeholder } from '../actors';
import { assign, setup } from 'xstate';
import { m } from '../../i18n';
import type { RenewalConsent } from '../../api/schemas';
import { errorMessageOf, type Notify, type Text } from '../shared';
import type { MessageResult, SubscriptionRequest } from '../subscription/subscription.actors';

export type SubscriptionChange = 'cancel' | 'reactivate';
/** How a subscription goes on after its date: charged by itself, paid by hand (checkout), or not at all (voucher). */
export type Continuation = 'automatic' | 'byHand' | 'none';

export interface CancelSubscriptionContext {
  change: SubscriptionChange;
  subscriptionId: string | null;
  /** When access ends (cancel) or the next renewal is due (reactivate), as the server sent it. */
  periodEnd: string | null;
  /**
   * How the subscription goes on after periodEnd (the reactivate dialog says it, review finding 10): charged by
   * itself (card, wallet), paid by hand after a reminder (checkout), or not at all (voucher).
   */
  continuation: Continuation;
  /** Canceling a PAST_DUE subscription also stops the retries of its failed renewal (product.md#dunning): the dialog says so. */
  pastDue: boolean;
  error: string | null;
  /** The price it renews at (reactivate): said in the renewal sentence (product.md#renewal-consent). */
  renewalPrice: { amount: string; currency: string } | null;
  /** The renewal sentence the person ticked (reactivating a card or wallet subscription); null until then. */
  renewalConsent: RenewalConsent | null;
  /** Presses of Reactivate without the tick (the view focuses the box on each). */
  consentPrompts: number;
}

export type CancelSubscriptionEvent =
  | {
    type: 'dialog.open'; change: SubscriptionChange; subscriptionId: string; periodEnd: string | null; continuation?: Continuation; pastDue?: boolean;
    renewalPrice?: { amount: string; currency: string };
  }
  | { type: 'dialog.confirm' }
  | { type: 'consent.toggle'; consent: RenewalConsent | null }
  | { type: 'dialog.cancel' };

/** Said when the server's answer carries no message (catalog messages, called when toasted). */
const SUCCESS_FALLBACK: Record<SubscriptionChange, Text> = {
  cancel: m.your_subscription_has_been_canceled,
  reactivate: m.your_subscription_has_been,
};

export const cancelSubscriptionMachine = setup({
  types: {
    context: {} as CancelSubscriptionContext,
    events: {} as CancelSubscriptionEvent,
  },
  actors: {
    cancelSubscription: placeholder<MessageResult, SubscriptionRequest>('cancelSubscription'),
    resubscribe: placeholder<MessageResult, SubscriptionRequest>('resubscribe'),
  },
  guards: {
    isCancel: ({ context }) => context.change === 'cancel',
    /** Reactivating a card or wallet subscription renews it by itself: agreed to first (product.md#renewal-consent). */
    lacksConsent: ({ context }) => context.change === 'reactivate' && context.continuation === 'automatic' && context.renewalConsent === null,
  },
  actions: {
    assignRequest: assign(({ event }) =>
      event.type === 'dialog.open'
        ? {
          change: event.change, subscriptionId: event.subscriptionId, periodEnd: event.periodEnd, continuation: event.continuation ?? 'automatic',
          pastDue: event.pastDue ?? false, error: null, renewalPrice: event.renewalPrice ?? null, renewalConsent: null, consentPrompts: 0,
        }
        : {},
    ),
    assignError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearError: assign({ error: null }),
    assignConsent: assign(({ event }) => (event.type === 'consent.toggle' ? { renewalConsent: event.consent, error: null } : {})),
    countConsentPrompt: assign(({ context }) => ({ consentPrompts: context.consentPrompts + 1 })),
    notify: (_, _params: Notify) => {},
    subscriptionChanged: () => {},
  },
}).createMachine({
  id: 'cancelSubscription',
  description:
    'On /subscription one dialog confirms cancelling an ACTIVE or PAST_DUE subscription (or reactivating a CANCELED one). The server\'s message is toasted; the dialog closes on success and stays open with the message on failure. The subscription is refreshed either way.',
  meta: {
    title: 'Cancel or reactivate',
    events: {
      'dialog.open': 'The person presses Cancel subscription or Reactivate',
      'dialog.cancel': 'The person closes the dialog',
      'dialog.confirm': 'The person confirms',
      'consent.toggle': 'The person ticks or unticks "I agree to automatic renewal" (reactivating a card or wallet subscription)',
    },
  },
  context: {
    change: 'cancel', subscriptionId: null, periodEnd: null, continuation: 'automatic', pastDue: false, error: null, renewalPrice: null, renewalConsent: null, consentPrompts: 0,
  },
  initial: 'closed',
  states: {
    closed: {
      description: 'No dialog',
      meta: { screen: '/subscription' },
      on: { 'dialog.open': { target: 'open', actions: 'assignRequest' } },
    },
    open: {
      description: 'The dialog is open',
      initial: 'confirming',
      states: {
        confirming: { description: 'Asking to confirm (reactivating a card or wallet: the renewal sentence and its tick)' },
        rejected: { description: 'Showing why it failed' },
        // product.md#renewal-consent: Reactivate stays enabled; pressed without the tick, the box says so and takes the focus.
        consentMissing: { description: 'Reactivate was pressed without agreeing to automatic renewal' },
      },
      on: {
        'dialog.cancel': { target: 'closed', actions: 'clearError' },
        'consent.toggle': { target: '.confirming', actions: 'assignConsent' },
        'dialog.confirm': [
          { guard: 'isCancel', target: 'canceling' },
          { guard: 'lacksConsent', target: '.consentMissing', reenter: true, description: 'A card or wallet without the tick', actions: 'countConsentPrompt' },
          { target: 'reactivating' },
        ],
      },
    },
    // Escape and the close button do nothing while a call runs: its answer must be seen.
    canceling: {
      description: 'Cancelling',
      invoke: {
        id: 'cancelSubscription',
        src: 'cancelSubscription',
        input: ({ context }) => ({ subscriptionId: context.subscriptionId! }),
        onDone: {
          target: 'closed',
          actions: [
            { type: 'notify', params: ({ event }) => ({ kind: 'success', message: event.output.message || SUCCESS_FALLBACK.cancel }) },
            'subscriptionChanged',
          ],
        },
        onError: {
          target: 'open.rejected',
          actions: [
            { type: 'assignError', params: ({ event }) => ({ message: errorMessageOf(event) }) },
            { type: 'notify', params: ({ event }) => ({ kind: 'error', message: errorMessageOf(event) }) },
            'subscriptionChanged',
          ],
        },
      },
    },
    reactivating: {
      description: 'Reactivating',
      invoke: {
        id: 'resubscribe',
        src: 'resubscribe',
        input: ({ context }) => ({ subscriptionId: context.subscriptionId!, ...(context.renewalConsent ? { renewalConsent: context.renewalConsent } : {}) }),
        onDone: {
          target: 'closed',
          actions: [
            { type: 'notify', params: ({ event }) => ({ kind: 'success', message: event.output.message || SUCCESS_FALLBACK.reactivate }) },
            'subscriptionChanged',
          ],
        },
        onError: {
          target: 'open.rejected',
          actions: [
            { type: 'assignError', params: ({ event }) => ({ message: errorMessageOf(event) }) },
            { type: 'notify', params: ({ event }) => ({ kind: 'error', message: errorMessageOf(event) }) },
            'subscriptionChanged',
          ],
        },
      },
    },
  },
});

export type CancelSubscriptionMachine = typeof cancelSubscriptionMachine;
