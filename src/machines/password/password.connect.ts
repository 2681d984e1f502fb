/** The security card's view props (zag's connect). */
import type { SnapshotFrom } from 'xstate';
import type { PasswordEvent, PasswordMachine } from './password.machine';

export function connectPassword(state: SnapshotFrom<PasswordMachine>, send: (event: PasswordEvent) => void) {
  return {
    submitting: state.matches('submitting'),
    fieldErrors: state.context.fieldErrors,
    serverMessage: state.context.serverMessage,
    onSubmit: (values: PasswordEvent['values']) => send({ type: 'form.submit', values }),
  };
}
