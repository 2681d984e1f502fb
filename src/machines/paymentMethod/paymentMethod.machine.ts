/**
 * Change payment method (product.md#change-payment-method, product.md#method-selector,
 * product.md#other-rules, product.md#errors; issue 9). The selector: the option starts from the current method (MAYA_VAULT → card,
 * MAYA_WALLET → wallet, MAYA_CHECKOUT → checkout; nothing for a voucher, which cannot change), a
 * wallet-link return forces the wallet option and shows its banner, and leaving the wallet option
 * clears the link status and the `wallet-method` marker. The card and wallet parts are their own
 * flows (cardEntry, walletLink, shared with the subscribe wizard); this chart receives what they end
 * with. Saving calls update-payment-method, refreshes status and history, and goes to /subscription.
 */
import { assign, raise, setup } from 'xstate';
import type { PaymentMethod, RenewalConsent, SubscriptionStatusDetails } from '../../api/schemas';
import { m } from '../../i18n';
import { notProvided, placeholder } from '../actors';
import type { ChosenCard } from '../cardEntry/cardEntry.machine';
import { errorMessageOf, type Navigation, type Notify } from '../shared';
import type { CardReturn } from '../cardEntry/cardEntry.address';
import type { WalletLinkOutcome } from '../walletLink/walletLink.machine';
import type { PaymentMethodLocation } from './paymentMethod.address';

export type MethodOption = 'card' | 'wallet' | 'checkout';

// Catalog messages (issue 20): read when said, in the language in use.
export const CONNECT_WALLET = m.please_connect_your_maya_wallet_to;
export const CHECKOUT_CONFIRMATION = m.are_you_sure_you_want_to_proceed;
export const METHOD_UPDATED_FALLBACK = m.your_payment_method_has_been_updated;
/** After a save while PAST_DUE (product.md#method-while-past-due): whether the overdue payment went through. */
export const OVERDUE_PAID = m.your_payment_method_has_been_updated_and;
export const OVERDUE_FAILED = m.your_payment_method_has_been_updated_but;
export const OVERDUE_PENDING = m.your_payment_method_has_been_updated_the;

/** What became of the overdue payment charged on the new method (the awaitCharge actor reads the status). */
export type ChargeOutcome = { outcome: 'paid' } | { outcome: 'failed'; reason: string } | { outcome: 'pending' };

/** The toast for a charge outcome: success when paid, an error when refused, information while it is not known yet. */
export function chargeNotice(result: ChargeOutcome): Notify {
  if (result.outcome === 'paid') return { kind: 'success', message: OVERDUE_PAID };
  if (result.outcome === 'failed') return { kind: 'error', message: () => OVERDUE_FAILED({ reason: result.reason }) };
  return { kind: 'info', message: OVERDUE_PENDING };
}

const OPTION_OF: Partial<Record<PaymentMethod, MethodOption>> = { MAYA_VAULT: 'card', MAYA_WALLET: 'wallet', MAYA_CHECKOUT: 'checkout' };

/**
 * product.md#method-selector: the option that matches the current method; a wallet-link return forces the
 * wallet, and a return from the bank's check of a new card forces the card (its answer is said there).
 */
export function initialOption(method: PaymentMethod | null, walletMethod: boolean, cardReturn: CardReturn | null = null): MethodOption | null {
  if (walletMethod) return 'wallet';
  if (cardReturn) return 'card';
  return method ? (OPTION_OF[method] ?? null) : null;
}

/** The address as the page arrived with it, with the bank's answer about a new card (`card=`, read once). */
export type PaymentMethodInput = PaymentMethodLocation & { cardReturn?: CardReturn | null; renewalConsent?: RenewalConsent | null };

export interface PaymentMethodContext {
  walletMethod: boolean;
  cardReturn: CardReturn | null;
  /** The subscription is PAST_DUE: a new card or wallet is charged at once for the overdue period. */
  pastDue: boolean;
  /** What came of the overdue payment after a save while PAST_DUE (null: none was made). */
  charge: ChargeOutcome | null;
  linkStatus: WalletLinkOutcome | null;
  subscriptionId: string | null;
  option: MethodOption | null;
  /** The active subscription renews from the linked wallet: unlinking it asks first. */
  renewsOnWallet: boolean;
  error: string | null;
  /** Failed saves so far: the card form starts afresh after each (its own flow has ended). */
  attempt: number;
  /** ACTIVE or PAST_DUE: a card or wallet saved now renews it by itself, so it is agreed to (product.md#renewal-consent). */
  renewing: boolean;
  /** The renewal sentence the person ticked; null until then. */
  renewalConsent: RenewalConsent | null;
  /** Saves pressed without the tick (the view focuses the box on each). */
  consentPrompts: number;
}

export type PaymentMethodEvent =
  | { type: 'option.select'; option: MethodOption }
  | { type: 'card.chosen'; card: ChosenCard }
  /** 'Save Payment Method' on the wallet option, with the link the wallet panel says is usable. */
  | { type: 'wallet.save'; linkId: string | null }
  | { type: 'checkout.save' }
  /** The in-page confirmation asked when Checkout is picked (product.md#checkout-confirmation). */
  | { type: 'checkout.confirm' }
  | { type: 'checkout.decline' }
  | { type: 'consent.toggle'; consent: RenewalConsent | null }
  | { type: 'load.retry' };

export interface UpdatePaymentMethodRequest {
  subscriptionId: string;
  paymentMethod: 'MAYA_VAULT' | 'MAYA_WALLET' | 'MAYA_CHECKOUT';
  paymentMethodDetails?: string;
  renewalConsent?: RenewalConsent;
}

export const paymentMethodMachine = setup({
  types: {
    context: {} as PaymentMethodContext,
    events: {} as PaymentMethodEvent,
    input: {} as PaymentMethodInput,
  },
  actors: {
    loadStatus: placeholder<SubscriptionStatusDetails>('loadStatus'),
    updatePaymentMethod: notProvided<'updatePaymentMethod'>('updatePaymentMethod'),
    /** After a save while PAST_DUE: reads the status until the overdue charge is known (or gives up: pending). */
    awaitCharge: placeholder<ChargeOutcome, { chargeAt: string }>('awaitCharge'),
  },
  guards: {
    isVoucher: (_, params: { status: SubscriptionStatusDetails }) =>
      params.status.paymentMethod === 'VOUCHER' || Boolean(params.status.isVoucherSubscription),
    hasSubscription: (_, params: { status: SubscriptionStatusDetails }) =>
      params.status.planType === 'PREMIUM' && Boolean(params.status.subscriptionId),
    isLeavingWallet: ({ context, event }) => event.type === 'option.select' && context.option === 'wallet' && event.option !== 'wallet',
    hasLink: (_, params: { linkId: string | null }) => Boolean(params.linkId),
    isOnWallet: ({ context }) => context.option === 'wallet',
    isPickingCheckout: ({ context, event }) => event.type === 'option.select' && event.option === 'checkout' && context.option !== 'checkout',
    isChargedNow: (_, params: { chargeAt: string | null | undefined }) => Boolean(params.chargeAt),
    /** A card or wallet for a subscription that renews, without the tick (product.md#renewal-consent). */
    lacksConsent: ({ context }) => context.renewing && context.renewalConsent === null,
    walletLacksConsent: ({ context }, params: { linkId: string | null }) => Boolean(params.linkId) && context.renewing && context.renewalConsent === null,
  },
  actions: {
    assignStatus: assign(({ context }, params: { status: SubscriptionStatusDetails }) => ({
      subscriptionId: params.status.subscriptionId,
      option: initialOption(params.status.paymentMethod, context.walletMethod, context.cardReturn),
      pastDue: params.status.status === 'PAST_DUE',
      renewsOnWallet: params.status.paymentMethod === 'MAYA_WALLET' && params.status.status === 'ACTIVE',
      renewing: params.status.status === 'ACTIVE' || params.status.status === 'PAST_DUE',
    })),
    assignConsent: assign(({ event }) => (event.type === 'consent.toggle' ? { renewalConsent: event.consent } : {})),
    countConsentPrompt: assign(({ context }) => ({ consentPrompts: context.consentPrompts + 1, attempt: context.attempt + 1 })),
    assignOption: assign((_, params: { option: MethodOption }) => ({ option: params.option, error: null })),
    forgetWalletReturn: assign({ walletMethod: false, linkStatus: null }),
    assignError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearError: assign({ error: null }),
    assignCharge: assign((_, params: { charge: ChargeOutcome }) => ({ charge: params.charge })),
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
    'A premium subscriber changes how the next payments are taken, on /subscription/change-payment-method: a card (the saved one or a new one), a linked Maya wallet, or checkout (confirmed in the page when it is picked). The current method is chosen to start with; back from linking a wallet, the wallet is; back from the bank\'s check of a new card, the card is. Saving shows the server\'s message and goes to /subscription; while PAST_DUE a new card or wallet is charged at once, and the page waits to say whether the overdue payment went through. A refusal is toasted and the person can try again. Without a subscription the page goes back to /subscription; a voucher subscription cannot change.',
  meta: {
    title: 'Change payment method',
    events: {
      'option.select': 'The person picks Credit/Debit, Wallet or Checkout',
      'card.chosen': 'The card part ends with a card (Save Payment Method)',
      'wallet.save': 'The person presses Save Payment Method on the wallet option',
      'checkout.save': 'The person presses Save Payment Method on the checkout option',
      'checkout.confirm': 'The person agrees to checkout in the confirmation',
      'checkout.decline': 'The person keeps the method they had (Cancel, Escape)',
      'consent.toggle': 'The person ticks or unticks "I agree to automatic renewal" (card or wallet)',
      'load.retry': 'The person tries loading the page again',
    },
  },
  context: ({ input }) => ({
    walletMethod: input.walletMethod, linkStatus: input.linkStatus, cardReturn: input.cardReturn ?? null,
    pastDue: false, charge: null, subscriptionId: null, option: null, renewsOnWallet: false, error: null, attempt: 0,
    renewing: false, renewalConsent: input.renewalConsent ?? null, consentPrompts: 0,
  }),
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
          // product.md#checkout-confirmation: asked the moment Checkout is picked, in the page.
          { guard: 'isPickingCheckout', target: 'confirmingCheckout', description: 'Picking Checkout asks first' },
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
        'card.chosen': [
          { guard: 'lacksConsent', target: 'consentMissing', description: 'A card without the tick', actions: ['clearError', 'countConsentPrompt'] },
          { target: 'saving', actions: 'clearError' },
        ],
        'consent.toggle': { actions: 'assignConsent' },
        'wallet.save': [
          {
            guard: { type: 'walletLacksConsent', params: ({ event }) => ({ linkId: event.linkId }) },
            target: 'consentMissing',
            description: 'A linked wallet without the tick',
            actions: ['clearError', 'countConsentPrompt'],
          },
          { guard: { type: 'hasLink', params: ({ event }) => ({ linkId: event.linkId }) }, target: 'saving', description: 'Save with a linked wallet' },
          { description: 'Save with no wallet linked', actions: { type: 'notify', params: { kind: 'error', message: CONNECT_WALLET } } },
        ],
        'checkout.save': { target: 'saving', actions: 'clearError' },
      },
    },
    // product.md#renewal-consent: Save stays enabled; pressed without the tick, the box says so and takes the focus.
    consentMissing: {
      description: 'Save was pressed for a card or wallet without agreeing to automatic renewal',
      on: {
        // The box is unticked here: a press ticks it.
        'consent.toggle': { target: 'choosing', description: 'Ticked', actions: 'assignConsent' },
        'card.chosen': { target: 'consentMissing', reenter: true, description: 'Pressed again without the tick', actions: 'countConsentPrompt' },
        'wallet.save': { target: 'consentMissing', reenter: true, description: 'Pressed again without the tick', actions: 'countConsentPrompt' },
        // Another option is picked as on the choice itself.
        'option.select': { target: 'choosing', description: 'Another option', actions: raise(({ event }) => event) },
      },
    },
    confirmingCheckout: {
      description: 'Are you sure you want to proceed with checkout method? (asked in the page)',
      on: {
        'checkout.confirm': [
          {
            guard: 'isOnWallet',
            target: 'choosing',
            description: 'Checkout confirmed, leaving the wallet option',
            actions: [
              { type: 'assignOption', params: { option: 'checkout' } },
              'forgetWalletReturn',
              { type: 'showAddress', params: { walletMethod: false, linkStatus: null } },
            ],
          },
          { target: 'choosing', description: 'Checkout confirmed', actions: { type: 'assignOption', params: { option: 'checkout' } } },
        ],
        'checkout.decline': { target: 'choosing', description: 'The option chosen before stays' },
      },
    },
    saving: {
      description: 'Saving the payment method',
      invoke: {
        id: 'updatePaymentMethod',
        src: 'updatePaymentMethod',
        input: ({ context, event }) => requestFor(context, event),
        onDone: [
          {
            // PAST_DUE: the server charges the new card or wallet now; the page says what came of it.
            guard: { type: 'isChargedNow', params: ({ event }) => ({ chargeAt: event.output.data?.chargeAt }) },
            target: 'charging',
            description: 'Saved while past due: the overdue payment is being charged',
            actions: [{ type: 'notify', params: ({ event }) => ({ kind: 'info', message: event.output.message || METHOD_UPDATED_FALLBACK }) }, 'subscriptionChanged'],
          },
          {
            target: 'saved',
            description: 'Payment method saved',
            actions: [
              { type: 'notify', params: ({ event }) => ({ kind: 'success', message: event.output.message || METHOD_UPDATED_FALLBACK }) },
              'subscriptionChanged',
              { type: 'goTo', params: { path: '/subscription' } },
            ],
          },
        ],
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
    charging: {
      description: 'Waiting for the overdue payment on the new method',
      invoke: {
        id: 'awaitCharge',
        src: 'awaitCharge',
        input: ({ event }) => ({ chargeAt: (event as { output?: { data?: { chargeAt?: string | null } | null } }).output?.data?.chargeAt ?? '' }),
        onDone: {
          target: 'saved',
          description: 'The overdue payment went through, was refused, or is still not known',
          actions: [
            { type: 'assignCharge', params: ({ event }) => ({ charge: event.output }) },
            { type: 'notify', params: ({ event }) => chargeNotice(event.output) },
            'subscriptionChanged',
            { type: 'goTo', params: { path: '/subscription' } },
          ],
        },
        onError: {
          target: 'saved',
          description: 'The status could not be read',
          actions: [
            { type: 'assignCharge', params: { charge: { outcome: 'pending' } } },
            { type: 'notify', params: { kind: 'info', message: OVERDUE_PENDING } },
            'subscriptionChanged',
            { type: 'goTo', params: { path: '/subscription' } },
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
  const consent = context.renewalConsent ? { renewalConsent: context.renewalConsent } : {};
  if (event.type === 'card.chosen' && event.card) {
    return { subscriptionId, paymentMethod: 'MAYA_VAULT', paymentMethodDetails: JSON.stringify({ cardTokenId: event.card.cardTokenId }), ...consent };
  }
  if (event.type === 'wallet.save' && event.linkId) {
    return { subscriptionId, paymentMethod: 'MAYA_WALLET', paymentMethodDetails: JSON.stringify({ mayaWalletId: event.linkId }), ...consent };
  }
  return { subscriptionId, paymentMethod: 'MAYA_CHECKOUT' };
}

export type PaymentMethodMachine = typeof paymentMethodMachine;
