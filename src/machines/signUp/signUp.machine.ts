/**
 * Sign-up (product.md#register, product.md#form-rules; product.md#sign-up-code: /register/verify): the form, then the 6-character code
 * mailed to the viewer with 'Resend OTP'; a verified code logs the viewer in and goes to /subscription.
 * The URL is a projection: /register/verify?q={verificationToken}&email={email} resumes the code step.
 */
import { assign, setup } from 'xstate';
import { otpField, signUpRequestSchema, type SignUpRequest } from '../../api/schemas';
import { routes } from '../../lib/route-paths';
import { fieldErrorsOf, firstErrorOf, type FieldErrors } from '../../lib/validation';
import { notProvided } from '../actors';
import { codeEntryStates } from '../codeEntry';
import { m } from '../../i18n';
import { formStates, withErrorMessage, type Navigation, type Notify, type StartSession } from '../shared';
import { format, type SignUpLocation } from './signUp.address';

export type { SignUpLocation } from './signUp.address';

export interface SignUpContext extends SignUpLocation {
  account: SignUpRequest | null;
  otpCode: string | null;
  fieldErrors: FieldErrors<SignUpRequest & { otpCode: string }>;
  serverMessage: string | null;
}

export type SignUpValues = Record<keyof SignUpRequest, string>;

export type SignUpEvent =
  | { type: 'form.submit'; values: SignUpValues }
  | { type: 'code.submit'; otpCode: string }
  | { type: 'code.resend' }
  | { type: 'location.changed'; location: SignUpLocation };

const codeSchema = otpField;

const signUpSetup = setup({
  types: {
    context: {} as SignUpContext,
    events: {} as SignUpEvent,
    input: {} as SignUpLocation,
  },
  actors: {
    signUp: notProvided<'signUp'>('signUp'),
    verifySignUp: notProvided<'verifySignUp'>('verifySignUp'),
    resendSignUpCode: notProvided<'resendSignUpCode'>('resendSignUpCode'),
  },
  guards: {
    hasVerificationToken: ({ context }) => context.step === 'verify' && Boolean(context.verificationToken),
    isVerifyStep: ({ context }) => context.step === 'verify',
    isFormValid: ({ event }) => event.type === 'form.submit' && signUpRequestSchema.safeParse(event.values).success,
    isCodeValid: ({ event }) => event.type === 'code.submit' && codeSchema.safeParse(event.otpCode).success,
  },
  actions: {
    assignLocation: assign(({ event }) => (event.type === 'location.changed' ? { ...event.location, serverMessage: null, fieldErrors: {} } : {})),
    assignAccount: assign(({ event }) => {
      if (event.type !== 'form.submit') return {};
      const account = signUpRequestSchema.parse(event.values);
      // The code step names the address the code went to; the account itself is forgotten on exit.
      return { account, email: account.email, fieldErrors: {}, serverMessage: null };
    }),
    assignFormErrors: assign(({ event }) =>
      event.type === 'form.submit' ? { fieldErrors: fieldErrorsOf(signUpRequestSchema, event.values), serverMessage: null } : {},
    ),
    assignCode: assign(({ event }) =>
      event.type === 'code.submit' ? { otpCode: codeSchema.parse(event.otpCode).toUpperCase(), fieldErrors: {}, serverMessage: null } : {},
    ),
    assignCodeError: assign(({ event }) =>
      event.type === 'code.submit' ? { fieldErrors: { otpCode: firstErrorOf(codeSchema, event.otpCode) }, serverMessage: null } : {},
    ),
    assignVerification: assign((_, params: { verificationToken: string }) => ({
      verificationToken: params.verificationToken,
      step: 'verify' as const,
    })),
    assignServerMessage: assign((_, params: { message: string }) => ({ serverMessage: params.message })),
    forgetSecrets: assign({ account: null, otpCode: null }),
    // Bound by the view.
    notify: (_, _params: Notify) => {},
    startSession: (_, _params: StartSession) => {},
    goTo: (_, _params: Navigation) => {},
  },
});

/** What this flow's code step calls and does (the code-entry chart itself is shared: codeEntry.chart.ts). */
const verifyingCode = signUpSetup.createStateConfig({
  invoke: {
    id: 'verifySignUp',
    src: 'verifySignUp',
    input: ({ context }) => ({ verificationToken: context.verificationToken!, otpCode: context.otpCode! }),
    onDone: {
      target: '#signUp.signedIn',
      description: 'Code accepted',
      actions: [
        { type: 'startSession', params: ({ event }) => ({ result: event.output }) },
        { type: 'goTo', params: { path: routes.subscription, replace: true } },
      ],
    },
    onError: { target: 'form.rejected', description: 'Wrong or expired code', actions: withErrorMessage('assignServerMessage') },
  },
});

const resendingCode = signUpSetup.createStateConfig({
  invoke: {
    id: 'resendSignUpCode',
    src: 'resendSignUpCode',
    input: ({ context }) => ({ verificationToken: context.verificationToken! }),
    onDone: {
      target: 'form.editing',
      description: 'New code sent',
      actions: { type: 'notify', params: { kind: 'success', message: m.otp_sent_successfully } },
    },
    onError: { target: 'form.rejected', description: 'New code refused', actions: withErrorMessage('assignServerMessage') },
  },
});

export const signUpMachine = signUpSetup.createMachine({
  id: 'signUp',
  description:
    'A new person creates an account: the registration form, then a 6-character code mailed to them (they can ask for a new one). The right code signs them in and takes them to /subscription. The code step has its own address, so a reload or the link in the mail resumes it.',
  meta: {
    title: 'Sign up',
    events: {
      'form.submit': 'The person presses Register',
      'code.submit': 'The person submits the code',
      'code.resend': 'The person presses Resend OTP',
      'location.changed': 'The address changes (back, forward, a link)',
    },
  },
  context: ({ input }) => ({ ...input, account: null, otpCode: null, fieldErrors: {}, serverMessage: null }),
  initial: 'routing',
  on: {
    'location.changed': { target: '.routing', actions: 'assignLocation' },
  },
  states: {
    routing: {
      description: 'Reading the address',
      always: [
        { guard: 'hasVerificationToken', target: 'verify', description: 'The code step\'s address is complete' },
        { guard: 'isVerifyStep', target: 'linkIncomplete', description: 'The code step\'s address lacks its token' },
        { target: 'register', description: 'Any other address' },
      ],
    },
    register: {
      description: 'Registering',
      meta: { screen: '/register' },
      initial: 'form',
      states: {
        form: {
          ...formStates,
          on: {
            'form.submit': [
              { guard: 'isFormValid', target: 'submitting', actions: 'assignAccount', description: 'Register with a valid form' },
              { target: '.invalid', actions: 'assignFormErrors', description: 'Register with a field missing or wrong' },
            ],
          },
        },
        submitting: {
          description: 'Creating the account',
          invoke: {
            id: 'signUp',
            src: 'signUp',
            input: ({ context }) => context.account!,
            onDone: {
              target: '#signUp.verify',
              description: 'Account created, code sent',
              actions: [
                { type: 'assignVerification', params: ({ event }) => ({ verificationToken: event.output.verificationToken }) },
                { type: 'goTo', params: ({ context }) => ({ path: format(context) }) },
                { type: 'notify', params: { kind: 'success', message: m.otp_sent_successfully } },
              ],
            },
            onError: { target: 'form.rejected', description: 'Registration refused', actions: withErrorMessage('assignServerMessage') },
          },
          exit: 'forgetSecrets',
        },
      },
    },
    verify: {
      description: 'Waiting for the code',
      meta: { screen: '/register/verify?q=…&email=…' },
      ...codeEntryStates({
        verifying: verifyingCode,
        resending: resendingCode,
        on: {},
      }),
    },
    linkIncomplete: { description: 'The code link is incomplete', meta: { screen: '/register/verify' } },
    signedIn: {
      type: 'final',
      description: 'Signed in',
    },
  },
});

export type SignUpMachine = typeof signUpMachine;
