/**
 * Sign-in (spec §2 /login, §5, §7): validate, call sign-in, show the server message on failure,
 * and on success hand the session over and go to `from` (or /), replacing the history entry.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { SignInResult } from '../api/endpoints';
import { signInRequestSchema, type AuthResult, type SignInRequest } from '../api/schemas';
import { fieldErrorsOf, type FieldErrors } from '../lib/validation';

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
    signIn: fromPromise<SignInResult, SignInRequest>(async () => {
      throw new Error('signIn actor not provided');
    }),
  },
  guards: {
    isFormValid: ({ event }) => signInRequestSchema.safeParse(event.values).success,
    signInSucceeded: ({ event }) => (event as unknown as { output: SignInResult }).output.success,
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
    assignServerMessage: assign(({ event }) => ({
      serverMessage: (event as unknown as { output: SignInResult }).output.message,
    })),
    assignErrorMessage: assign(({ event }) => ({
      serverMessage: (event as unknown as { error: unknown }).error instanceof Error
        ? ((event as unknown as { error: Error }).error.message || 'Network error')
        : 'Network error',
    })),
    forgetCredentials: assign({ credentials: null }),
    // Bound by the view: hand the result to the session, then navigate (history replaced).
    startSession: (_, _params: { result: AuthResult }) => {},
    goToDestination: (_, _params: { path: string }) => {},
  },
}).createMachine({
  id: 'signIn',
  context: ({ input }) => ({ redirectTo: input.redirectTo, credentials: null, fieldErrors: {}, serverMessage: null }),
  initial: 'form',
  states: {
    form: {
      initial: 'editing',
      on: {
        'form.submit': [
          { guard: 'isFormValid', target: 'submitting', actions: 'assignCredentials' },
          { target: '.invalid', actions: 'assignFieldErrors' },
        ],
      },
      states: {
        editing: {},
        invalid: {},
        rejected: {},
      },
    },
    submitting: {
      exit: 'forgetCredentials',
      invoke: {
        id: 'signIn',
        src: 'signIn',
        input: ({ context }) => context.credentials!,
        onDone: [
          { guard: 'signInSucceeded', target: 'signedIn' },
          { target: 'form.rejected', actions: 'assignServerMessage' },
        ],
        onError: { target: 'form.rejected', actions: 'assignErrorMessage' },
      },
    },
    signedIn: {
      type: 'final',
      entry: [
        {
          type: 'startSession',
          params: ({ event }) => ({ result: (event as unknown as { output: { data: AuthResult } }).output.data }),
        },
        { type: 'goToDestination', params: ({ context }) => ({ path: context.redirectTo }) },
      ],
    },
  },
});

export type SignInMachine = typeof signInMachine;
