/** Connects the code-entry chart (codeEntry.chart.ts, placed as a flow's `verify` state) to the code form. */
import type { CodeEntryEvent } from './codeEntry.chart';

interface CodeStepSnapshot {
  context: { email: string | null; fieldErrors: { otpCode?: string | undefined }; serverMessage: string | null };
  matches(value: { verify: 'verifying' | 'resending' }): boolean;
}

export function connectCodeEntry(state: CodeStepSnapshot, send: (event: CodeEntryEvent) => void) {
  return {
    email: state.context.email,
    error: state.context.fieldErrors.otpCode,
    serverMessage: state.context.serverMessage,
    verifying: state.matches({ verify: 'verifying' }),
    resending: state.matches({ verify: 'resending' }),
    onSubmit: (otpCode: string) => send({ type: 'code.submit', otpCode }),
    onResend: () => send({ type: 'code.resend' }),
  };
}
