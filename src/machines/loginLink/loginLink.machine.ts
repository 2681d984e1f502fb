/**
 * Login-link verification (product.md#login-link, product.md#auth-route: /auth?token=&redirectUrl=): verify the token, log in
 * with the welcome-back flag, go to redirectUrl or /subscription; no token goes to /; a failure shows
 * the message with 'Go to Homepage'.
 */
import { assign, setup } from 'xstate';
import { routes } from '../../lib/route-paths';
import { notProvided } from '../actors';
import { withErrorMessage, type Navigation, type StartSession } from '../shared';

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
    verifyAuthLink: notProvided<'verifyAuthLink'>('verifyAuthLink'),
  },
  guards: {
    hasToken: ({ context }) => Boolean(context.token?.trim()),
  },
  actions: {
    assignServerMessage: assign((_, params: { message: string }) => ({ serverMessage: params.message })),
    startSession: (_, _params: StartSession) => {},
    goTo: (_, _params: Navigation) => {},
  },
}).createMachine({
  id: 'loginLink',
  description:
    'A person opens a login link from the mobile app or a mail. The token is checked; a good one signs them in (welcome back) and goes to the link\'s address or /subscription; a bad one shows why with Go to Homepage; no token goes home.',
  meta: {
    title: 'Login link',
    events: {
    },
  },
  context: ({ input }) => ({ ...input, serverMessage: null }),
  initial: 'routing',
  states: {
    routing: {
      description: 'Reading the link',
      meta: { screen: '/auth?token=…&redirectUrl=…' },
      always: [{ guard: 'hasToken', target: 'verifying' }, { target: 'noToken' }],
    },
    noToken: {
      type: 'final',
      description: 'No token in the link',
      entry: { type: 'goTo', params: { path: routes.home, replace: true } },
    },
    verifying: {
      description: 'Checking the link',
      invoke: {
        id: 'verifyAuthLink',
        src: 'verifyAuthLink',
        input: ({ context }) => ({ token: context.token!.trim() }),
        onDone: {
          target: 'signedIn',
          description: 'Link accepted',
          actions: [
            { type: 'startSession', params: ({ event }) => ({ result: event.output }) },
            { type: 'goTo', params: ({ context }) => ({ path: context.redirectTo, replace: true }) },
          ],
        },
        onError: { target: 'failed', description: 'Link refused or expired', actions: withErrorMessage('assignServerMessage') },
      },
    },
    failed: { description: 'Showing why the link failed' },
    signedIn: {
      type: 'final',
      description: 'Signed in',
    },
  },
});

export type LoginLinkMachine = typeof loginLinkMachine;
