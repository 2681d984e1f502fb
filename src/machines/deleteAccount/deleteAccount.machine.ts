/**
 * "Delete my account" on /account (issue 36, product.md#erasure): first what happens (the subscription
 * is canceled at once, what is erased, what the law makes us keep), then the current password and the
 * account's email typed again; the server erases the account and the viewer is signed out, with a toast
 * and a mail that confirm it. Cancel goes back to the explanation.
 */
import { assign, setup } from 'xstate';
import { m } from '../../i18n';
import { notProvided } from '../actors';
import { formStates, withErrorMessage, type Notify } from '../shared';

export interface DeleteAccountInput {
  /** The account's email: the confirmation must be it, typed again. */
  email: string;
}

export interface DeleteAccountValues {
  password: string;
  confirmation: string;
}

export interface DeleteAccountContext {
  email: string;
  values: DeleteAccountValues | null;
  fieldErrors: Partial<Record<keyof DeleteAccountValues, () => string>>;
  serverMessage: string | null;
}

export type DeleteAccountEvent =
  | { type: 'delete.begin' }
  | { type: 'delete.cancel' }
  | { type: 'form.submit'; values: DeleteAccountValues };

const same = (typed: string, email: string) => typed.trim().toLowerCase() === email.trim().toLowerCase();

export const deleteAccountMachine = setup({
  types: {
    context: {} as DeleteAccountContext,
    events: {} as DeleteAccountEvent,
    input: {} as DeleteAccountInput,
  },
  actors: {
    deleteAccount: notProvided<'deleteAccount'>('deleteAccount'),
  },
  guards: {
    isFormValid: ({ context, event }) => event.type === 'form.submit' && event.values.password !== '' && same(event.values.confirmation, context.email),
  },
  actions: {
    assignValues: assign(({ event }) => (event.type === 'form.submit' ? { values: event.values, fieldErrors: {}, serverMessage: null } : {})),
    assignFieldErrors: assign(({ context, event }) => {
      if (event.type !== 'form.submit') return {};
      const fieldErrors: DeleteAccountContext['fieldErrors'] = {};
      if (event.values.password === '') fieldErrors.password = m.password_is_required;
      if (!same(event.values.confirmation, context.email)) fieldErrors.confirmation = m.type_your_email_address_exactly_as_shown_to_confirm;
      return { fieldErrors, serverMessage: null };
    }),
    assignServerMessage: assign((_, params: { message: string }) => ({ serverMessage: params.message })),
    forgetValues: assign({ values: null }),
    clearForm: assign({ fieldErrors: {}, serverMessage: null }),
    notify: (_, _params: Notify) => {},
    /** The view signs the viewer out here and goes to the landing page. */
    accountDeleted: () => {},
  },
}).createMachine({
  id: 'deleteAccount',
  description:
    'On /account, Delete my account first says what happens, then asks for the current password and the account email typed again; the server erases the account and the person is signed out, with a toast and a confirming mail.',
  meta: {
    title: 'Delete my account',
    events: {
      'delete.begin': 'The person presses Delete my account…',
      'delete.cancel': 'The person presses Cancel',
      'form.submit': 'The person presses Delete my account for good',
    },
  },
  context: ({ input }) => ({ email: input.email, values: null, fieldErrors: {}, serverMessage: null }),
  initial: 'intro',
  states: {
    intro: {
      description: 'What deleting does and keeps, and the button to go on',
      meta: { screen: '/account' },
      on: { 'delete.begin': 'form' },
    },
    form: {
      ...formStates,
      description: 'The password and the email typed again',
      on: {
        'form.submit': [
          { guard: 'isFormValid', target: 'deleting', actions: 'assignValues' },
          { target: '.invalid', actions: 'assignFieldErrors' },
        ],
        'delete.cancel': { target: 'intro', actions: 'clearForm' },
      },
    },
    deleting: {
      description: 'Deleting the account',
      exit: 'forgetValues',
      invoke: {
        id: 'deleteAccount',
        src: 'deleteAccount',
        input: ({ context }) => context.values!,
        onDone: {
          target: 'deleted',
          description: 'Deleted: signed out, with a toast',
          actions: ['accountDeleted', { type: 'notify', params: { kind: 'success', message: m.your_account_has_been_deleted } }],
        },
        onError: { target: 'form.rejected', actions: withErrorMessage('assignServerMessage') },
      },
    },
    deleted: {
      description: 'The account is gone; the person is signed out on the landing page',
      type: 'final',
    },
  },
});

export type DeleteAccountMachine = typeof deleteAccountMachine;
