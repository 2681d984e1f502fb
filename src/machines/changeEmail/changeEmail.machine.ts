/**
 * Change of email on /account (issue 36, product.md#email-change): the current password and the new
 * address, then the 6-character code mailed to the new address (the shared code-entry chart, with
 * Resend OTP and Cancel). The right code changes the address; the old address gets a notice with a
 * "this wasn't me" link (emailUndo.machine.ts).
 */
import { assign, setup } from 'xstate';
import { emailChangeRequestSchema, otpField, type EmailChangeRequest } from '../../api/schemas';
import { m } from '../../i18n';
import { fieldErrorsOf, firstErrorOf, type FieldErrors } from '../../lib/validation';
import { notProvided } from '../actors';
import { codeEntryStates } from '../codeEntry/codeEntry.chart';
import { formStates, withErrorMessage, type Notify } from '../shared';

export interface ChangeEmailContext {
  request: EmailChangeRequest | null;
  /** The address the code went to. */
  email: string | null;
  verificationToken: string | null;
  otpCode: string | null;
  fieldErrors: FieldErrors<EmailChangeRequest & { otpCode: string }>;
  serverMessage: string | null;
}

export type ChangeEmailValues = Record<keyof EmailChangeRequest, string>;

export type ChangeEmailEvent =
  | { type: 'email.edit' }
  | { type: 'form.submit'; values: ChangeEmailValues }
  | { type: 'form.cancel' }
  | { type: 'code.submit'; otpCode: string }
  | { type: 'code.resend' }
  | { type: 'code.cancel' };

const EMPTY = { request: null, email: null, verificationToken: null, otpCode: null, fieldErrors: {}, serverMessage: null };

const changeEmailSetup = setup({
  types: {
    context: {} as ChangeEmailContext,
    events: {} as ChangeEmailEvent,
  },
  actors: {
    startEmailChange: notProvided<'startEmailChange'>('startEmailChange'),
    verifyEmailChange: notProvided<'verifyEmailChange'>('verifyEmailChange'),
    resendEmailChangeCode: notProvided<'resendEmailChangeCode'>('resendEmailChangeCode'),
  },
  guards: {
    isFormValid: ({ event }) => event.type === 'form.submit' && emailChangeRequestSchema.safeParse(event.values).success,
    isCodeValid: ({ event }) => event.type === 'code.submit' && otpField.safeParse(event.otpCode).success,
  },
  actions: {
    assignRequest: assign(({ event }) => {
      if (event.type !== 'form.submit') return {};
      const request = emailChangeRequestSchema.parse(event.values);
      return { request, email: request.newEmail.toLowerCase(), fieldErrors: {}, serverMessage: null };
    }),
    assignFormErrors: assign(({ event }) =>
      event.type === 'form.submit' ? { fieldErrors: fieldErrorsOf(emailChangeRequestSchema, event.values), serverMessage: null } : {},
    ),
    assignVerification: assign((_, params: { verificationToken: string }) => ({ verificationToken: params.verificationToken })),
    assignCode: assign(({ event }) =>
      event.type === 'code.submit' ? { otpCode: otpField.parse(event.otpCode).toUpperCase(), fieldErrors: {}, serverMessage: null } : {},
    ),
    assignCodeError: assign(({ event }) =>
      event.type === 'code.submit' ? { fieldErrors: { otpCode: firstErrorOf(otpField, event.otpCode) }, serverMessage: null } : {},
    ),
    assignServerMessage: assign((_, params: { message: string }) => ({ serverMessage: params.message })),
    forgetPassword: assign({ request: null }),
    forgetSecrets: assign({ otpCode: null }),
    reset: assign(EMPTY),
    // Bound by the view.
    notify: (_, _params: Notify) => {},
    emailChanged: (_, _params: { email: string }) => {},
  },
});

const verifyingCode = changeEmailSetup.createStateConfig({
  invoke: {
    id: 'verifyEmailChange',
    src: 'verifyEmailChange',
    input: ({ context }) => ({ verificationToken: context.verificationToken!, otpCode: context.otpCode! }),
    onDone: {
      target: '#changeEmail.closed',
      description: 'Code accepted: the address changed',
      actions: [
        { type: 'emailChanged', params: ({ event }) => ({ email: event.output.email }) },
        { type: 'notify', params: { kind: 'success', message: m.email_address_changed_successfully } },
        'reset',
      ],
    },
    onError: { target: 'form.rejected', description: 'Wrong or expired code', actions: withErrorMessage('assignServerMessage') },
  },
});

const resendingCode = changeEmailSetup.createStateConfig({
  invoke: {
    id: 'resendEmailChangeCode',
    src: 'resendEmailChangeCode',
    input: ({ context }) => ({ verificationToken: context.verificationToken! }),
    onDone: {
      target: 'form.editing',
      description: 'New code sent',
      actions: { type: 'notify', params: { kind: 'success', message: m.otp_sent_successfully } },
    },
    onError: { target: 'form.rejected', description: 'New code refused', actions: withErrorMessage('assignServerMessage') },
  },
});

export const changeEmailMachine = changeEmailSetup.createMachine({
  id: 'changeEmail',
  description:
    'On /account the viewer changes their email address: the current password and the new address, then the code mailed to the new address (they can ask for a new one, or cancel). The right code changes the address; the old address is told, with a link that undoes it.',
  meta: {
    title: 'Change email',
    events: {
      'email.edit': 'The viewer presses Change Email',
      'form.submit': 'The viewer presses Send Code',
      'form.cancel': 'The viewer presses Cancel on the form',
      'code.submit': 'The viewer submits the code',
      'code.resend': 'The viewer presses Resend OTP',
      'code.cancel': 'The viewer presses Cancel on the code step',
    },
  },
  context: EMPTY,
  initial: 'closed',
  states: {
    closed: {
      description: 'The address, with Change Email',
      meta: { screen: '/account' },
      on: { 'email.edit': { target: 'form' } },
    },
    form: {
      ...formStates,
      description: 'The current password and the new address',
      on: {
        'form.submit': [
          { guard: 'isFormValid', target: 'sending', actions: 'assignRequest', description: 'Both fields valid' },
          { target: '.invalid', actions: 'assignFormErrors', description: 'A field missing or wrong' },
        ],
        'form.cancel': { target: 'closed', actions: 'reset' },
      },
    },
    sending: {
      description: 'Checking the password and mailing a code to the new address',
      exit: 'forgetPassword',
      invoke: {
        id: 'startEmailChange',
        src: 'startEmailChange',
        input: ({ context }) => context.request!,
        onDone: {
          target: 'verify',
          description: 'Code sent',
          actions: [
            { type: 'assignVerification', params: ({ event }) => ({ verificationToken: event.output.verificationToken }) },
            { type: 'notify', params: { kind: 'success', message: m.otp_sent_successfully } },
          ],
        },
        onError: { target: 'form.rejected', description: 'Wrong password, or too many tries', actions: withErrorMessage('assignServerMessage') },
      },
    },
    verify: {
      description: 'Waiting for the code sent to the new address',
      ...codeEntryStates({
        verifying: verifyingCode,
        resending: resendingCode,
        on: { 'code.cancel': { target: '#changeEmail.closed', actions: 'reset', description: 'Cancel' } },
      }),
    },
  },
});

export type ChangeEmailMachine = typeof changeEmailMachine;
