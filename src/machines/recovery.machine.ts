/**
 * Password recovery (spec §2, §4): request a code by email, verify it, set a new password, then log in.
 * One machine holds the whole flow; the URL is its projection
 * (/forgot-password → /forgot-password/verify?q=&email= → /forgot-password/reset?q=), so a reload on
 * any step resumes there, or explains what to do when the address is incomplete.
 */
import { assign, fromPromise, setup } from 'xstate';
import { forgotSendRequestSchema, otpField, resetPasswordRequestSchema } from '../api/schemas';
import { fieldErrorsOf, firstErrorOf, type FieldErrors } from '../lib/validation';
import { errorMessageOf, formStates, outputOf, type Notify } from './shared';

export type RecoveryStep = 'request' | 'verify' | 'reset';

export interface RecoveryLocation {
  step: RecoveryStep;
  /** q on the verify step */
  verifyToken: string | null;
  email: string | null;
  /** q on the reset step */
  resetToken: string | null;
}

export interface RecoveryContext extends RecoveryLocation {
  otpCode: string | null;
  passwords: { password: string; confirmPassword: string } | null;
  fieldErrors: FieldErrors<{ email: string; otpCode: string; password: string; confirmPassword: string }>;
  serverMessage: string | null;
}

export type RecoveryEvent =
  | { type: 'email.submit'; email: string }
  | { type: 'code.submit'; otpCode: string }
  | { type: 'code.resend' }
  | { type: 'password.submit'; password: string; confirmPassword: string }
  | { type: 'flow.cancel' }
  | { type: 'location.changed'; location: RecoveryLocation };

const passwordsSchema = resetPasswordRequestSchema;

export const recoveryMachine = setup({
  types: {
    context: {} as RecoveryContext,
    events: {} as RecoveryEvent,
    input: {} as RecoveryLocation,
  },
  actors: {
    sendRecoveryCode: fromPromise<{ verifyToken: string }, { email: string }>(async () => {
      throw new Error('sendRecoveryCode actor not provided');
    }),
    verifyRecoveryCode: fromPromise<{ resetToken: string }, { verifyToken: string; otpCode: string }>(async () => {
      throw new Error('verifyRecoveryCode actor not provided');
    }),
    resetPassword: fromPromise<unknown, { resetToken: string; password: string; confirmPassword: string }>(async () => {
      throw new Error('resetPassword actor not provided');
    }),
  },
  guards: {
    canReset: ({ context }) => context.step === 'reset' && Boolean(context.resetToken),
    canVerify: ({ context }) => context.step === 'verify' && Boolean(context.verifyToken && context.email),
    isLinkIncomplete: ({ context }) => context.step !== 'request',
    isEmailValid: ({ event }) => event.type === 'email.submit' && forgotSendRequestSchema.safeParse({ email: event.email }).success,
    isCodeValid: ({ event }) => event.type === 'code.submit' && otpField.safeParse(event.otpCode).success,
    arePasswordsValid: ({ context, event }) =>
      event.type === 'password.submit' &&
      passwordsSchema.safeParse({ resetToken: context.resetToken, password: event.password, confirmPassword: event.confirmPassword }).success,
  },
  actions: {
    assignLocation: assign(({ event }) => (event.type === 'location.changed' ? { ...event.location, serverMessage: null, fieldErrors: {} } : {})),
    assignEmail: assign(({ event }) =>
      event.type === 'email.submit' ? { email: event.email.trim().toLowerCase(), fieldErrors: {}, serverMessage: null } : {},
    ),
    assignEmailError: assign(({ event }) =>
      event.type === 'email.submit' ? { fieldErrors: fieldErrorsOf(forgotSendRequestSchema, { email: event.email }), serverMessage: null } : {},
    ),
    assignCode: assign(({ event }) =>
      event.type === 'code.submit' ? { otpCode: event.otpCode.trim().toUpperCase(), fieldErrors: {}, serverMessage: null } : {},
    ),
    assignCodeError: assign(({ event }) =>
      event.type === 'code.submit' ? { fieldErrors: { otpCode: firstErrorOf(otpField, event.otpCode) }, serverMessage: null } : {},
    ),
    assignPasswords: assign(({ event }) =>
      event.type === 'password.submit'
        ? { passwords: { password: event.password, confirmPassword: event.confirmPassword }, fieldErrors: {}, serverMessage: null }
        : {},
    ),
    assignPasswordErrors: assign(({ context, event }) =>
      event.type === 'password.submit'
        ? {
            fieldErrors: fieldErrorsOf(passwordsSchema, { resetToken: context.resetToken, password: event.password, confirmPassword: event.confirmPassword }),
            serverMessage: null,
          }
        : {},
    ),
    assignVerifyToken: assign(({ event }) => ({
      verifyToken: outputOf<{ verifyToken: string }>(event).verifyToken,
      step: 'verify' as const,
      serverMessage: null,
    })),
    assignResetToken: assign(({ event }) => ({
      resetToken: outputOf<{ resetToken: string }>(event).resetToken,
      step: 'reset' as const,
      verifyToken: null,
    })),
    assignServerMessage: assign(({ event }) => ({ serverMessage: errorMessageOf(event) })),
    forgetSecrets: assign({ otpCode: null, passwords: null }),
    restart: assign({ step: 'request' as const, verifyToken: null, resetToken: null, fieldErrors: {}, serverMessage: null }),
    // Bound by the view: the URL projection, toasts, and the way to the login page.
    showStep: (_, _params: { path: string; replace?: boolean }) => {},
    notify: (_, _params: Notify) => {},
    goToLogin: () => {},
  },
}).createMachine({
  id: 'recovery',
  context: ({ input }) => ({ ...input, otpCode: null, passwords: null, fieldErrors: {}, serverMessage: null }),
  initial: 'routing',
  on: {
    'location.changed': { target: '.routing', actions: 'assignLocation' },
  },
  states: {
    routing: {
      always: [
        { guard: 'canReset', target: 'reset' },
        { guard: 'canVerify', target: 'verify' },
        { guard: 'isLinkIncomplete', target: 'linkIncomplete' },
        { target: 'request' },
      ],
    },
    request: {
      initial: 'form',
      states: {
        form: {
          ...formStates,
          on: {
            'email.submit': [
              { guard: 'isEmailValid', target: 'sending', actions: 'assignEmail' },
              { target: '.invalid', actions: 'assignEmailError' },
            ],
          },
        },
        sending: {
          invoke: {
            id: 'sendRecoveryCode',
            src: 'sendRecoveryCode',
            input: ({ context }) => ({ email: context.email! }),
            onDone: {
              target: '#recovery.verify',
              actions: [
                'assignVerifyToken',
                { type: 'showStep', params: ({ context }) => ({ path: verifyPath(context) }) },
                { type: 'notify', params: { kind: 'success', message: 'OTP sent successfully!' } },
              ],
            },
            onError: { target: 'form.rejected', actions: 'assignServerMessage' },
          },
        },
      },
    },
    verify: {
      initial: 'form',
      states: {
        form: {
          ...formStates,
          on: {
            'code.submit': [
              { guard: 'isCodeValid', target: 'verifying', actions: 'assignCode' },
              { target: '.invalid', actions: 'assignCodeError' },
            ],
            'code.resend': 'resending',
            // Cancel is offered while the form waits for the person, not while a call is in flight.
            'flow.cancel': { target: '#recovery.request', actions: ['restart', { type: 'showStep', params: { path: '/forgot-password' } }] },
          },
        },
        verifying: {
          invoke: {
            id: 'verifyRecoveryCode',
            src: 'verifyRecoveryCode',
            input: ({ context }) => ({ verifyToken: context.verifyToken!, otpCode: context.otpCode! }),
            onDone: {
              target: '#recovery.reset',
              actions: [
                'assignResetToken',
                { type: 'showStep', params: ({ context }) => ({ path: `/forgot-password/reset?q=${encodeURIComponent(context.resetToken!)}` }) },
                { type: 'notify', params: { kind: 'success', message: 'OTP verified successfully!' } },
              ],
            },
            onError: { target: 'form.rejected', actions: 'assignServerMessage' },
          },
          exit: 'forgetSecrets',
        },
        // A new code is a new request for the same email: the address gets the new token.
        resending: {
          invoke: {
            id: 'resendRecoveryCode',
            src: 'sendRecoveryCode',
            input: ({ context }) => ({ email: context.email! }),
            onDone: {
              target: 'form.editing',
              actions: [
                'assignVerifyToken',
                { type: 'showStep', params: ({ context }) => ({ path: verifyPath(context), replace: true }) },
                { type: 'notify', params: { kind: 'success', message: 'OTP sent successfully!' } },
              ],
            },
            onError: { target: 'form.rejected', actions: 'assignServerMessage' },
          },
        },
      },
    },
    reset: {
      initial: 'form',
      states: {
        form: {
          ...formStates,
          on: {
            'password.submit': [
              { guard: 'arePasswordsValid', target: 'resetting', actions: 'assignPasswords' },
              { target: '.invalid', actions: 'assignPasswordErrors' },
            ],
            'flow.cancel': { target: '#recovery.request', actions: ['restart', { type: 'showStep', params: { path: '/forgot-password' } }] },
          },
        },
        resetting: {
          invoke: {
            id: 'resetPassword',
            src: 'resetPassword',
            input: ({ context }) => ({ resetToken: context.resetToken!, ...context.passwords! }),
            onDone: '#recovery.done',
            onError: { target: 'form.rejected', actions: 'assignServerMessage' },
          },
          exit: 'forgetSecrets',
        },
      },
    },
    linkIncomplete: {
      on: { 'flow.cancel': { target: 'request', actions: ['restart', { type: 'showStep', params: { path: '/forgot-password' } }] } },
    },
    done: {
      type: 'final',
      entry: [{ type: 'notify', params: { kind: 'success', message: 'Password reset successfully!' } }, 'goToLogin'],
    },
  },
});

function verifyPath(context: Pick<RecoveryContext, 'verifyToken' | 'email'>): string {
  const query = new URLSearchParams({ q: context.verifyToken ?? '', email: context.email ?? '' });
  return `/forgot-password/verify?${query.toString()}`;
}

export type RecoveryMachine = typeof recoveryMachine;
