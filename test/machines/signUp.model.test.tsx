import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { m, overwriteGetLocale } from '../../src/i18n';
import { format, type SignUpLocation } from '../../src/machines/signUp/signUp.address';
import { signUpMachine, type SignUpValues } from '../../src/machines/signUp/signUp.machine';
import RegisterPage from '../../src/views/pages/RegisterPage';
import type { Run } from '../support/flow';
import { describeModel } from '../support/model';
import { demoUser, renderView } from '../support/render';
import { RESEND_WAIT } from '../../src/views/parts/CodeForm';

// These paths walk every state of the code step; the 60 s wait before 'Resend OTP' has its own test (test/views/code-form-wait.test.tsx).
RESEND_WAIT.seconds = 0;

const valid: SignUpValues = {
  email: 'nena@example.com', password: 'Lami-kaayo-2026', passwordConfirm: 'Lami-kaayo-2026',
  firstName: 'Nena', lastName: 'Cabahug', birthdate: '1995-03-14',
};
const invalid: SignUpValues = { email: '', password: 'a', passwordConfirm: 'b', firstName: '', lastName: '', birthdate: '' };
// Each field's label in the language in use (catalog messages, called as the test runs).
const LABELS: Record<keyof SignUpValues, () => string> = {
  email: m.email, password: m.password, passwordConfirm: m.confirm_password, firstName: m.first_name, lastName: m.last_name, birthdate: m.birthdate,
};
/** The terms checkbox's name: its label with the two links' words in it. */
const termsLabel = () => m.accept_terms_and_conditions_and({ termsLink: m.terms_and_conditions(), privacyLink: m.privacy_policy() });

const register: SignUpLocation = { step: 'register', verificationToken: null, email: null };
const verifyAt: SignUpLocation = { step: 'verify', verificationToken: 'vt-from-url', email: 'nena@example.com' };
const verifyBroken: SignUpLocation = { step: 'verify', verificationToken: null, email: 'nena@example.com' };

const REFUSALS = {
  signUp: 'Please wait 42 seconds before requesting a new code.',
  verify: 'Invalid OTP code',
  resend: 'Too many codes requested for this email. Please try again in an hour.',
};

async function fillRegistration(run: Run, values: SignUpValues) {
  for (const [name, label] of Object.entries(LABELS) as Array<[keyof SignUpValues, () => string]>) {
    const field = screen.getByLabelText(label());
    if (name === 'birthdate') fireEvent.change(field, { target: { value: values.birthdate } });
    else {
      await run.user.clear(field);
      if (values[name]) await run.user.type(field, values[name]);
    }
  }
}

// The same model in each language (issue 20): the view is found by its catalog words, never by English
// literals. The refusals above are the server's words (test data the fake calls throw): they stay as they are.
for (const language of ['en', 'ceb'] as const) {
  describe(`in ${language}`, () => {
    beforeAll(() => overwriteGetLocale(() => language));
    afterAll(() => overwriteGetLocale(() => 'en'));

    describeModel(`signUp [${language}]`, {
      machine: signUpMachine,
      inputs: [register, verifyBroken],
      events: {
        'form.submit': [{ type: 'form.submit', values: valid }, { type: 'form.submit', values: invalid }],
        'code.submit': [{ type: 'code.submit', otpCode: 'K7P2QX' }, { type: 'code.submit', otpCode: '12' }],
        'code.resend': [{ type: 'code.resend' }],
        'location.changed': [
          { type: 'location.changed', location: verifyAt },
          { type: 'location.changed', location: register },
        ],
      },
      // The address can change in any state; walking it from the resting states is enough.
      prune: (s, e) => e.type !== 'location.changed' || s.matches({ register: { form: 'editing' } }) || s.matches('linkIncomplete'),
      invocations: {
        signUp: { done: [{ verificationToken: 'vt-1' }], error: [new Error(REFUSALS.signUp)] },
        verifySignUp: { done: [{ accessToken: 'access-2', refreshToken: 'r', user: { ...demoUser, email: 'nena@example.com' } }], error: [new Error(REFUSALS.verify)] },
        resendSignUpCode: { done: [{ verificationToken: 'vt-1' }], error: [new Error(REFUSALS.resend)] },
      },
      render: ({ actors, inspect }, input) => {
        const run = renderView(<RegisterPage />, { path: format(input!), overrides: { actors: actors.actors, inspect } });
        return { ...run, user: userEvent.setup() };
      },
      executors: {
        'form.submit': async (run, event) => {
          await fillRegistration(run, event.values);
          const terms = screen.getByRole('checkbox', { name: termsLabel() });
          if (!(terms as HTMLInputElement).checked) {
            expect(screen.getByRole('button', { name: m.sign_up() })).toBeDisabled(); // until the box is ticked
            await run.user.click(terms);
          }
          await run.user.click(screen.getByRole('button', { name: m.sign_up() }));
        },
        'code.submit': async (run, event) => {
          const field = screen.getByLabelText(m.otp_code());
          await run.user.clear(field);
          await run.user.type(field, event.otpCode);
          await run.user.click(screen.getByRole('button', { name: m.verify() }));
        },
        'code.resend': async (run) => {
          await run.user.click(screen.getByRole('button', { name: m.resend_otp() }));
        },
        'location.changed': (run, event) => run.location.navigate(format(event.location)),
      },
      states: {
        'register.form.editing': () => {
          expect(screen.getByRole('heading', { name: m.create_your_account() })).toBeInTheDocument();
          expect(screen.getByRole('button', { name: m.sign_up() })).toBeDisabled();
          expect(screen.getByRole('link', { name: m.terms_and_conditions() })).toHaveAttribute('href', '/legal/terms');
          expect(screen.getByRole('link', { name: m.privacy_policy() })).toHaveAttribute('href', '/legal/privacy');
          expect(screen.getByRole('link', { name: m.log_in_2() })).toHaveAttribute('href', '/login');
          expect(screen.queryByRole('alert')).not.toBeInTheDocument();
        },
        'register.form.invalid': (_run, snapshot) => {
          const messages = Object.values(snapshot.context.fieldErrors) as string[];
          expect(messages).toEqual(expect.arrayContaining([m.email_is_required(), m.first_name_is_required(), m.last_name_is_required(), m.birthdate_is_required(), m.passwords_do_not_match()]));
          for (const message of messages) expect(screen.getByText(message)).toBeInTheDocument();
        },
        'register.form.rejected': () => {
          expect(screen.getByRole('alert')).toHaveTextContent(REFUSALS.signUp);
          expect(screen.getByLabelText(m.first_name())).toHaveValue('Nena'); // nothing typed is lost
        },
        'register.submitting': () => {
          expect(screen.getByRole('button', { name: m.signing_up() })).toBeDisabled();
        },
        'verify.form.editing': (run, snapshot) => {
          expect(screen.getByRole('heading', { name: m.verify_your_email() })).toBeInTheDocument();
          // The address holds the step, written by the flow's address module.
          expect(run.location.history.at(-1)).toBe(format(snapshot.context));
          expect(screen.getByText(snapshot.context.email as string)).toBeInTheDocument();
          expect(screen.getByLabelText(m.otp_code())).toHaveAttribute('maxLength', '6');
          expect(screen.getByRole('button', { name: m.resend_otp() })).toBeEnabled();
          expect(screen.queryByRole('alert')).not.toBeInTheDocument();
        },
        'verify.form.invalid': () => {
          expect(screen.getByText(m.otp_code_must_be_6_letters_or_digits())).toBeInTheDocument();
        },
        'verify.form.rejected': () => {
          expect([REFUSALS.verify, REFUSALS.resend]).toContain(screen.getByRole('alert').textContent);
        },
        'verify.verifying': () => {
          expect(screen.getByRole('button', { name: m.verifying() })).toBeDisabled();
        },
        'verify.resending': () => {
          expect(screen.getByRole('button', { name: m.sending() })).toBeDisabled();
        },
        linkIncomplete: () => {
          expect(screen.getByRole('alert')).toHaveTextContent(m.this_verification_link_is_incomplete());
          expect(screen.getByRole('link', { name: m.sign_up_again() })).toHaveAttribute('href', '/register');
        },
        signedIn: (run) => {
          expect(run.location.history.at(-1)).toBe('/subscription');
          expect(run.session.getSnapshot().context.token).toBe('access-2');
        },
      },
    });
  });
}
