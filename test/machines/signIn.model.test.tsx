import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
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

describeModel('signIn', {
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
      await typeInto(run, 'Email', event.values.email);
      await typeInto(run, 'Password', event.values.password);
      await run.user.click(screen.getByRole('button', { name: 'Log In' }));
    },
  },
  states: {
    'form.editing': () => {
      expect(screen.getByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
      expect(screen.getByLabelText('Email')).toBeEnabled();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
      expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register');
    },
    'form.invalid': (_run, snapshot) => {
      const errors = Object.values(snapshot.context.fieldErrors) as string[];
      expect(errors.length).toBeGreaterThan(0);
      for (const message of errors) expect(screen.getByText(message)).toBeInTheDocument();
      expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    },
    submitting: () => {
      expect(screen.getByRole('button', { name: 'Logging In...' })).toBeDisabled();
      expect(screen.getByLabelText('Password')).toBeDisabled();
    },
    'form.rejected': () => {
      const alert = screen.getByRole('alert');
      // The server's refusal, or the network failure's message (product.md#errors).
      expect([refused.message, offline.message]).toContain(alert.textContent);
      // What the person typed is still there to correct.
      expect(screen.getByLabelText('Email')).toHaveValue('free@example.com');
      expect(within(alert).queryByText('Email is required')).not.toBeInTheDocument();
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
