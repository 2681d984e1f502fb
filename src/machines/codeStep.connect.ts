/** Connects a flow's code step (sign-up and recovery share its context fields and `verify.*` states) to the code form. */
interface CodeStepSnapshot {
  context: { email: string | null; fieldErrors: { otpCode?: string | undefined }; serverMessage: string | null };
  matches(value: { verify: 'verifying' | 'resending' }): boolean;
}
type CodeStepEvent = { type: 'code.submit'; otpCode: string } | { type: 'code.resend' };

export function connectCodeStep(state: CodeStepSnapshot, send: (event: CodeStepEvent) => void) {
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
