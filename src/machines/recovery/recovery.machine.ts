/**
 * Password recovery (product.md#recovery, product.md#recovery-flow): request a code by email, verify it, set a new password, then log in.
 * One machine holds the whole flow; the URL is its projection
 * (/forgot-password → /forgot-password/verify?q=&email= → /forgot-password/reset?q=), so a reload on
 * any step resumes there, or explains what to do when the address is incomplete.
 */
import { assign, setup } from 'xstate';
import { forgotSendRequestSchema, otpField, resetPasswordRequestSchema } from '../../api/schemas';
import { routes } from '../../lib/route-paths';
import { fieldErrorsOf, firstErrorOf, type FieldErrors } from '../../lib/validation';
import { notProvided } from '../actors';
import { codeEntryStates } from '../codeEntry';
import { m } from '../../i18n';
import { formStates, withErrorMessage, type Navigation, type Notify } from '../shared';
import { format, type RecoveryLocation } from './recovery.address';

export type { RecoveryLocation, RecoveryStep } from './recovery.address';

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

const recoverySetup = setup({
  types: {
    context: {} as RecoveryContext,
    events: {} as RecoveryEvent,
    input: {} as RecoveryLocation,
  },
  actors: {
    sendRecoveryCode: notProvided<'sendRecoveryCode'>('sendRecoveryCode'),
    verifyRecoveryCode: notProvided<'verifyRecoveryCode'>('verifyRecoveryCode'),
    resetPassword: notProvided<'resetPassword'>('resetPassword'),
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
    assignVerifyToken: assign((_, params: { verifyToken: string }) => ({
      verifyToken: params.verifyToken,
      step: 'verify' as const,
      serverMessage: null,
    })),
    assignResetToken: assign((_, params: { resetToken: string }) => ({
      resetToken: params.resetToken,
      step: 'reset' as const,
      verifyToken: null,
    })),
    assignServerMessage: assign((_, params: { message: string }) => ({ serverMessage: params.message })),
    forgetSecrets: assign({ otpCode: null, passwords: null }),
    restart: assign({ step: 'request' as const, verifyToken: null, resetToken: null, fieldErrors: {}, serverMessage: null }),
    // Bound by the view: the URL projection, toasts, and the way to the login page.
    goTo: (_, _params: Navigation) => {},
    notify: (_, _params: Notify) => {},
  },
});

/** What this flow's code step calls and does (the code-entry chart itself is shared: codeEntry.chart.ts). */
const verifyingCode = recoverySetup.createStateConfig({
  invoke: {
    id: 'verifyRecoveryCode',
    src: 'verifyRecoveryCode',
    input: ({ context }) => ({ verifyToken: context.verifyToken!, otpCode: context.otpCode! }),
    onDone: {
      target: '#recovery.reset',
      description: 'Code accepted',
      actions: [
        { type: 'assignResetToken', params: ({ event }) => ({ resetToken: event.output.resetToken }) },
        { type: 'goTo', params: ({ context }) => ({ path: format(context) }) },
        { type: 'notify', params: { kind: 'success', message: m.otp_verified_successfully } },
      ],
    },
    onError: { target: 'form.rejected', actions: withErrorMessage('assignServerMessage') },
  },
});

// A new code is a new request for the same email: the address gets the new token.
const resendingCode = recoverySetup.createStateConfig({
  invoke: {
    id: 'resendRecoveryCode',
    src: 'sendRecoveryCode',
    input: ({ context }) => ({ email: context.email! }),
    onDone: {
      target: 'form.editing',
      actions: [
        { type: 'assignVerifyToken', params: ({ event }) => ({ verifyToken: event.output.verifyToken }) },
        { type: 'goTo', params: ({ context }) => ({ path: format(context), replace: true }) },
        { type: 'notify', params: { kind: 'success', message: m.otp_sent_successfully } },
      ],
    },
    onError: { target: 'form.rejected', actions: withErrorMessage('assignServerMessage') },
  },
});

export const recoveryMachine = recoverySetup.createMachine({
  id: 'recovery',
  description:
    'A person who forgot their password asks for a code by email, enters it, then sets a new password and signs in on /login. Each step has its own address, so a reload resumes it; an incomplete address says what to do. Cancel starts over.',
  meta: {
    title: 'Forgot password',
    events: {
      'email.submit': 'The person sends their email',
      'code.submit': 'The person submits the code',
      'code.resend': 'The person presses Resend OTP',
      'password.submit': 'The person submits the new password twice',
      'flow.cancel': 'The person presses Cancel',
      'location.changed': 'The address changes (back, forward, a link)',
    },
  },
  context: ({ input }) => ({ ...input, otpCode: null, passwords: null, fieldErrors: {}, serverMessage: null }),
  initial: 'routing',
  on: {
    'location.changed': { target: '.routing', actions: 'assignLocation' },
  },
  states: {
    routing: {
      description: 'Reading the address',
      always: [
        { guard: 'canReset', target: 'reset' },
        { guard: 'canVerify', target: 'verify' },
        { guard: 'isLinkIncomplete', target: 'linkIncomplete' },
        { target: 'request' },
      ],
    },
    request: {
      description: 'Asking for a code',
      meta: { screen: '/forgot-password' },
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
          description: 'Sending the code',
          invoke: {
            id: 'sendRecoveryCode',
            src: 'sendRecoveryCode',
            input: ({ context }) => ({ email: context.email! }),
            onDone: {
              target: '#recovery.verify',
              description: 'Code sent',
              actions: [
                { type: 'assignVerifyToken', params: ({ event }) => ({ verifyToken: event.output.verifyToken }) },
                { type: 'goTo', params: ({ context }) => ({ path: format(context) }) },
                { type: 'notify', params: { kind: 'success', message: m.otp_sent_successfully } },
              ],
            },
            onError: { target: 'form.rejected', actions: withErrorMessage('assignServerMessage') },
          },
        },
      },
    },
    verify: {
      description: 'Waiting for the code',
      meta: { screen: '/forgot-password/verify?q=…&email=…' },
      ...codeEntryStates({
        verifying: verifyingCode,
        resending: resendingCode,
        // Cancel is offered while the form waits for the person, not while a call is in flight.
        on: recoverySetup.createStateConfig({
          on: { 'flow.cancel': { target: '#recovery.request', actions: ['restart', { type: 'goTo', params: { path: routes.forgotPassword } }] } },
        }).on,
      }),
    },
    reset: {
      description: 'Choosing a new password',
      meta: { screen: '/forgot-password/reset?q=…' },
      initial: 'form',
      states: {
        form: {
          ...formStates,
          on: {
            'password.submit': [
              { guard: 'arePasswordsValid', target: 'resetting', actions: 'assignPasswords' },
              { target: '.invalid', actions: 'assignPasswordErrors' },
            ],
            'flow.cancel': { target: '#recovery.request', actions: ['restart', { type: 'goTo', params: { path: routes.forgotPassword } }] },
          },
        },
        resetting: {
          description: 'Saving the new password',
          invoke: {
            id: 'resetPassword',
            src: 'resetPassword',
            input: ({ context }) => ({ resetToken: context.resetToken!, ...context.passwords! }),
            onDone: {
              target: '#recovery.done',
              description: 'Password changed',
              actions: [
                { type: 'notify', params: { kind: 'success', message: m.password_reset_successfully } },
                { type: 'goTo', params: { path: routes.login, replace: true } },
              ],
            },
            onError: { target: 'form.rejected', actions: withErrorMessage('assignServerMessage') },
          },
          exit: 'forgetSecrets',
        },
      },
    },
    linkIncomplete: {
      description: 'The link is incomplete',
      on: { 'flow.cancel': { target: 'request', actions: ['restart', { type: 'goTo', params: { path: routes.forgotPassword } }] } },
    },
    done: {
      type: 'final',
      description: 'Done: sign in with the new password',
    },
  },
});


export type RecoveryMachine = typeof recoveryMachine;
