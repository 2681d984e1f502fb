/** The email card's view props (zag's connect); the code step is the shared code-entry connect. */
import type { SnapshotFrom } from 'xstate';
import { connectCodeEntry } from '../codeEntry/codeEntry.connect';
import type { ChangeEmailEvent, ChangeEmailMachine, ChangeEmailValues } from './changeEmail.machine';

export function connectChangeEmail(state: SnapshotFrom<ChangeEmailMachine>, send: (event: ChangeEmailEvent) => void) {
  const step = state.matches('closed') ? ('closed' as const) : state.matches('verify') ? ('code' as const) : ('form' as const);
  return {
    step,
    sending: state.matches('sending'),
    fieldErrors: state.context.fieldErrors,
    serverMessage: state.context.serverMessage,
    code: connectCodeEntry(state, send),
    onEdit: () => send({ type: 'email.edit' }),
    onSubmit: (values: ChangeEmailValues) => send({ type: 'form.submit', values }),
    onCancel: () => send({ type: 'form.cancel' }),
    onCancelCode: () => send({ type: 'code.cancel' }),
  };
}
