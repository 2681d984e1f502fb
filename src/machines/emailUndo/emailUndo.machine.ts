/**
 * "This wasn't me" (issue 36, product.md#email-change): the link mailed to the old address after an
 * email change, /account/email/undo?token=…. Nothing is done until the person presses the button (a mail
 * scanner that opens links must not undo a real change and sign everyone out: newcomer walk). The token is
 * sent once; a good one restores the old address and ends every session (this browser's too); a bad one says why.
 */
import { assign, setup } from 'xstate';
import { notProvided } from '../actors';
import { withErrorMessage } from '../shared';

export interface EmailUndoInput {
  token: string | null;
}

export interface EmailUndoContext extends EmailUndoInput {
  serverMessage: string | null;
}

export const emailUndoMachine = setup({
  types: {
    context: {} as EmailUndoContext,
    input: {} as EmailUndoInput,
  },
  actors: {
    undoEmailChange: notProvided<'undoEmailChange'>('undoEmailChange'),
  },
  guards: {
    hasToken: ({ context }) => Boolean(context.token?.trim()),
  },
  actions: {
    assignServerMessage: assign((_, params: { message: string }) => ({ serverMessage: params.message })),
    // Bound by the view: this browser's session ended with every other.
    signOutHere: () => {},
  },
}).createMachine({
  id: 'emailUndo',
  description:
    'A person opens the "this wasn\'t me" link from the notice sent to their old address. A good link changes the address back, signs out every device and suggests a new password; a used or expired one says so.',
  meta: { title: 'Undo an email change', events: { 'undo.confirm': 'The person presses Change It Back' } },
  context: ({ input }) => ({ ...input, serverMessage: null }),
  initial: 'routing',
  states: {
    routing: {
      description: 'Reading the link',
      meta: { screen: '/account/email/undo?token=…' },
      always: [{ guard: 'hasToken', target: 'asking' }, { target: 'noToken' }],
    },
    noToken: { type: 'final', description: 'The link has no token' },
    asking: {
      description: 'Asking whether to change the address back (opening the link does nothing by itself)',
      on: { 'undo.confirm': { target: 'undoing' } },
    },
    undoing: {
      description: 'Changing the address back',
      invoke: {
        id: 'undoEmailChange',
        src: 'undoEmailChange',
        input: ({ context }) => ({ token: context.token!.trim() }),
        onDone: { target: 'undone', description: 'Address restored, every device signed out', actions: 'signOutHere' },
        onError: { target: 'failed', description: 'Link used, expired or refused', actions: withErrorMessage('assignServerMessage') },
      },
    },
    undone: { type: 'final', description: 'Showing that the address is back, with Reset Password' },
    failed: { description: 'Showing why the link did not work' },
  },
});

export type EmailUndoMachine = typeof emailUndoMachine;
