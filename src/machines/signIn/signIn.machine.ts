/**
 * Sign-in (product.md#sign-in, product.md#form-rules, product.md#api): validate, call sign-in, show the server message on failure,
 * and on success hand the session over and go to `from` (or /), replacing the history entry.
 */
import { assign, setup } from 'xstate';
import type { SignInResult } from '../../api/endpoints';
import { signInRequestSchema, type SignInRequest } from '../../api/schemas';
import { fieldErrorsOf, type FieldErrors } from '../../lib/validation';
import { notProvided } from '../actors';
import { formStates, withErrorMessage, type Navigation, type StartSession } from '../shared';

export interface SignInInput {
  /** Where to go after signing in; already checked to be a path on this site. */
  redirectTo: string;
}

export interface SignInContext {
  redirectTo: string;
  credentials: SignInRequest | null;
  fieldErrors: FieldErrors<SignInRequest>;
  serverMessage: string | null;
}

export type SignInEvent = { type: 'form.submit'; values: { email: string; password: string } };

export const signInMachine = setup({
  types: {
    context: {} as SignInContext,
    events: {} as SignInEvent,
    input: {} as SignInInput,
  },
  actors: {
    // Replaced by the view with the API-backed actor; the default refuses so a missing one is loud.
    signIn: notProvided<'signIn'>('signIn'),
  },
  guards: {
    isFormValid: ({ event }) => signInRequestSchema.safeParse(event.values).success,
    signInSucceeded: (_, params: { result: SignInResult }) => params.result.success,
  },
  actions: {
    assignCredentials: assign(({ event }) => ({
      credentials: signInRequestSchema.parse(event.values),
      fieldErrors: {},
      serverMessage: null,
    })),
    assignFieldErrors: assign(({ event }) => ({
      fieldErrors: fieldErrorsOf(signInRequestSchema, event.values),
      serverMessage: null,
    })),
    assignServerMessage: assign((_, params: { message: string }) => ({ serverMessage: params.message })),
    forgetCredentials: assign({ credentials: null }),
    // Bound by the view: hand the result to the session, then navigate (history replaced).
    startSession: (_, _params: StartSession) => {},
    goTo: (_, _params: Navigation) => {},
  },
}).createMachine({
  id: 'signIn',
  description:
    'A person with an account signs in with email and password. A wrong password or an unknown email shows the server\'s message on the form; a right one signs the person in and goes where they were going (or home).',
  meta: { title: 'Sign in', events: { 'form.submit': 'The person presses Login' } },
  context: ({ input }) => ({ redirectTo: input.redirectTo, credentials: null, fieldErrors: {}, serverMessage: null }),
  initial: 'form',
  states: {
    form: {
      ...formStates,
      description: 'The login form',
      meta: { screen: '/login' },
      on: {
        'form.submit': [
          { guard: 'isFormValid', target: 'submitting', actions: 'assignCredentials', description: 'Login with a valid email and password' },
          { target: '.invalid', actions: 'assignFieldErrors', description: 'Login with a field missing or wrong' },
        ],
      },
    },
    submitting: {
      description: 'Checking the password',
      exit: 'forgetCredentials',
      invoke: {
        id: 'signIn',
        src: 'signIn',
        input: ({ context }) => context.credentials!,
        onDone: [
          {
            guard: { type: 'signInSucceeded', params: ({ event }) => ({ result: event.output }) },
            target: 'signedIn',
            description: 'Password accepted',
            actions: [
              { type: 'startSession', params: ({ event }) => ({ result: event.output.success ? event.output.data : never() }) },
              { type: 'goTo', params: ({ context }) => ({ path: context.redirectTo, replace: true }) },
            ],
          },
          {
            target: 'form.rejected',
            description: 'Password or email refused',
            actions: { type: 'assignServerMessage', params: ({ event }) => ({ message: event.output.message }) },
          },
        ],
        onError: { target: 'form.rejected', description: 'No answer (network or server error)', actions: withErrorMessage('assignServerMessage') },
      },
    },
    signedIn: { type: 'final', description: 'Signed in' },
  },
});

/** The guard above lets only a successful result through. */
function never(): never {
  throw new Error('sign-in result without data');
}

export type SignInMachine = typeof signInMachine;
