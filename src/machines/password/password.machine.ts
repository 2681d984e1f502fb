/** Security card (product.md#account, product.md#form-rules): old, new and confirm password; the old one is required. */
import { assign, setup } from 'xstate';
import { passwordChangeRequestSchema, type PasswordChangeRequest } from '../../api/schemas';
import { fieldErrorsOf, type FieldErrors } from '../../lib/validation';
import { notProvided } from '../actors';
import { m } from '../../i18n';
import { formStates, withErrorMessage, type Notify } from '../shared';

export interface PasswordContext {
  passwords: PasswordChangeRequest | null;
  fieldErrors: FieldErrors<PasswordChangeRequest>;
  serverMessage: string | null;
}

export type PasswordEvent = { type: 'form.submit'; values: Record<keyof PasswordChangeRequest, string> };

export const passwordMachine = setup({
  types: {
    context: {} as PasswordContext,
    events: {} as PasswordEvent,
  },
  actors: {
    changePassword: notProvided<'changePassword'>('changePassword'),
  },
  guards: {
    isFormValid: ({ event }) => passwordChangeRequestSchema.safeParse(event.values).success,
  },
  actions: {
    assignPasswords: assign(({ event }) => ({
      passwords: passwordChangeRequestSchema.parse(event.values), fieldErrors: {}, serverMessage: null,
    })),
    assignFieldErrors: assign(({ event }) => ({
      fieldErrors: fieldErrorsOf(passwordChangeRequestSchema, event.values), serverMessage: null,
    })),
    assignServerMessage: assign((_, params: { message: string }) => ({ serverMessage: params.message })),
    forgetPasswords: assign({ passwords: null }),
    notify: (_, _params: Notify) => {},
    clearForm: () => {},
  },
}).createMachine({
  id: 'password',
  description:
    'On /account the person changes their password: the old one, the new one and the new one again. A refusal (wrong old password) shows on the form; success clears the form.',
  meta: {
    title: 'Change password',
    events: {
      'form.submit': 'The person presses Update Password',
    },
  },
  context: { passwords: null, fieldErrors: {}, serverMessage: null },
  initial: 'form',
  states: {
    form: {
      ...formStates,
      description: 'The password form',
      meta: { screen: '/account' },
      on: {
        'form.submit': [
          { guard: 'isFormValid', target: 'submitting', actions: 'assignPasswords' },
          { target: '.invalid', actions: 'assignFieldErrors' },
        ],
      },
    },
    submitting: {
      description: 'Changing the password',
      exit: 'forgetPasswords',
      invoke: {
        id: 'changePassword',
        src: 'changePassword',
        input: ({ context }) => context.passwords!,
        onDone: {
          target: 'form.editing',
          description: 'Password changed',
          actions: ['clearForm', { type: 'notify', params: { kind: 'success', message: m.password_updated_successfully } }],
        },
        onError: { target: 'form.rejected', actions: withErrorMessage('assignServerMessage') },
      },
    },
  },
});

export type PasswordMachine = typeof passwordMachine;
