/**
 * The code-entry chart sign-up and recovery share (product.md#sign-up-code, product.md#recovery-flow):
 * a 6-character code typed and checked, or a new one asked for. It is written once here; each flow
 * places it as its `verify` state and supplies what differs: what checking the code and sending a new
 * one call and do afterwards (typed with the flow's own `createStateConfig`), and any event the form
 * also takes (recovery's Cancel). The flow's setup provides the guard `isCodeValid` and the actions
 * `assignCode`, `assignCodeError` and `forgetSecrets` (the code is forgotten once checked).
 */
import { formStates } from '../shared';

export type CodeEntryEvent = { type: 'code.submit'; otpCode: string } | { type: 'code.resend' };

export function codeEntryStates<const TVerifying extends object, const TResending extends object, const TOn extends object>(parts: {
  verifying: TVerifying;
  resending: TResending;
  on: TOn;
}) {
  return {
    initial: 'form',
    states: {
      form: {
        ...formStates,
        on: {
          'code.submit': [
            { guard: 'isCodeValid', target: 'verifying', actions: 'assignCode', description: 'A 6-character code' },
            { target: '.invalid', actions: 'assignCodeError', description: 'No code or not 6 characters' },
          ],
          'code.resend': { target: 'resending', description: 'Resend OTP' },
          ...parts.on,
        },
      },
      verifying: { description: 'Checking the code', ...parts.verifying, exit: 'forgetSecrets' },
      resending: { description: 'Sending a new code', ...parts.resending },
    },
  } as const;
}
