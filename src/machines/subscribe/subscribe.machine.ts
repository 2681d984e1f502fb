/**
 * The subscribe wizard (product.md#subscribe-wizard, product.md#payment-flows): 1 Select Plan, 2 Payment Method,
 * 3 Confirm, with the URL as its projection (subscribe.address.ts). A reload or back/forward gives
 * the machine an address; a step whose prerequisites are missing falls back to the first complete
 * one (a card token is never kept in the address, so a reload on Confirm by card returns to step 2,
 * where the saved card is ready). A PREMIUM viewer is sent to /subscription. Picking checkout on step 2
 * asks the spec's confirmation in the page (product.md#checkout-confirmation). Paying: a card goes to
 * its 3-D Secure page when Maya asks, else to /payment?status=success; a wallet pays with the link;
 * checkout goes to Maya's hosted page. A failure goes
 * to /payment?status=failed with an error toast (product.md#payment-flows, product.md#errors).
 */
import { assign, setup } from 'xstate';
import type { Plan, RenewalConsent, SubscriptionStatusDetails } from '../../api/schemas';
import { routes } from '../../lib/route-paths';
import { m } from '../../i18n';
import { notProvided, placeholder } from '../actors';
import type { ChosenCard } from '../cardEntry/cardEntry.machine';
import { errorMessageOf, type Navigation, type Notify } from '../shared';
import { choiceState, failedResultPath, format, sameLocation, type SubscribeLocation, type WizardChoice, type WizardMethod, type WizardStep } from './subscribe.address';

export type { SubscribeLocation, WizardMethod, WizardStep } from './subscribe.address';

/** The address, and the card or wallet kept with its history entry (a reload of Confirm). */
export type SubscribeInput = SubscribeLocation & Partial<WizardChoice>;

// Catalog messages (issue 20): read when said, in the language in use.
export const CHECKOUT_CONFIRMATION = m.are_you_sure_you_want_to_proceed;
export const INVALID_QUERY = m.invalid_query_please_reload_your;
export const WALLET_REQUIRED = m.please_connect_your_maya_wallet_to;

export interface SubscribeContext extends SubscribeLocation {
  /** The plan of `plan` in the plan list (the list itself stays in React Query). */
  selectedPlan: Plan | null;
  /** Card chosen on step 2 (Maya's token and how to show it; never the card's number). */
  card: ChosenCard | null;
  /** The linked wallet's id, while the wallet panel reports one. */
  linkId: string | null;
  loadError: string | null;
  /** product.md#renewal-consent: the sentence the viewer ticked on Confirm (a card or wallet renews by itself); null until then. */
  renewalConsent: RenewalConsent | null;
  /** Presses of Pay without the tick: the view moves the focus to the box on each. */
  consentPrompts: number;
}

export type SubscribeEvent =
  | { type: 'plan.select'; plan: Plan }
  | { type: 'method.select'; method: WizardMethod }
  | { type: 'card.chosen'; card: ChosenCard }
  | { type: 'wallet.changed'; linkId: string | null }
  | { type: 'step.continue' }
  | { type: 'step.back' }
  | { type: 'step.edit'; step: 1 | 2 }
  | { type: 'payment.submit' }
  | { type: 'consent.toggle'; consent: RenewalConsent | null }
  | { type: 'checkout.confirm' }
  | { type: 'checkout.decline' }
  | { type: 'wizard.retry' }
  | { type: 'wizard.restart' }
  | { type: 'location.changed'; location: SubscribeLocation };

const paidPayment: Navigation = { path: `${routes.payment}?status=success`, replace: true };

export const subscribeMachine = setup({
  types: {
    context: {} as SubscribeContext,
    events: {} as SubscribeEvent,
    input: {} as SubscribeInput,
  },
  actors: {
    loadStatus: placeholder<SubscriptionStatusDetails>('loadStatus'),
    loadPlans: placeholder<Plan[]>('loadPlans'),
    payWithCard: notProvided<'payWithCard'>('payWithCard'),
    payWithWallet: notProvided<'payWithWallet'>('payWithWallet'),
    createCheckout: notProvided<'createCheckout'>('createCheckout'),
  },
  guards: {
    isPremium: (_, params: { status: SubscriptionStatusDetails }) => params.status.planType === 'PREMIUM',
    isInvalidWalletReturn: ({ context }) =>
      context.walletLinkStatus !== null && (context.walletLinkStatus === 'invalid' || context.method !== 'maya' || !context.selectedPlan),
    canConfirm: ({ context }) => context.step === 3 && context.selectedPlan !== null && isMethodReady(context),
    canChooseMethod: ({ context }) => context.step >= 2 && context.selectedPlan !== null,
    isNewLocation: ({ context, event }) => event.type === 'location.changed' && !sameLocation(context, event.location),
    isOtherPlan: ({ context, event }) => event.type === 'location.changed' && event.location.plan !== context.selectedPlan?.slug,
    isMethodReady: ({ context }) => isMethodReady(context),
    isWalletChosen: ({ context }) => context.method === 'maya',
    isStepOne: ({ event }) => event.type === 'step.edit' && event.step === 1,
    isCheckout: ({ context }) => context.method === 'checkout',
    isCard: ({ context }) => context.method === 'card',
    isPickingCheckout: ({ context, event }) => event.type === 'method.select' && event.method === 'checkout' && context.method !== 'checkout',
    needsVerification: (_, params: { url: string | undefined }) => Boolean(params.url),
    /** A card or wallet renews by itself: Pay needs the tick (product.md#renewal-consent); checkout does not renew. */
    lacksConsent: ({ context }) => context.method !== 'checkout' && context.renewalConsent === null,
  },
  actions: {
    assignLocation: assign(({ event }) => (event.type === 'location.changed' ? { ...event.location } : {})),
    assignPlanFrom: assign(({ context }, params: { plans: Plan[] }) => ({
      selectedPlan: params.plans.find((plan) => plan.slug === context.plan) ?? null,
    })),
    assignLoadError: assign((_, params: { message: string }) => ({ loadError: params.message })),
    clearLoadError: assign({ loadError: null }),
    assignPlan: assign(({ event }) => (event.type === 'plan.select' ? { selectedPlan: event.plan, plan: event.plan.slug, step: 2 as const } : {})),
    assignMethod: assign(({ context, event }) =>
      event.type === 'method.select' && event.method !== context.method
        ? { method: event.method, card: null, walletLinkStatus: null }
        : {},
    ),
    assignCard: assign(({ event }) => (event.type === 'card.chosen' ? { card: event.card, step: 3 as const } : {})),
    assignLinkId: assign(({ event }) => (event.type === 'wallet.changed' ? { linkId: event.linkId } : {})),
    assignStep: assign((_, params: { step: WizardStep }) => ({ step: params.step })),
    /** Start again from an address that does not fit: the wallet step of the plan named, else step 1. */
    assignRestart: assign(({ context }) => ({
      walletLinkStatus: null,
      method: context.selectedPlan ? ('maya' as const) : null,
      step: context.selectedPlan ? (2 as const) : (1 as const),
    })),
    assignCheckout: assign({ method: 'checkout' as const, card: null, walletLinkStatus: null }),
    assignConsent: assign(({ event }) => (event.type === 'consent.toggle' ? { renewalConsent: event.consent } : {})),
    /** Confirm shows the sentence of this plan and method: a tick given for another is not carried over. */
    clearConsent: assign({ renewalConsent: null, consentPrompts: 0 }),
    countConsentPrompt: assign(({ context }) => ({ consentPrompts: context.consentPrompts + 1 })),
    /** The browser leaves for a Maya page (3-D Secure, hosted checkout, wallet linking): bound by the view (lib/leave.ts). */
    redirect: (_, _params: { url: string }) => {},
    // Bound by the view: the router, toasts, and React Query after a payment.
    goTo: (_, _params: Navigation) => {},
    notify: (_, _params: Notify) => {},
    subscriptionChanged: () => {},
  },
}).createMachine({
  id: 'subscribe',
  description:
    'A free viewer subscribes to a premium plan in three steps on /subscription/payment: 1 Select Plan, 2 Payment Method (a card, a linked Maya wallet, or checkout, confirmed in the page when it is picked), 3 Confirm. Each step has its own address, so back, forward and a reload land on it, or on the first step whose choices are complete. Paying by card or wallet ends on the payment result page (a card may first go to its 3-D Secure page); checkout goes to Maya\'s page. A premium viewer is sent to /subscription.',
  meta: {
    title: 'Subscribe',
    events: {
      'plan.select': 'The person picks a plan',
      'method.select': 'The person picks Card, Maya wallet or Checkout',
      'card.chosen': 'The card part ends with a card',
      'wallet.changed': 'The wallet panel reports the linked wallet (or none)',
      'step.continue': 'The person presses Continue',
      'step.back': 'The person presses Back',
      'step.edit': 'The person presses Edit on the plan or the payment method',
      'payment.submit': 'The person presses the pay button',
      'consent.toggle': 'The person ticks or unticks "I agree to automatic renewal"',
      'checkout.confirm': 'The person agrees to pay by checkout (Yes, I\'m sure)',
      'checkout.decline': 'The person keeps the method chosen before (Cancel, Escape)',
      'wizard.retry': 'The person tries loading the page again',
      'wizard.restart': 'The person starts the step again after an address that does not fit',
      'location.changed': 'The address changes (back, forward, a link)',
    },
  },
  context: ({ input }) => ({
    plan: input.plan,
    step: input.step,
    method: input.method,
    walletLinkStatus: input.walletLinkStatus,
    selectedPlan: null,
    // Kept with the history entry of a step (a reload of Confirm); only for the method it belongs to.
    card: input.method === 'card' ? (input.card ?? null) : null,
    linkId: input.method === 'maya' && input.walletLinkStatus === null ? (input.linkId ?? null) : null,
    loadError: null,
    renewalConsent: null,
    consentPrompts: 0,
  }),
  initial: 'checkingStatus',
  on: {
    'location.changed': [
      { guard: 'isOtherPlan', target: '.loadingPlans', actions: 'assignLocation', description: 'The address names another plan' },
      { guard: 'isNewLocation', target: '.routing', actions: 'assignLocation', description: 'The address moves to another step' },
    ],
  },
  states: {
    checkingStatus: {
      description: 'Checking the subscription status',
      meta: { screen: '/subscription/payment' },
      invoke: {
        id: 'loadStatus',
        src: 'loadStatus',
        onDone: [
          {
            guard: { type: 'isPremium', params: ({ event }) => ({ status: event.output }) },
            target: 'leaving',
            description: 'Already premium',
            actions: { type: 'goTo', params: { path: routes.subscription, replace: true } },
          },
          { target: 'loadingPlans', description: 'Not premium yet' },
        ],
        onError: { target: 'loadFailed', actions: { type: 'assignLoadError', params: ({ event }) => ({ message: errorMessageOf(event) }) } },
      },
    },
    loadingPlans: {
      description: 'Loading the plans',
      invoke: {
        id: 'loadPlans',
        src: 'loadPlans',
        onDone: { target: 'routing', description: 'Plans loaded', actions: { type: 'assignPlanFrom', params: ({ event }) => ({ plans: event.output }) } },
        onError: { target: 'loadFailed', actions: { type: 'assignLoadError', params: ({ event }) => ({ message: errorMessageOf(event) }) } },
      },
    },
    loadFailed: {
      description: 'The page could not load',
      on: { 'wizard.retry': { target: 'checkingStatus', actions: 'clearLoadError' } },
    },
    // The first complete step of the address; an incomplete one is replaced by it.
    routing: {
      description: 'Reading the address',
      always: [
        { guard: 'isInvalidWalletReturn', target: 'invalidQuery', description: 'A wallet return that does not fit' },
        { guard: 'canConfirm', target: 'confirm', description: 'Plan and payment method are ready' },
        { guard: 'canChooseMethod', target: 'paymentMethod', description: 'A plan is chosen', actions: [{ type: 'assignStep', params: { step: 2 } }, writeAddress(true)] },
        { target: 'selectPlan', description: 'No plan yet', actions: [{ type: 'assignStep', params: { step: 1 } }, writeAddress(true)] },
      ],
    },
    invalidQuery: {
      description: 'Invalid Query! Please reload your browser',
      on: { 'wizard.restart': { target: 'routing', actions: 'assignRestart', description: 'Start the step again' } },
    },
    selectPlan: {
      description: 'Step 1: Select Plan',
      meta: { screen: '/subscription/payment?step=1' },
      on: {
        'plan.select': { target: 'paymentMethod', actions: ['assignPlan', writeAddress()] },
      },
    },
    paymentMethod: {
      description: 'Step 2: Payment Method',
      meta: { screen: '/subscription/payment?plan=…&step=2&payment-method=…' },
      on: {
        'method.select': [
          // product.md#checkout-confirmation: asked the moment checkout is picked, not again on Pay.
          { guard: 'isPickingCheckout', target: 'checkoutQuestion', description: 'Picking checkout asks first' },
          { actions: ['assignMethod', writeAddress(true)] },
        ],
        'card.chosen': { guard: 'isCard', target: 'confirm', actions: ['assignCard', writeAddress()] },
        'wallet.changed': { actions: 'assignLinkId' },
        'step.continue': [
          { guard: 'isMethodReady', target: 'confirm', description: 'Continue with a payment method ready', actions: [{ type: 'assignStep', params: { step: 3 } }, writeAddress()] },
          { guard: 'isWalletChosen', description: 'Continue with no wallet linked', actions: { type: 'notify', params: { kind: 'error', message: WALLET_REQUIRED } } },
        ],
        'step.back': { target: 'selectPlan', actions: [{ type: 'assignStep', params: { step: 1 } }, writeAddress()] },
      },
    },
    checkoutQuestion: {
      description: 'Are you sure you want to proceed with checkout method? (asked in the page, on step 2)',
      on: {
        'checkout.confirm': { target: 'paymentMethod', description: 'Checkout chosen', actions: ['assignCheckout', writeAddress(true)] },
        'checkout.decline': { target: 'paymentMethod', description: 'The method chosen before stays' },
      },
    },
    confirm: {
      description: 'Step 3: Confirm',
      meta: { screen: '/subscription/payment?plan=…&step=3&payment-method=…' },
      initial: 'reviewing',
      entry: 'clearConsent',
      states: {
        reviewing: {
          description: 'Reviewing the plan and the payment method (a card or wallet: the renewal sentence and its tick)',
          on: reviewingEvents(),
        },
        // product.md#renewal-consent: Pay stays enabled; pressed without the tick, the box says so and takes the focus.
        consentMissing: {
          description: 'Pay was pressed without agreeing to automatic renewal',
          on: {
            'step.back': reviewingEvents()['step.back'],
            'step.edit': reviewingEvents()['step.edit'],
            // The box is unticked here: a press ticks it.
            'consent.toggle': { target: 'reviewing', description: 'Ticked', actions: 'assignConsent' },
            'payment.submit': { target: 'consentMissing', reenter: true, description: 'Pressed again without the tick', actions: 'countConsentPrompt' },
          },
        },
        creatingCheckout: {
          description: 'Creating the checkout',
          invoke: {
            id: 'createCheckout',
            src: 'createCheckout',
            input: ({ context }) => ({ planId: context.selectedPlan!.id }),
            onDone: {
              target: '#subscribe.leaving',
              description: 'Checkout created: on to Maya\'s page',
              actions: { type: 'redirect', params: ({ event }) => ({ url: event.output.paymentLink }) },
            },
            onError: { target: '#subscribe.leaving', description: 'Checkout refused', actions: paymentFailed() },
          },
        },
        payingByCard: {
          description: 'Paying by card',
          invoke: {
            id: 'payWithCard',
            src: 'payWithCard',
            input: ({ context }) => ({ planId: context.selectedPlan!.id, cardToken: context.card!.cardTokenId, renewalConsent: context.renewalConsent ?? undefined }),
            onDone: [
              {
                guard: { type: 'needsVerification', params: ({ event }) => ({ url: event.output.verificationUrl }) },
                target: '#subscribe.leaving',
                description: 'The card asks for 3-D Secure',
                actions: { type: 'redirect', params: ({ event }) => ({ url: event.output.verificationUrl! }) },
              },
              { target: '#subscribe.leaving', description: 'Paid', actions: ['subscriptionChanged', { type: 'goTo', params: paidPayment }] },
            ],
            onError: { target: '#subscribe.leaving', description: 'Payment refused', actions: paymentFailed() },
          },
        },
        payingByWallet: {
          description: 'Paying with the wallet',
          invoke: {
            id: 'payWithWallet',
            src: 'payWithWallet',
            input: ({ context }) => ({ planId: context.selectedPlan!.id, linkId: context.linkId!, renewalConsent: context.renewalConsent ?? undefined }),
            onDone: { target: '#subscribe.leaving', description: 'Paid', actions: ['subscriptionChanged', { type: 'goTo', params: paidPayment }] },
            onError: { target: '#subscribe.leaving', description: 'Payment refused', actions: paymentFailed() },
          },
        },
      },
    },
    // The wizard is over: the browser is on its way to a result, Maya's page, or /subscription.
    leaving: { type: 'final', description: 'Done: on to the result, Maya\'s page or /subscription' },
  },
});

/** Confirm's events while nothing is being paid: back, edit, the tick and Pay (which asks for the tick first). */
function reviewingEvents() {
  return {
    'step.back': { target: '#subscribe.paymentMethod', actions: [{ type: 'assignStep', params: { step: 2 } }, writeAddress()] },
    'step.edit': [
      { guard: 'isStepOne', target: '#subscribe.selectPlan', description: 'Edit the plan', actions: [{ type: 'assignStep', params: { step: 1 } }, writeAddress()] },
      { target: '#subscribe.paymentMethod', description: 'Edit the payment method', actions: [{ type: 'assignStep', params: { step: 2 } }, writeAddress()] },
    ],
    'consent.toggle': { actions: 'assignConsent' },
    'payment.submit': [
      { guard: 'lacksConsent', target: '#subscribe.confirm.consentMissing', description: 'A card or wallet without the tick', actions: 'countConsentPrompt' },
      { guard: 'isCheckout', target: '#subscribe.confirm.creatingCheckout', description: 'Pay by checkout' },
      { guard: 'isCard', target: '#subscribe.confirm.payingByCard', description: 'Pay by card' },
      { target: '#subscribe.confirm.payingByWallet', description: 'Pay with the wallet' },
    ],
  } as const;
}

/**
 * The address of the step the machine is on: written on every step (a new history entry, so back and
 * forward walk the steps), or in place when the machine corrected an address or a choice changed.
 */
function writeAddress(replace = false) {
  return {
    type: 'goTo',
    params: ({ context }: { context: SubscribeContext }) => ({
      path: format(context),
      replace,
      state: choiceState({ card: context.card, linkId: context.linkId }),
    }),
  } as const;
}

function isMethodReady(context: SubscribeContext): boolean {
  if (context.method === 'checkout') return true;
  if (context.method === 'card') return context.card !== null;
  if (context.method === 'maya') return context.linkId !== null;
  return false;
}

/** A refused payment: the server's message as a toast, then the failed result (product.md#payment-flows, product.md#errors). */
function paymentFailed() {
  return [
    { type: 'notify', params: ({ event }: { event: { error: unknown } }) => ({ kind: 'error' as const, message: errorMessageOf(event) }) },
    'subscriptionChanged',
    // The plan and method tried go with the result, so its "Try again" keeps the plan.
    { type: 'goTo', params: ({ context }: { context: SubscribeContext }) => ({ path: failedResultPath(context.plan, context.method), replace: true }) },
  ] as const;
}

export type SubscribeMachine = typeof subscribeMachine;
export { format as formatSubscribeAddress };
