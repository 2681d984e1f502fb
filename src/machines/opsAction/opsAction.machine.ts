/**
 * Every money or state action of the back office (issue 35, product.md#ops-actions) is this one chart:
 * choose the action, give a reason (3..500 characters, required) and the action's own values (an amount,
 * days, when), confirm a sentence that states the amount and the viewer's email, then submit. The
 * request key is made when the confirmation opens, so a double press or a retry sends the same key and
 * the server takes the action once. A failure keeps everything typed.
 */
import { assign, setup } from 'xstate';
import { m } from '../../i18n';
import { placeholder } from '../actors';
import { errorMessageOf, type Text } from '../shared';

export type OpsActionKind = 'reverse' | 'retry' | 'dunning' | 'extend' | 'cancel' | 'resolve' | 'resend' | 'disableCode' | 'disableBatch' | 'revokeSessions';

/** What the operator chose, with what the confirmation and the checks need to know. */
export interface OpsActionTarget {
  kind: OpsActionKind;
  /** The record, subscription, mail, code, batch or user the action is about. */
  id: string;
  /** The viewer's email, said in the confirmation. */
  email: string;
  /** reverse: 'void' (same Manila day, full only) or 'refund' (full or partial); the most that may be reversed. */
  reverseKind?: 'void' | 'refund';
  maxAmount?: string;
  /** dunning: stop (true) or resume (false) the retries. */
  stop?: boolean;
  /** extend: the most days this operator's role may add (support 7, finance and admin 366). */
  maxDays?: number;
  /** resend: the mail's subject. */
  subject?: string;
}

export interface OpsActionValues {
  reason: string;
  amount: string;
  days: string;
  when: 'now' | 'period_end';
}

export interface OpsActionRequest {
  target: OpsActionTarget;
  values: OpsActionValues;
  requestKey: string;
}

export type OpsActionFieldErrors = Partial<Record<'reason' | 'amount' | 'days', Text>>;

export interface OpsActionContext {
  target: OpsActionTarget | null;
  values: OpsActionValues;
  fieldErrors: OpsActionFieldErrors;
  requestKey: string | null;
  serverMessage: string | null;
  result: Text | null;
}

export type OpsActionEvent =
  | { type: 'action.choose'; target: OpsActionTarget }
  | { type: 'form.submit'; values: OpsActionValues }
  | { type: 'confirm.accept' }
  | { type: 'confirm.back' }
  | { type: 'action.close' };

export const EMPTY_VALUES: OpsActionValues = { reason: '', amount: '', days: '', when: 'period_end' };

const MONEY = /^\d+(\.\d{1,2})?$/;
const cents = (amount: string) => Math.round(Number(amount) * 100);

/** The checks of the action's form, as messages per field (none: valid). */
export function opsActionErrors(target: OpsActionTarget, values: OpsActionValues): OpsActionFieldErrors {
  const errors: OpsActionFieldErrors = {};
  const reason = values.reason.trim();
  if (!reason) errors.reason = m.ops_reason_required;
  else if (reason.length < 3 || reason.length > 500) errors.reason = m.ops_reason_length;
  if (target.kind === 'reverse') {
    const amount = values.amount.trim();
    const max = target.maxAmount ?? '0';
    if (!amount) errors.amount = m.ops_amount_required;
    else if (!MONEY.test(amount) || cents(amount) <= 0) errors.amount = m.ops_amount_format;
    else if (cents(amount) > cents(max)) errors.amount = () => m.ops_amount_too_much({ max: Number(max).toFixed(2) });
    else if (target.reverseKind === 'void' && cents(amount) !== cents(max)) errors.amount = m.ops_void_full_only;
  }
  if (target.kind === 'extend') {
    const days = Number(values.days.trim());
    const most = target.maxDays ?? 7;
    if (!values.days.trim()) errors.days = m.ops_days_required;
    else if (!Number.isInteger(days) || days < 1 || days > most) errors.days = () => m.ops_days_range({ max: String(most) });
  }
  return errors;
}

/** A request key: a uuid made when the confirmation opens (the server answers the same key once). */
export function newRequestKey(): string {
  return globalThis.crypto.randomUUID();
}

export const opsActionMachine = setup({
  types: {
    context: {} as OpsActionContext,
    events: {} as OpsActionEvent,
  },
  actors: {
    runAction: placeholder<Text, OpsActionRequest>('runAction'),
  },
  guards: {
    isFormValid: ({ context, event }) =>
      event.type === 'form.submit' && context.target !== null && Object.keys(opsActionErrors(context.target, event.values)).length === 0,
  },
  actions: {
    assignTarget: assign(({ event }) => {
      if (event.type !== 'action.choose') return {};
      const amount = event.target.kind === 'reverse' ? (event.target.maxAmount ?? '') : '';
      return { target: event.target, values: { ...EMPTY_VALUES, amount }, fieldErrors: {}, serverMessage: null, result: null, requestKey: null };
    }),
    assignValues: assign(({ event }) => (event.type === 'form.submit'
      ? { values: { ...event.values, reason: event.values.reason.trim(), amount: event.values.amount.trim(), days: event.values.days.trim() }, fieldErrors: {} }
      : {})),
    assignFieldErrors: assign(({ context, event }) => (event.type === 'form.submit' && context.target
      ? { values: event.values, fieldErrors: opsActionErrors(context.target, event.values) }
      : {})),
    makeRequestKey: assign(() => ({ requestKey: newRequestKey(), serverMessage: null })),
    assignResult: assign((_, params: { result: Text }) => ({ result: params.result })),
    assignServerMessage: assign((_, params: { message: string }) => ({ serverMessage: params.message })),
    reset: assign({ target: null, values: EMPTY_VALUES, fieldErrors: {}, requestKey: null, serverMessage: null, result: null }),
    /** The view refreshes what the action changed (the timeline, the batch). */
    actionDone: () => {},
  },
}).createMachine({
  id: 'opsAction',
  description:
    'An operator refunds, voids, retries, stops or resumes dunning, extends, cancels, resolves, resends or disables: a required reason, a confirmation that names the amount and the viewer, one request key for the confirmation so a double press or a retry acts once, and a failure that keeps what was typed.',
  meta: {
    title: 'Back office action',
    events: {
      'action.choose': 'The operator presses an action button (Refund, Extend, Resend…)',
      'form.submit': 'The operator presses Continue after giving a reason',
      'confirm.accept': 'The operator presses the confirmation\'s button (or Try again)',
      'confirm.back': 'The operator goes back to change the reason or the amount',
      'action.close': 'The operator closes the action panel',
    },
  },
  context: { target: null, values: EMPTY_VALUES, fieldErrors: {}, requestKey: null, serverMessage: null, result: null },
  initial: 'idle',
  states: {
    idle: {
      description: 'No action open',
      on: { 'action.choose': { target: 'reason', actions: 'assignTarget' } },
    },
    reason: {
      // A refusal is shown at the confirmation (failed), where Try again keeps the same request key.
      initial: 'editing',
      states: {
        editing: { description: 'Filling in the reason' },
        invalid: { description: 'Showing what to fix in the fields' },
      },
      description: 'The reason (and the amount, days or when) for the chosen action',
      on: {
        'form.submit': [
          { guard: 'isFormValid', target: 'confirming', actions: 'assignValues' },
          { target: '.invalid', actions: 'assignFieldErrors' },
        ],
        'action.close': { target: 'idle', actions: 'reset' },
      },
    },
    confirming: {
      description: 'The sentence that states the amount and the viewer; the request key is made now',
      entry: 'makeRequestKey',
      on: {
        'confirm.accept': 'submitting',
        'confirm.back': 'reason.editing',
        'action.close': { target: 'idle', actions: 'reset' },
      },
    },
    submitting: {
      description: 'Sending the action with its request key (a second press is ignored)',
      invoke: {
        id: 'runAction',
        src: 'runAction',
        input: ({ context }) => ({ target: context.target!, values: context.values, requestKey: context.requestKey! }),
        onDone: { target: 'done', actions: [{ type: 'assignResult', params: ({ event }) => ({ result: event.output }) }, 'actionDone'] },
        onError: { target: 'failed', actions: { type: 'assignServerMessage', params: ({ event }) => ({ message: errorMessageOf(event) }) } },
      },
    },
    done: {
      description: 'What the server did (Refunded ₱99.00, New end date…)',
      on: { 'action.close': { target: 'idle', actions: 'reset' } },
    },
    failed: {
      description: 'The server\'s message; Try again sends the same request key, Back keeps the typed reason',
      on: {
        'confirm.accept': 'submitting',
        'confirm.back': 'reason.editing',
        'action.close': { target: 'idle', actions: 'reset' },
      },
    },
  },
});

export type OpsActionMachine = typeof opsActionMachine;
