/**
 * One card subscription's money lifecycle (issue 32, design.md "Renewals and dunning" and "Money at the
 * seams"), as a statechart of what the server must do, not of how it does it: a pure model, with no
 * actors and no imports from billing. It is drawn in docs/statecharts (`npm run statecharts`), and
 * test/server/billing/interleavings.test.ts lets @xstate/graph generate event sequences from it,
 * replays each against the real server and the local Maya sandbox (its fault switch plays the
 * gateway's failures), and checks the money invariants after every step.
 *
 * Events are the outside world's, named as the issue names them (not a person's words in a form, as
 * the app's machines are): the billing clock, the engine, the gateway's faults and webhooks, the
 * viewer's changes and the reconciler. The context holds only what decides an outcome: whether the
 * card approves, whether Maya's webhooks arrive, and how many attempts at the due period failed.
 */
import { assign, setup } from 'xstate';

export interface LifecycleContext {
  /** What the card the subscription renews on does at the bank now. */
  card: 'approves' | 'declines';
  /** Whether Maya's webhooks reach the server ('lost': from now on, none does). */
  webhooks: 'delivered' | 'lost';
  /** Failed attempts at the period now due (0 while it is paid); the fifth (day 7) is the last. */
  failedAttempts: number;
  /** The engine reaches the due period more than 7 days after its end date: its first attempt is its last. */
  late: boolean;
  /**
   * Card attempts at the overdue period this Manila day (the engine's, Renew now's, a new card's): the
   * card is tried at most 3 times a day (product.md#pay-now). Every engine run and clock move is another day.
   */
  triesToday: number;
}

export type LifecycleEvent =
  | { type: 'RENEWAL_DUE' }
  | { type: 'DECLINE' }
  | { type: 'APPROVE' }
  | { type: 'TIMEOUT' }
  | { type: 'HTTP500' }
  | { type: 'UNREADABLE' }
  | { type: 'CHARGE_THEN_TIMEOUT' }
  | { type: 'LATE_WEBHOOK' }
  | { type: 'WEBHOOK_LOST' }
  | { type: 'PLAN_CHANGE' }
  | { type: 'METHOD_CHANGE' }
  | { type: 'VOUCHER' }
  | { type: 'CANCEL' }
  | { type: 'RENEW_NOW' }
  | { type: 'CLOCK_FORWARD' }
  | { type: 'CLOCK_BACK' }
  | { type: 'PROCESS_KILLED' }
  | { type: 'RECONCILE' };

/** Attempts at one period: the first at the end date, retries 1, 3, 5 and 7 days after it. */
export const ATTEMPTS_PER_PERIOD = 5;
/** Card attempts at one overdue period a Manila day (subscriptions.ts IMMEDIATE_ATTEMPTS_A_DAY). */
const TRIES_A_DAY = 3;

/**
 * The engine charges a due period and something goes wrong between it and Maya (the same from paid,
 * due and PAST_DUE): the attempt stays open until Maya is read; a charge is never lost, a viewer
 * never dunned for it.
 */
const ENGINE_FAULTS = {
  TIMEOUT: { target: '#moneyLifecycle.gatewayUnknown.notCharged', description: 'The charge timed out: nothing taken, the attempt is open' },
  HTTP500: { target: '#moneyLifecycle.gatewayUnknown.notCharged', description: 'Maya answered 500: nothing taken, the attempt is open' },
  UNREADABLE: [
    { guard: 'cardApproves', target: '#moneyLifecycle.gatewayUnknown.charged', description: 'Maya charged, the answer is unreadable: the attempt is open, the viewer is not dunned' },
    { target: '#moneyLifecycle.gatewayUnknown.declined', description: 'Maya declined, the answer is unreadable: the attempt is open' },
  ],
  CHARGE_THEN_TIMEOUT: [
    { guard: 'cardApproves', target: '#moneyLifecycle.gatewayUnknown.charged', description: 'Maya charged, the answer was lost: the attempt is open' },
    { target: '#moneyLifecycle.gatewayUnknown.declined', description: 'Maya declined, the answer was lost: the attempt is open' },
  ],
  PROCESS_KILLED: [
    { guard: 'chargeUnseen', target: '#moneyLifecycle.inFlight', description: 'Killed after the charge, its webhook lost: the charge is in flight' },
    { guard: 'cardApproves', target: '#moneyLifecycle.paid', actions: 'periodPaid', description: "Killed after the charge: Maya's webhook pays the period" },
  ],
} as const;

/**
 * The server learns of a decline Maya gave while the answer was lost: dunned as any decline (the last
 * attempt ends the subscription; one more than 7 days late is the last).
 */
const declineLearned = (description: string) =>
  [
    { guard: 'tooLate', target: '#moneyLifecycle.free', actions: 'attemptFailed', description: 'Declined more than 7 days late: the last attempt' },
    { guard: 'retriesLeft', target: '#moneyLifecycle.pastDue', actions: 'attemptFailed', description },
    { target: '#moneyLifecycle.free', actions: 'attemptFailed', description: 'The day-7 attempt was declined' },
  ] as const;

export const lifecycleMachine = setup({
  types: {
    context: {} as LifecycleContext,
    events: {} as LifecycleEvent,
  },
  guards: {
    cardApproves: ({ context }) => context.card === 'approves',
    cardDeclines: ({ context }) => context.card === 'declines',
    webhooksDelivered: ({ context }) => context.webhooks === 'delivered',
    /** The attempt about to fail is not the period's last. */
    retriesLeft: ({ context }) => context.failedAttempts < ATTEMPTS_PER_PERIOD - 1,
    /** The unknown attempt was the period's first (the subscription was ACTIVE, not PAST_DUE). */
    firstAttempt: ({ context }) => context.failedAttempts === 0,
    /** The period's first attempt comes more than 7 days after its end date. */
    tooLate: ({ context }) => context.late,
    onTime: ({ context }) => !context.late,
    /** The card may still be tried today (product.md#pay-now). */
    triesLeftToday: ({ context }) => context.triesToday < TRIES_A_DAY,
    payableNow: ({ context }) => context.card === 'approves' && context.triesToday < TRIES_A_DAY,
    /** Maya takes the money and no webhook tells the server. */
    chargeUnseen: ({ context }) => context.card === 'approves' && context.webhooks === 'lost',
  },
  actions: {
    periodPaid: assign({ failedAttempts: 0, late: false, triesToday: 0 }),
    triedNow: assign({ triesToday: ({ context }) => context.triesToday + 1 }),
    anotherDay: assign({ triesToday: 0 }),
    engineWeekBehind: assign({ late: true }),
    engineOnTime: assign({ late: false }),
    attemptFailed: assign({ failedAttempts: ({ context }) => context.failedAttempts + 1, triesToday: 1 }),
    cardNowDeclines: assign({ card: 'declines' as const }),
    cardNowApproves: assign({ card: 'approves' as const }),
    webhooksNowLost: assign({ webhooks: 'lost' as const }),
  },
}).createMachine({
  id: 'moneyLifecycle',
  description:
    'The money of one card subscription, as the server must keep it whatever happens around a renewal: the engine charges at the end date, declines are retried and then end it, gateway answers that are lost leave the attempt open until Maya is read, and every change of plan, card, voucher, cancel or Renew now replaces the live subscription so that each period is paid exactly once.',
  meta: {
    title: 'Money lifecycle of a card subscription',
    source: 'server/billing/lifecycle.machine.ts',
    events: {
      RENEWAL_DUE: 'The billing clock passes the due date and the engine runs',
      DECLINE: 'The bank starts declining the card',
      APPROVE: 'The bank approves the card again (the viewer added funds)',
      TIMEOUT: 'The engine runs; its charge times out before Maya does anything',
      HTTP500: 'The engine runs; Maya answers 500 and does nothing',
      UNREADABLE: 'The engine runs; Maya charges and answers what our client cannot read',
      CHARGE_THEN_TIMEOUT: 'The engine runs; Maya charges and the answer is lost',
      LATE_WEBHOOK: "Maya's lost webhooks arrive late",
      WEBHOOK_LOST: "Maya's webhooks are lost from now on",
      PLAN_CHANGE: 'The viewer changes plan (monthly and yearly in turn; a move down while paid time runs is only scheduled: nothing charged)',
      METHOD_CHANGE: 'The viewer gives another card that approves',
      VOUCHER: 'The viewer redeems a voucher',
      CANCEL: 'The viewer cancels',
      RENEW_NOW: 'The viewer presses Renew now: the overdue period is charged on the card at once',
      CLOCK_FORWARD: 'The billing clock passes the next due moment (when due already, a week more); the engine is behind',
      CLOCK_BACK: 'The billing clock moves back a day',
      PROCESS_KILLED: "The engine's process is killed after Maya charged, before it heard the answer",
      RECONCILE: 'The reconciler runs',
    },
  },
  context: { card: 'approves', webhooks: 'delivered', failedAttempts: 0, late: false, triesToday: 0 },
  initial: 'paid',
  states: {
    paid: {
      description: 'ACTIVE, the current period paid; renews on its card at the end date',
      entry: 'engineOnTime',
      on: {
        RENEWAL_DUE: [
          { guard: 'cardApproves', target: 'paid', actions: 'periodPaid', description: 'Renewed: one charge, the next period starts at the old end date' },
          { target: 'pastDue', actions: 'attemptFailed', description: 'Declined: PAST_DUE, access kept, retried on days 1, 3, 5 and 7' },
        ],
        ...ENGINE_FAULTS,
        CLOCK_FORWARD: { target: 'due', description: 'Past the end date, not renewed yet' },
        CLOCK_BACK: { target: 'paid' },
        DECLINE: { guard: 'cardApproves', target: 'paid', actions: 'cardNowDeclines' },
        APPROVE: { guard: 'cardDeclines', target: 'paid', actions: 'cardNowApproves' },
        METHOD_CHANGE: { target: 'paid', actions: 'cardNowApproves', description: 'Renews on the new card from now on' },
        PLAN_CHANGE: { target: 'paid', description: 'Charged now and started now (or declined: nothing changes)' },
        VOUCHER: { target: 'paid', description: "The voucher's days are added; renews on the card after them" },
        CANCEL: { target: 'canceled', description: 'Canceled at period end: never charged again' },
        WEBHOOK_LOST: { guard: 'webhooksDelivered', target: 'paid', actions: 'webhooksNowLost' },
        RECONCILE: { target: 'paid', description: 'Nothing to resolve' },
      },
    },
    due: {
      description: 'ACTIVE past its end date; the engine has not charged yet (a backlog)',
      on: {
        RENEWAL_DUE: [
          { guard: 'cardApproves', target: 'paid', actions: 'periodPaid', description: 'Renewed from the old end date' },
          { guard: 'tooLate', target: 'free', actions: 'attemptFailed', description: 'Declined more than 7 days late: the first attempt is the last; EXPIRED, the viewer FREE' },
          { target: 'pastDue', actions: 'attemptFailed', description: 'Declined: PAST_DUE' },
        ],
        ...ENGINE_FAULTS,
        CLOCK_FORWARD: { guard: 'onTime', target: 'due', actions: 'engineWeekBehind', description: 'More than 7 days past the end date, not renewed yet' },
        CLOCK_BACK: { target: 'paid', actions: 'engineOnTime', description: 'Before the end date again: nothing is due' },
        DECLINE: { guard: 'cardApproves', target: 'due', actions: 'cardNowDeclines' },
        APPROVE: { guard: 'cardDeclines', target: 'due', actions: 'cardNowApproves' },
        METHOD_CHANGE: { target: 'due', actions: 'cardNowApproves' },
        PLAN_CHANGE: [
          { guard: 'cardApproves', target: 'paid', description: 'The new plan replaces the due subscription, which is never charged again' },
          { target: 'due', description: 'Declined: nothing changes' },
        ],
        VOUCHER: { target: 'paid', description: 'The voucher pays the time from now; renews on the card after it' },
        WEBHOOK_LOST: { guard: 'webhooksDelivered', target: 'due', actions: 'webhooksNowLost' },
        RECONCILE: { target: 'due' },
      },
    },
    pastDue: {
      description: 'PAST_DUE: a renewal was declined; access kept, retried on days 1, 3, 5 and 7',
      on: {
        RENEWAL_DUE: [
          { guard: 'cardApproves', target: 'paid', actions: 'periodPaid', description: 'The retry is paid: the period from the old end date' },
          { guard: 'retriesLeft', target: 'pastDue', actions: 'attemptFailed', description: 'The retry is declined: the next one is scheduled' },
          { target: 'free', actions: 'attemptFailed', description: 'The day-7 retry is declined: EXPIRED, the viewer FREE' },
        ],
        ...ENGINE_FAULTS,
        METHOD_CHANGE: [
          { guard: 'triesLeftToday', target: 'paid', actions: ['cardNowApproves', 'periodPaid'], description: 'The new card is charged at once and renews from now on' },
          { target: 'pastDue', actions: 'cardNowApproves', description: 'Tried 3 times today: the new card is charged at the next retry' },
        ],
        DECLINE: { guard: 'cardApproves', target: 'pastDue', actions: 'cardNowDeclines' },
        APPROVE: { guard: 'cardDeclines', target: 'pastDue', actions: 'cardNowApproves', description: 'Nothing is charged before the next retry' },
        PLAN_CHANGE: [
          { guard: 'cardApproves', target: 'paid', actions: 'periodPaid', description: 'The new plan replaces the PAST_DUE subscription, which is never charged again' },
          { target: 'pastDue', description: 'Declined: nothing changes' },
        ],
        VOUCHER: { target: 'paid', actions: 'periodPaid', description: 'The voucher replaces the PAST_DUE subscription; no more retries' },
        CANCEL: { target: 'canceled', description: 'No more attempts; access to the end of the grace period' },
        RENEW_NOW: [
          { guard: 'payableNow', target: 'paid', actions: 'periodPaid', description: 'The overdue period paid on the card at once (the viewer added funds)' },
          { guard: 'triesLeftToday', target: 'pastDue', actions: 'triedNow', description: 'Declined again: the viewer is told at once; nothing else changes' },
          { target: 'pastDue', description: 'Tried 3 times today: not tried again before tomorrow' },
        ],
        CLOCK_FORWARD: { target: 'pastDue', actions: 'anotherDay', description: 'Past the next retry day; the engine is behind' },
        CLOCK_BACK: { target: 'pastDue', description: 'A day back: the tries counted stand (made later by the billing clock, they count too)' },
        WEBHOOK_LOST: { guard: 'webhooksDelivered', target: 'pastDue', actions: 'webhooksNowLost' },
        RECONCILE: { target: 'pastDue' },
      },
    },
    gatewayUnknown: {
      description: "A renewal attempt's answer was lost: the server does not know what Maya did",
      initial: 'notCharged',
      states: {
        notCharged: {
          description: 'Maya did not take the money',
          on: {
            RECONCILE: [
              { guard: 'firstAttempt', target: '#moneyLifecycle.due', description: 'Maya holds no charge: the attempt is closed, the renewal still due' },
              { target: '#moneyLifecycle.pastDue', description: 'Maya holds no charge: the retry is still due' },
            ],
            LATE_WEBHOOK: { target: 'notCharged', description: 'There is no webhook to send' },
            RENEWAL_DUE: [
              { guard: 'cardApproves', target: '#moneyLifecycle.paid', actions: 'periodPaid', description: 'The engine asks Maya first, finds nothing, charges' },
              { guard: 'tooLate', target: '#moneyLifecycle.free', actions: 'attemptFailed' },
              { guard: 'retriesLeft', target: '#moneyLifecycle.pastDue', actions: 'attemptFailed' },
              { target: '#moneyLifecycle.free', actions: 'attemptFailed' },
            ],
            PLAN_CHANGE: [{ guard: 'cardApproves', target: '#moneyLifecycle.paid', actions: 'periodPaid' }, { target: 'notCharged' }],
            VOUCHER: { target: '#moneyLifecycle.paid', actions: 'periodPaid' },
            CANCEL: { target: '#moneyLifecycle.canceled' },
          },
        },
        declined: {
          description: 'Maya declined the card; the server has not heard yet',
          on: {
            RECONCILE: declineLearned('Read at Maya by reference: a decline, dunned as any decline'),
            LATE_WEBHOOK: declineLearned('The webhook is read at Maya: a decline, dunned'),
            RENEWAL_DUE: declineLearned('The engine asks Maya first, finds the decline, tries again: declined'),
            PLAN_CHANGE: { target: 'declined', description: 'Charged on the declining card: declined, nothing changes' },
            VOUCHER: { target: '#moneyLifecycle.paid', actions: 'periodPaid' },
            CANCEL: { target: '#moneyLifecycle.canceled' },
          },
        },
        charged: {
          description: 'Maya took the money; no period yet',
          on: {
            RECONCILE: { target: '#moneyLifecycle.paid', actions: 'periodPaid', description: 'Read at Maya by reference: the charge pays the period' },
            LATE_WEBHOOK: { target: '#moneyLifecycle.paid', actions: 'periodPaid', description: 'The webhook pays the period' },
            RENEWAL_DUE: { target: '#moneyLifecycle.paid', actions: 'periodPaid', description: 'The engine asks Maya first and finds the charge' },
            PLAN_CHANGE: [
              { guard: 'cardApproves', target: '#moneyLifecycle.paid', actions: 'periodPaid', description: 'The new plan replaces it; the lost charge, once found, is reversed' },
              { target: 'charged' },
            ],
            VOUCHER: { target: '#moneyLifecycle.paid', actions: 'periodPaid' },
            CANCEL: { target: '#moneyLifecycle.canceled' },
          },
        },
      },
    },
    inFlight: {
      description: "A charge Maya made for a process that was killed before it heard the answer; its webhook is lost",
      on: {
        RECONCILE: { target: 'paid', actions: 'periodPaid', description: 'Read at Maya by reference: the charge pays the period' },
        LATE_WEBHOOK: { target: 'paid', actions: 'periodPaid', description: 'The webhook pays the period' },
        RENEWAL_DUE: { target: 'paid', actions: 'periodPaid', description: 'Another run asks Maya first and finds the charge' },
        PLAN_CHANGE: [
          { guard: 'cardApproves', target: 'paid', actions: 'periodPaid', description: 'The new plan replaces it; the charge in flight, once found, is reversed' },
          { target: 'inFlight' },
        ],
        VOUCHER: { target: 'paid', actions: 'periodPaid' },
        CANCEL: { target: 'canceled' },
      },
    },
    canceled: {
      description: 'CANCELED: access to the end of what was paid; never charged again',
      on: {
        CLOCK_FORWARD: { target: 'free', description: 'Access ends; nothing is charged' },
        RENEWAL_DUE: { target: 'free', description: 'The engine runs past the end: nothing is charged' },
        RECONCILE: { target: 'canceled' },
      },
    },
    free: {
      description: 'Ended: the viewer is FREE',
      type: 'final',
    },
  },
});

export type LifecycleMachine = typeof lifecycleMachine;
