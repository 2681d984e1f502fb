/** Sign-up's view props (zag's connect): which step shows, and each step's data and handlers. */
import type { SnapshotFrom } from 'xstate';
import { connectCodeEntry } from '../codeEntry';
import type { SignUpEvent, SignUpMachine, SignUpValues } from './signUp.machine';

export function connectSignUp(state: SnapshotFrom<SignUpMachine>, send: (event: SignUpEvent) => void) {
  const step = state.matches('linkIncomplete') ? 'linkIncomplete' : state.matches('verify') ? 'verify' : 'register';
  return {
    step,
    register: {
      fieldErrors: state.context.fieldErrors,
      serverMessage: state.context.serverMessage,
      submitting: state.matches({ register: 'submitting' }),
      /** The address typed on the landing page (product.md#landing). */
      prefillEmail: state.context.email ?? '',
      onSubmit: (values: SignUpValues) => send({ type: 'form.submit', values }),
    },
    code: connectCodeEntry(state, send),
  } as const;
}
