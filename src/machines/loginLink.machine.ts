/**
 * Login-link verification (spec §2, design: /auth?token=&redirectUrl=): verify the token, log in
 * with the welcome-back flag, go to redirectUrl or /subscription; no token goes to /; a failure shows
 * the message with 'Go to Homepage'.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { AuthResult } from '../api/schemas';
import { errorMessageOf, outputOf, type StartSession } from './shared';

export interface LoginLinkInput {
  token: string | null;
  /** Already checked to be a path on this site. */
  redirectTo: string;
}

export interface LoginLinkContext extends LoginLinkInput {
  serverMessage: string | null;
}

export const loginLinkMachine = setup({
  types: {
    context: {} as LoginLinkContext,
    input: {} as LoginLinkInput,
  },
  actors: {
    verifyAuthLink: fromPromise<AuthResult, { token: string }>(async () => {
      throw new Error('verifyAuthLink actor not provided');
    }),
  },
  guards: {
    hasToken: ({ context }) => Boolean(context.token?.trim()),
  },
  actions: {
    assignServerMessage: assign(({ event }) => ({ serverMessage: errorMessageOf(event) })),
    startSession: (_, _params: StartSession) => {},
    goTo: (_, _params: { path: string }) => {},
  },
}).createMachine({
  id: 'loginLink',
  context: ({ input }) => ({ ...input, serverMessage: null }),
  initial: 'routing',
  states: {
    routing: {
      always: [{ guard: 'hasToken', target: 'verifying' }, { target: 'noToken' }],
    },
    noToken: {
      type: 'final',
      entry: { type: 'goTo', params: { path: '/' } },
    },
    verifying: {
      invoke: {
        id: 'verifyAuthLink',
        src: 'verifyAuthLink',
        input: ({ context }) => ({ token: context.token!.trim() }),
        onDone: 'signedIn',
        onError: { target: 'failed', actions: 'assignServerMessage' },
      },
    },
    failed: {},
    signedIn: {
      type: 'final',
      entry: [
        { type: 'startSession', params: ({ event }) => ({ result: outputOf<AuthResult>(event) }) },
        { type: 'goTo', params: ({ context }) => ({ path: context.redirectTo }) },
      ],
    },
  },
});

export type LoginLinkMachine = typeof loginLinkMachine;
