/**
 * Change payment method (product.md#change-payment-method, product.md#method-selector,
 * product.md#other-rules, product.md#errors; issue 9). The selector: the option starts from the current method (MAYA_VAULT → card,
 * MAYA_WALLET → wallet, MAYA_CHECKOUT → checkout; nothing for a voucher, which cannot change), a
 * wallet-link return forces the wallet option and shows its banner, and leaving the wallet option
 * clears the link status and the `wallet-method` marker. The card and wallet parts are their own
 * flows (cardEntry, walletLink, shared with the subscribe wizard); this chart receives what they end
 * with. Saving calls update-payment-method, refreshes status and history, and goes to /subscription.
 */
import { assign, setup } from 'xstate';
import type { PaymentMethod, SubscriptionStatusDetails } from '../../api/schemas';
import { m } from '../../i18n';
import { notProvided, placeholder } from '../actors';
import type { ChosenCard } from '../cardEntry/cardEntry.machine';
import { errorMessageOf, type Navigation, type Notify } from '../shared';
import type { WalletLinkOutcome } from '../walletLink/walletLink.machine';
import type { PaymentMethodLocation } from './paymentMethod.address';

export type MethodOption = 'card' | 'wallet' | 'checkout';

// Catalog messages (issue 20): read when said, in the language in use.
export const CONNECT_WALLET = m.please_connect_your_maya_wallet_to;
export const CHECKOUT_CONFIRMATION = m.are_you_sure_you_want_to_proceed;
export const METHOD_UPDATED_FALLBACK = m.your_payment_method_has_been_updated;

const OPTION_OF: Partial<Record<PaymentMethod, MethodOption>> = { MAYA_VAULT: 'card', MAYA_WALLET: 'wallet', MAYA_CHECKOUT: 'checkout' };

/** product.md#method-selector: the option that matches the current method; a wallet-link return forces the wallet. */
export function initialOption(method: PaymentMethod | null, walletMethod: boolean): MethodOption | null {
  if (walletMethod) return 'wallet';
  return method ? (OPTION_OF[method] ?? null) : null;
}

export interface PaymentMethodContext {
  walletMethod: boolean;
  linkStatus: WalletLinkOutcome | null;
  subscriptionId: string | null;
  option: MethodOption | null;
  /** The active subscription renews from the linked wallet: unlinking it asks first. */
  renewsOnWallet: boolean;
  error: string | null;
  /** Failed saves so far: the card form starts afresh after each (its own flow has ended). */
  attempt: number;
}

export type PaymentMethodEvent =
  | { type: 'option.select'; option: MethodOption }
  | { type: 'card.chosen'; card: ChosenCard }
  /** 'Save Payment Method' on the wallet option, with the link the wallet panel says is usable. */
  | { type: 'wallet.save'; linkId: string | null }
  | { type: 'checkout.save' }
  | { type: 'load.retry' };

export interface UpdatePaymentMethodRequest {
  subscriptionId: string;
  paymentMethod: 'MAYA_VAULT' | 'MAYA_WALLET' | 'MAYA_CHECKOUT';
  paymentMethodDetails?: string;
}

export const paymentMethodMachine = setup({
  types: {
    context: {} as PaymentMethodContext,
    events: {} as PaymentMethodEvent,
    input: {} as PaymentMethodLocation,
  },
  actors: {
    loadStatus: placeholder<SubscriptionStatusDetails>('loadStatus'),
    /** The browser's own confirmation (product.md#other-rules); answers whether the person agreed. */
    confirmCheckout: placeholder<boolean, { message: string }>('confirmCheckout'),
    updatePaymentMethod: notProvided<'updatePaymentMethod'>('updatePaymentMethod'),
  },
  guards: {
    isVoucher: (_, params: { status: SubscriptionStatusDetails }) =>
      params.status.paymentMethod === 'VOUCHER' || Boolean(params.status.isVoucherSubscription),
    hasSubscription: (_, params: { status: SubscriptionStatusDetails }) =>
      params.status.planType === 'PREMIUM' && Boolean(params.status.subscriptionId),
    isLeavingWallet: ({ context, event }) => event.type === 'option.select' && context.option === 'wallet' && event.option !== 'wallet',
    hasLink: (_, params: { linkId: string | null }) => Boolean(params.linkId),
    isConfirmed: (_, params: { confirmed: boolean }) => params.confirmed,
  },
  actions: {
    assignStatus: assign(({ context }, params: { status: SubscriptionStatusDetails }) => ({
      subscriptionId: params.status.subscriptionId,
      option: initialOption(params.status.paymentMethod, context.walletMethod),
      renewsOnWallet: params.status.paymentMethod === 'MAYA_WALLET' && params.status.status === 'ACTIVE',
    })),
    assignOption: assign((_, params: { option: MethodOption }) => ({ option: params.option, error: null })),
    forgetWalletReturn: assign({ walletMethod: false, linkStatus: null }),
    assignError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearError: assign({ error: null }),
    countAttempt: assign(({ context }) => ({ attempt: context.attempt + 1 })),
    notify: (_, _params: Notify) => {},
    subscriptionChanged: () => {},
    goTo: (_, _params: Navigation) => {},
    /** The address follows the flow: bound by the view to the router (replace). */
    showAddress: (_, _params: PaymentMethodLocation) => {},
  },
}).createMachine({
  id: 'paymentMethod',
  description:
    'A premium subscriber changes how the next payments are taken, on /subscription/change-payment-method: a card (the saved one or a new one), a linked Maya wallet, or checkout (after the browser asks to confirm). The current method is chosen to start with; back from linking a wallet, the wallet is. Saving shows the server\'s message and goes to /subscription; a refusal is toasted and the person can try again. Without a subscription the page goes back to /subscription; a voucher subscription cannot change.',
  meta: {
    title: 'Change payment method',
    events: {
      'option.select': 'The person picks Credit/Debit, Wallet or Checkout',
      'card.chosen': 'The card part ends with a card (Save Payment Method)',
      'wallet.save': 'The person presses Save Payment Method on the wallet option',
      'checkout.save': 'The person presses Save Payment Method on the checkout option',
      'load.retry': 'The person tries loading the page again',
    },
  },
  context: ({ input }) => ({ ...input, subscriptionId: null, option: null, renewsOnWallet: false, error: null, attempt: 0 }),
  initial: 'loadingStatus',
  states: {
    loadingStatus: {
      description: 'Loading the subscription status',
      meta: { screen: '/subscription/change-payment-method' },
      invoke: {
        id: 'loadStatus',
        src: 'loadStatus',
        onDone: [
          { guard: { type: 'isVoucher', params: ({ event }) => ({ status: event.output }) }, target: 'voucher', description: 'A voucher subscription' },
          {
            guard: { type: 'hasSubscription', params: ({ event }) => ({ status: event.output }) },
            target: 'choosing',
            description: 'A premium subscription',
            actions: { type: 'assignStatus', params: ({ event }) => ({ status: event.output }) },
          },
          // product.md#change-payment-method: with no subscription the page says so and goes back to /subscription.
          { target: 'noSubscription', description: 'No subscription', actions: { type: 'goTo', params: { path: '/subscription', replace: true } } },
        ],
        onError: { target: 'failed', actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessageOf(event) }) } },
      },
    },
    failed: { description: 'The page could not load', on: { 'load.retry': { target: 'loadingStatus', actions: 'clearError' } } },
    noSubscription: { description: 'No subscription found' },
    // product.md#change-payment-method: a voucher subscription sees its code and the note, nothing else.
    voucher: { description: 'A voucher subscription cannot change payment methods' },
    choosing: {
      description: 'Choosing a payment method',
      meta: { screen: '/subscription/change-payment-method' },
      on: {
        'option.select': [
          {
            guard: 'isLeavingWallet',
            description: 'Leaving the wallet option (its link status is cleared)',
            actions: [
              { type: 'assignOption', params: ({ event }) => ({ option: event.option }) },
              'forgetWalletReturn',
              { type: 'showAddress', params: { walletMethod: false, linkStatus: null } },
            ],
          },
          { description: 'Picking an option', actions: { type: 'assignOption', params: ({ event }) => ({ option: event.option }) } },
        ],
        'card.chosen': { target: 'saving', actions: 'clearError' },
        'wallet.save': [
          { guard: { type: 'hasLink', params: ({ event }) => ({ linkId: event.linkId }) }, target: 'saving', description: 'Save with a linked wallet' },
          { description: 'Save with no wallet linked', actions: { type: 'notify', params: { kind: 'error', message: CONNECT_WALLET } } },
        ],
        'checkout.save': 'confirmingCheckout',
      },
    },
    confirmingCheckout: {
      description: 'The browser asks to confirm checkout',
      invoke: {
        id: 'confirmCheckout',
        src: 'confirmCheckout',
        input: () => ({ message: CHECKOUT_CONFIRMATION() }),
        onDone: [
          { guard: { type: 'isConfirmed', params: ({ event }) => ({ confirmed: event.output }) }, target: 'saving', description: 'Checkout confirmed' },
          { target: 'choosing', description: 'Checkout declined' },
        ],
        onError: { target: 'choosing', description: 'No answer from the confirmation' },
      },
    },
    saving: {
      description: 'Saving the payment method',
      invoke: {
        id: 'updatePaymentMethod',
        src: 'updatePaymentMethod',
        input: ({ context, event }) => requestFor(context, event),
        onDone: {
          target: 'saved',
          description: 'Payment method saved',
          actions: [
            { type: 'notify', params: ({ event }) => ({ kind: 'success', message: event.output.message || METHOD_UPDATED_FALLBACK }) },
            'subscriptionChanged',
            { type: 'goTo', params: { path: '/subscription' } },
          ],
        },
        onError: {
          target: 'choosing',
          description: 'Save refused',
          actions: [
            { type: 'assignError', params: ({ event }) => ({ message: errorMessageOf(event) }) },
            { type: 'notify', params: ({ event }) => ({ kind: 'error', message: errorMessageOf(event) }) },
            'countAttempt',
          ],
        },
      },
    },
    saved: { type: 'final', description: 'Saved: back to /subscription' },
  },
});

/** The update-payment-method payload for the event that started the save (product.md#calls). */
function requestFor(context: PaymentMethodContext, event: { type: string; card?: ChosenCard; linkId?: string | null }): UpdatePaymentMethodRequest {
  const subscriptionId = context.subscriptionId!;
  if (event.type === 'card.chosen' && event.card) {
    return { subscriptionId, paymentMethod: 'MAYA_VAULT', paymentMethodDetails: JSON.stringify({ cardTokenId: event.card.cardTokenId }) };
  }
  if (event.type === 'wallet.save' && event.linkId) {
    return { subscriptionId, paymentMethod: 'MAYA_WALLET', paymentMethodDetails: JSON.stringify({ mayaWalletId: event.linkId }) };
  }
  return { subscriptionId, paymentMethod: 'MAYA_CHECKOUT' };
}

export type PaymentMethodMachine = typeof paymentMethodMachine;
