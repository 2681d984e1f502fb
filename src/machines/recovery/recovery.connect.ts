/** Recovery's view props (zag's connect): which step shows, and each step's data and handlers. */
import type { SnapshotFrom } from 'xstate';
import { connectCodeEntry } from '../codeEntry';
import type { RecoveryEvent, RecoveryMachine } from './recovery.machine';

export function connectRecovery(state: SnapshotFrom<RecoveryMachine>, send: (event: RecoveryEvent) => void) {
  const { fieldErrors, serverMessage } = state.context;
  const step = state.matches('linkIncomplete') ? 'linkIncomplete' : state.matches('verify') ? 'verify' : state.matches('reset') ? 'reset' : 'request';
  return {
    step,
    onCancel: () => send({ type: 'flow.cancel' }),
    request: {
      email: state.context.email ?? '',
      fieldErrors,
      serverMessage,
      sending: state.matches({ request: 'sending' }),
      onSubmit: (email: string) => send({ type: 'email.submit', email }),
    },
    code: connectCodeEntry(state, send),
    reset: {
      fieldErrors,
      serverMessage,
      resetting: state.matches({ reset: 'resetting' }),
      onSubmit: (values: { password: string; confirmPassword: string }) => send({ type: 'password.submit', ...values }),
    },
  } as const;
}
