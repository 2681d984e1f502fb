/** Sign-in's view props (zag's connect): the form's errors, whether it is sending, and submit. */
import type { SnapshotFrom } from 'xstate';
import type { SignInEvent, SignInMachine } from './signIn.machine';

export function connectSignIn(state: SnapshotFrom<SignInMachine>, send: (event: SignInEvent) => void) {
  return {
    submitting: state.matches('submitting'),
    fieldErrors: state.context.fieldErrors,
    serverMessage: state.context.serverMessage,
    onSubmit: (values: { email: string; password: string }) => send({ type: 'form.submit', values }),
  };
}
