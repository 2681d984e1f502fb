/** Typing helpers the model tests share: the rendered run, typing into a field, fixtures typed by actor output. */
import { screen, waitFor, type BoundFunctions, type queries } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import type { AnyStateMachine, OutputFrom } from 'xstate';
import type { FlowActors } from '../../src/views/useFlow';
import type { renderView } from './render';

/** A rendered view with a user-event session. */
export type Run = ReturnType<typeof renderView> & { user: ReturnType<typeof userEvent.setup> };

/** The output an actor of the machine answers with (its API function's result). */
export type ActorOutput<M extends AnyStateMachine, Src extends keyof FlowActors<M>> = OutputFrom<FlowActors<M>[Src]>;

export interface InvocationFixture<TOutput = unknown> {
  done?: TOutput[];
  error?: Error[];
}

/**
 * Done and error fixtures per invoke id. An id that is also an actor's name takes that actor's
 * output type, so a fixture that no longer matches the API fails to compile; an invoke whose id
 * differs from its src (recovery's `resendRecoveryCode`) is typed where it is written.
 */
export type InvocationFixtures<M extends AnyStateMachine> = {
  [Src in keyof FlowActors<M>]?: InvocationFixture<ActorOutput<M, Src>>;
} & Record<string, InvocationFixture>;

/** Clears a field and types a value, as a person would. */
export async function typeInto(run: Run, label: string, value: string, scope: BoundFunctions<typeof queries> = screen) {
  const field = scope.getByLabelText(label);
  await run.user.clear(field);
  if (value) await run.user.type(field, value);
}

/**
 * Presses Escape in the open alert dialog once it has taken focus, as a person would. Ark's dialog
 * (zag) starts listening for Escape a frame after it opens, when it also moves focus inside; a key
 * pressed before that frame is not the dialog's (under load, two test files at once, it was lost).
 */
export async function escapeFromDialog(run: Pick<Run, 'user'>) {
  const dialog = await screen.findByRole('alertdialog');
  await waitFor(() => {
    if (!dialog.contains(document.activeElement)) throw new Error('The dialog has not taken focus yet');
  });
  await run.user.keyboard('{Escape}');
}
