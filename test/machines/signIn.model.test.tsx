import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { m, overwriteGetLocale } from '../../src/i18n';
import { signInMachine } from '../../src/machines/signIn/signIn.machine';
import LoginPage from '../../src/views/pages/LoginPage';
import { typeInto, type ActorOutput } from '../support/flow';
import { describeModel } from '../support/model';
import { demoUser, renderView } from '../support/render';

type Answer = ActorOutput<typeof signInMachine, 'signIn'>;
const succeeded: Answer = {
  success: true,
  message: 'Signed in successfully',
  data: { accessToken: 'access-1', refreshToken: 'refresh-1', user: demoUser },
};
const refused: Answer = { success: false, message: 'Invalid email or password' };
const offline = new Error('Network error');

// The same model in each language (issue 20): the view is found by its catalog words, never by English literals.
for (const language of ['en', 'ceb'] as const) {
  describe(`in ${language}`, () => {
    beforeAll(() => overwriteGetLocale(() => language));
    afterAll(() => overwriteGetLocale(() => 'en'));

    describeModel(`signIn [${language}]`, {
      machine: signInMachine,
      input: { redirectTo: '/account' },
      events: {
        'form.submit': [
          { type: 'form.submit', values: { email: 'free@example.com', password: 'Bisaya-Demo-2026' } },
          { type: 'form.submit', values: { email: '', password: '' } },
        ],
      },
      invocations: {
        signIn: { done: [succeeded, refused], error: [offline] },
      },
      render: ({ actors, inspect }) => {
        const run = renderView(<LoginPage />, { path: '/login?from=/account', overrides: { actors: actors.actors, inspect } });
        return { ...run, user: userEvent.setup() };
      },
      executors: {
        'form.submit': async (run, event) => {
          await typeInto(run, m.email(), event.values.email);
          await typeInto(run, m.password(), event.values.password);
          await run.user.click(screen.getByRole('button', { name: m.log_in() }));
        },
      },
      states: {
        'form.editing': () => {
          // The heading says what the header's button and the form's button say (finding 22).
          expect(screen.getByRole('heading', { level: 1, name: m.log_in() })).toBeInTheDocument();
          expect(screen.getByRole('button', { name: m.log_in() })).toBeInTheDocument();
          expect(screen.getByLabelText(m.email())).toBeEnabled();
          expect(screen.queryByRole('alert')).not.toBeInTheDocument();
          expect(screen.getByRole('link', { name: m.forgot_password_2() })).toHaveAttribute('href', '/forgot-password');
          expect(screen.getByRole('link', { name: m.sign_up_2() })).toHaveAttribute('href', '/register');
        },
        'form.invalid': (_run, snapshot) => {
          const errors = Object.values(snapshot.context.fieldErrors) as string[];
          expect(errors.length).toBeGreaterThan(0);
          for (const message of errors) expect(screen.getByText(message)).toBeInTheDocument();
          expect(screen.getByLabelText(m.email())).toHaveAttribute('aria-invalid', 'true');
        },
        submitting: () => {
          expect(screen.getByRole('button', { name: m.logging_in() })).toBeDisabled();
          expect(screen.getByLabelText(m.password())).toBeDisabled();
        },
        'form.rejected': () => {
          const alert = screen.getByRole('alert');
          // The server's refusal, or the network failure's message (product.md#errors).
          expect([refused.message, offline.message]).toContain(alert.textContent);
          // What the person typed is still there to correct.
          expect(screen.getByLabelText(m.email())).toHaveValue('free@example.com');
          expect(within(alert).queryByText(m.email_is_required())).not.toBeInTheDocument();
        },
        signedIn: (run) => {
          expect(run.location.history.at(-1)).toBe('/account');
          expect(run.location.history).toHaveLength(1); // the /login entry was replaced
          expect(run.session.getSnapshot().value).toBe('signedIn');
          expect(run.session.getSnapshot().context.token).toBe('access-1');
          expect(window.localStorage.getItem('welcomeBack')).toBe('true');
        },
      },
    });
  });
}
