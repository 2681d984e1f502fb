/**
 * Change plan (product.md#change-plan, product.md#plan-change-flow, product.md#other-rules, product.md#errors; issue 9).
 *
 * The page loads the status, then the plans ('Loading Subscription Status...', 'Loading Subscription
 * Plans...'); without a subscription it says 'No subscription found'; a voucher subscription cannot
 * change plans. A person selects a plan ('Select Plan'; the current plan's button is disabled), then
 * 'Change Plan' opens the confirmation, which first asks the server what the change would do (the
 * amount charged now, the days carried over, the new end date) and shows it. 'Yes, I'm sure' makes
 * the change: on success the dialog closes and the browser goes to the payment link (a checkout
 * subscription, or a card asking for 3-D Secure) or to /subscription; on failure the dialog stays
 * open with the message, and the same message is toasted (product.md#errors).
 *
 * 'Please select a plan' (product.md#other-rules): 'Change Plan' with no plan selected.
 *
 * A move down while paid time runs (product.md#scheduled-downgrade): the server's numbers say nothing
 * is charged now and on which day the plan changes (`changesOn`); the dialog says so, and 'Yes, I'm
 * sure' schedules it (the same call; no payment link can follow) and goes back to /subscription.
 */
import { assign, setup } from 'xstate';
import type { Plan, PlanChangePreview, RenewalConsent, SubscriptionStatusDetails } from '../../api/schemas';
import { m } from '../../i18n';
import { notProvided, placeholder } from '../actors';
import { errorMessageOf, type Navigation, type Notify } from '../shared';

// Catalog messages (issue 20), handed to the view as they are (a toast's Text).
export const PLEASE_SELECT_A_PLAN = m.please_select_a_plan;
export const PLAN_CHANGED_FALLBACK = m.your_plan_has_been_changed;

export interface ChangePlanContext {
  subscriptionId: string | null;
  currentPlanId: number | null;
  selectedPlanId: number | null;
  /** The server's numbers for the selected plan, shown in the dialog. */
  preview: PlanChangePreview | null;
  error: string | null;
  /** The subscription renews on a card or wallet: the change is agreed to (product.md#renewal-consent). */
  renews: boolean;
  /** The renewal sentence the person ticked in the dialog; null until then. */
  renewalConsent: RenewalConsent | null;
  /** Presses of 'Yes, I'm sure' without the tick (the view focuses the box on each). */
  consentPrompts: number;
}

export type ChangePlanEvent =
  | { type: 'plan.select'; planId: number }
  | { type: 'dialog.open' }
  | { type: 'dialog.confirm' }
  | { type: 'dialog.cancel' }
  | { type: 'consent.toggle'; consent: RenewalConsent | null }
  | { type: 'load.retry' };

export const changePlanMachine = setup({
  types: {
    context: {} as ChangePlanContext,
    events: {} as ChangePlanEvent,
  },
  actors: {
    // Both reads fill React Query's cache (the view reads the same entries); the machine keeps ids only.
    loadStatus: placeholder<SubscriptionStatusDetails>('loadStatus'),
    loadPlans: placeholder<Plan[]>('loadPlans'),
    previewPlanChange: notProvided<'previewPlanChange'>('previewPlanChange'),
    updatePlan: notProvided<'updatePlan'>('updatePlan'),
  },
  guards: {
    hasSubscription: ({ event }) => {
      const status = (event as { output?: SubscriptionStatusDetails }).output;
      return Boolean(status && status.planType === 'PREMIUM' && status.subscriptionId);
    },
    isVoucher: ({ event }) => {
      const status = (event as { output?: SubscriptionStatusDetails }).output;
      return status?.paymentMethod === 'VOUCHER' || Boolean(status?.isVoucherSubscription);
    },
    hasSelection: ({ context }) => context.selectedPlanId !== null,
    /** The server's numbers are those of a move down at the end of the paid period. */
    changesLater: (_, params: { preview: PlanChangePreview | null }) => Boolean(params.preview?.changesOn),
    hasPaymentLink: (_, params: { paymentLink: string | null }) => Boolean(params.paymentLink),
    /** A card or wallet plan without the tick (product.md#renewal-consent); checkout does not renew. */
    lacksConsent: ({ context }) => context.renews && context.renewalConsent === null,
  },
  actions: {
    assignSubscription: assign((_, params: { status: SubscriptionStatusDetails }) => ({
      subscriptionId: params.status.subscriptionId,
      currentPlanId: params.status.planId,
      renews: params.status.paymentMethod === 'MAYA_VAULT' || params.status.paymentMethod === 'MAYA_WALLET',
    })),
    assignSelection: assign((_, params: { planId: number }) => ({ selectedPlanId: params.planId })),
    assignPreview: assign((_, params: { preview: PlanChangePreview }) => ({ preview: params.preview, error: null })),
    assignError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearDialog: assign({ preview: null, error: null, renewalConsent: null, consentPrompts: 0 }),
    assignConsent: assign(({ event }) => (event.type === 'consent.toggle' ? { renewalConsent: event.consent } : {})),
    countConsentPrompt: assign(({ context }) => ({ consentPrompts: context.consentPrompts + 1 })),
    notify: (_, _params: Notify) => {},
    subscriptionChanged: () => {},
    goTo: (_, _params: Navigation) => {},
    /** Leaves the app for the gateway's page (a full page load, not a route). */
    openPaymentLink: (_, _params: { url: string }) => {},
  },
}).createMachine({
  id: 'changePlan',
  description:
    'A premium subscriber picks another plan on /subscription/change-plan. Before anything changes, a dialog shows what the server says the change would do (the amount charged now, the days carried over, the new end date); \'Yes, I\'m sure\' makes the change, then the browser goes to the payment link or back to /subscription. A move down while paid time runs charges nothing: the dialog says on which day the plan changes, and confirming schedules it. A refusal stays in the dialog and is toasted. Without a subscription, or with a voucher one, there is nothing to change.',
  meta: {
    title: 'Change plan',
    events: {
      'plan.select': 'The person presses Select Plan on a plan',
      'dialog.open': 'The person presses Change Plan',
      'dialog.confirm': 'The person presses Yes, I\'m sure',
      'dialog.cancel': 'The person presses Cancel in the dialog',
      'consent.toggle': 'The person ticks or unticks "I agree to automatic renewal" (a card or wallet plan)',
      'load.retry': 'The person tries loading the page again',
    },
  },
  context: { subscriptionId: null, currentPlanId: null, selectedPlanId: null, preview: null, error: null, renews: false, renewalConsent: null, consentPrompts: 0 },
  initial: 'loadingStatus',
  states: {
    loadingStatus: {
      description: 'Loading the subscription status',
      meta: { screen: '/subscription/change-plan' },
      invoke: {
        id: 'loadStatus',
        src: 'loadStatus',
        onDone: [
          { guard: 'isVoucher', target: 'voucher', description: 'A voucher subscription' },
          {
            guard: 'hasSubscription',
            target: 'loadingPlans',
            description: 'A premium subscription',
            actions: { type: 'assignSubscription', params: ({ event }) => ({ status: event.output }) },
          },
          { target: 'noSubscription', description: 'No subscription' },
        ],
        onError: { target: 'failed', actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessageOf(event) }) } },
      },
    },
    loadingPlans: {
      description: 'Loading the plans',
      invoke: {
        id: 'loadPlans',
        src: 'loadPlans',
        onDone: { target: 'choosing', description: 'Plans loaded' },
        onError: { target: 'failed', actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessageOf(event) }) } },
      },
    },
    failed: {
      description: 'The page could not load',
      on: { 'load.retry': { target: 'loadingStatus', actions: 'clearDialog' } },
    },
    noSubscription: { description: 'No subscription found' },
    voucher: { description: 'A voucher subscription cannot change plans' },
    choosing: {
      description: 'Choosing a plan',
      meta: { screen: '/subscription/change-plan' },
      on: {
        'plan.select': { actions: { type: 'assignSelection', params: ({ event }) => ({ planId: event.planId }) } },
        'dialog.open': [
          { guard: 'hasSelection', target: 'open', description: 'Change Plan with a plan selected' },
          { description: 'Change Plan with no plan selected', actions: { type: 'notify', params: { kind: 'error', message: PLEASE_SELECT_A_PLAN } } },
        ],
      },
    },
    open: {
      description: 'The confirmation dialog is open',
      initial: 'previewing',
      exit: 'clearDialog',
      states: {
        previewing: {
          description: 'Asking the server what the change would do',
          invoke: {
            id: 'previewPlanChange',
            src: 'previewPlanChange',
            input: ({ context }) => ({ planId: context.selectedPlanId! }),
            onDone: [
              {
                guard: { type: 'changesLater', params: ({ event }) => ({ preview: event.output }) },
                target: 'confirmingLater',
                description: 'A move down: nothing charged now, the plan changes at the end of the paid period',
                actions: { type: 'assignPreview', params: ({ event }) => ({ preview: event.output }) },
              },
              { target: 'confirming', description: 'Numbers received', actions: { type: 'assignPreview', params: ({ event }) => ({ preview: event.output }) } },
            ],
            onError: { target: 'previewFailed', actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessageOf(event) }) } },
          },
          on: { 'dialog.cancel': '#changePlan.choosing' },
        },
        confirming: {
          description: 'Showing the amount, the carried-over days and the new end date (and, on a card or wallet, the renewal sentence and its tick)',
          on: {
            'dialog.confirm': [
              { guard: 'lacksConsent', target: 'consentMissing', description: 'A card or wallet plan without the tick', actions: 'countConsentPrompt' },
              { target: 'changing' },
            ],
            'consent.toggle': { actions: 'assignConsent' },
            'dialog.cancel': '#changePlan.choosing',
          },
        },
        confirmingLater: {
          description: 'Showing that nothing is charged now and the day the plan changes (and, on a card or wallet, the renewal sentence and its tick)',
          on: {
            'dialog.confirm': [
              { guard: 'lacksConsent', target: 'consentMissing', description: 'A card or wallet plan without the tick', actions: 'countConsentPrompt' },
              { target: 'scheduling' },
            ],
            'consent.toggle': { actions: 'assignConsent' },
            'dialog.cancel': '#changePlan.choosing',
          },
        },
        // product.md#renewal-consent: 'Yes, I'm sure' stays enabled; pressed without the tick, the box says so and takes the focus.
        consentMissing: {
          description: 'Yes, I\'m sure was pressed without agreeing to automatic renewal',
          on: {
            // The box is unticked here: a press ticks it.
            'consent.toggle': [
              { guard: { type: 'changesLater', params: ({ context }) => ({ preview: context.preview }) }, target: 'confirmingLater', description: 'Ticked (a move down)', actions: 'assignConsent' },
              { target: 'confirming', description: 'Ticked', actions: 'assignConsent' },
            ],
            'dialog.confirm': { target: 'consentMissing', reenter: true, description: 'Pressed again without the tick', actions: 'countConsentPrompt' },
            'dialog.cancel': '#changePlan.choosing',
          },
        },
        // The numbers could not be read: nothing is confirmed blind; the person cancels and tries again.
        previewFailed: {
          description: 'Showing why the numbers could not be read',
          on: { 'dialog.cancel': '#changePlan.choosing' },
        },
        // Escape and the close button do nothing while the change runs: its answer must be seen.
        changing: {
          description: 'Changing the plan',
          invoke: {
            id: 'updatePlan',
            src: 'updatePlan',
            input: ({ context }) => ({ subscriptionId: context.subscriptionId!, planId: context.selectedPlanId!, renewalConsent: context.renewalConsent ?? undefined }),
            onDone: [
              {
                guard: { type: 'hasPaymentLink', params: ({ event }) => ({ paymentLink: event.output.data.paymentLink }) },
                target: '#changePlan.changed',
                description: 'Plan changed, payment link to follow',
                actions: [
                  { type: 'notify', params: ({ event }) => ({ kind: 'info', message: event.output.message || PLAN_CHANGED_FALLBACK }) },
                  'subscriptionChanged',
                  { type: 'openPaymentLink', params: ({ event }) => ({ url: event.output.data.paymentLink! }) },
                ],
              },
              {
                target: '#changePlan.changed',
                description: 'Plan changed',
                actions: [
                  { type: 'notify', params: ({ event }) => ({ kind: 'success', message: event.output.message || PLAN_CHANGED_FALLBACK }) },
                  'subscriptionChanged',
                  { type: 'goTo', params: { path: '/subscription' } },
                ],
              },
            ],
            onError: {
              target: 'rejected',
              description: 'Change refused',
              actions: [
                { type: 'assignError', params: ({ event }) => ({ message: errorMessageOf(event) }) },
                { type: 'notify', params: ({ event }) => ({ kind: 'error', message: errorMessageOf(event) }) },
                'subscriptionChanged',
              ],
            },
          },
        },
        scheduling: {
          description: 'Scheduling the move down',
          invoke: {
            id: 'updatePlan',
            src: 'updatePlan',
            input: ({ context }) => ({ subscriptionId: context.subscriptionId!, planId: context.selectedPlanId!, renewalConsent: context.renewalConsent ?? undefined }),
            onDone: {
              target: '#changePlan.changed',
              description: 'Plan change scheduled',
              actions: [
                { type: 'notify', params: ({ event }) => ({ kind: 'success', message: event.output.message || PLAN_CHANGED_FALLBACK }) },
                'subscriptionChanged',
                { type: 'goTo', params: { path: '/subscription' } },
              ],
            },
            onError: {
              target: 'rejected',
              description: 'Scheduling refused',
              actions: [
                { type: 'assignError', params: ({ event }) => ({ message: errorMessageOf(event) }) },
                { type: 'notify', params: ({ event }) => ({ kind: 'error', message: errorMessageOf(event) }) },
                'subscriptionChanged',
              ],
            },
          },
        },
        // The refusal is shown in the dialog; 'Yes, I'm sure' tries again (the same way: now, or scheduled).
        rejected: {
          description: 'Showing why the change was refused',
          on: {
            'dialog.confirm': [
              { guard: 'lacksConsent', target: 'consentMissing', description: 'Unticked since', actions: 'countConsentPrompt' },
              { guard: { type: 'changesLater', params: ({ context }) => ({ preview: context.preview }) }, target: 'scheduling', description: 'A move down' },
              { target: 'changing' },
            ],
            'consent.toggle': { actions: 'assignConsent' },
            'dialog.cancel': '#changePlan.choosing',
          },
        },
      },
    },
    changed: { type: 'final', description: 'Plan changed: on to the payment link or /subscription' },
  },
});

export type ChangePlanMachine = typeof changePlanMachine;
