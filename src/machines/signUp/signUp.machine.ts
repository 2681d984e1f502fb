/**
 * Sign-up (spec §2 /register, §5; design: /register/verify): the form, then the 6-character code
 * mailed to the viewer with 'Resend OTP'; a verified code logs the viewer in and goes to /subscription.
 * The URL is a projection: /register/verify?q={verificationToken}&email={email} resumes the code step.
 */
import { assign, setup } from 'xstate';
import { otpField, signUpRequestSchema, type SignUpRequest } from '../../api/schemas';
import { routes } from '../../lib/route-paths';
import { fieldErrorsOf, firstErrorOf, type FieldErrors } from '../../lib/validation';
import { notProvided } from '../actors';
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

export const signUpMachine = setup({
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
}).createMachine({
  id: 'signUp',
  context: ({ input }) => ({ ...input, account: null, otpCode: null, fieldErrors: {}, serverMessage: null }),
  initial: 'routing',
  on: {
    'location.changed': { target: '.routing', actions: 'assignLocation' },
  },
  states: {
    routing: {
      always: [
        { guard: 'hasVerificationToken', target: 'verify' },
        { guard: 'isVerifyStep', target: 'linkIncomplete' },
        { target: 'register' },
      ],
    },
    register: {
      initial: 'form',
      states: {
        form: {
          ...formStates,
          on: {
            'form.submit': [
              { guard: 'isFormValid', target: 'submitting', actions: 'assignAccount' },
              { target: '.invalid', actions: 'assignFormErrors' },
            ],
          },
        },
        submitting: {
          invoke: {
            id: 'signUp',
            src: 'signUp',
            input: ({ context }) => context.account!,
            onDone: {
              target: '#signUp.verify',
              actions: [
                { type: 'assignVerification', params: ({ event }) => ({ verificationToken: event.output.verificationToken }) },
                { type: 'goTo', params: ({ context }) => ({ path: format(context) }) },
                { type: 'notify', params: { kind: 'success', message: 'OTP sent successfully!' } },
              ],
            },
            onError: { target: 'form.rejected', actions: withErrorMessage('assignServerMessage') },
          },
          exit: 'forgetSecrets',
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
          },
        },
        verifying: {
          invoke: {
            id: 'verifySignUp',
            src: 'verifySignUp',
            input: ({ context }) => ({ verificationToken: context.verificationToken!, otpCode: context.otpCode! }),
            onDone: {
              target: '#signUp.signedIn',
              actions: [
                { type: 'startSession', params: ({ event }) => ({ result: event.output }) },
                { type: 'goTo', params: { path: routes.subscription, replace: true } },
              ],
            },
            onError: { target: 'form.rejected', actions: withErrorMessage('assignServerMessage') },
          },
          exit: 'forgetSecrets',
        },
        resending: {
          invoke: {
            id: 'resendSignUpCode',
            src: 'resendSignUpCode',
            input: ({ context }) => ({ verificationToken: context.verificationToken! }),
            onDone: { target: 'form.editing', actions: { type: 'notify', params: { kind: 'success', message: 'OTP sent successfully!' } } },
            onError: { target: 'form.rejected', actions: withErrorMessage('assignServerMessage') },
          },
        },
      },
    },
    linkIncomplete: {},
    signedIn: {
      type: 'final',
    },
  },
});

export type SignUpMachine = typeof signUpMachine;
