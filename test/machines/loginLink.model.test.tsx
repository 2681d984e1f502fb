import { screen } from '@testing-library/react';
import { expect } from 'vitest';
import { loginLinkMachine } from '../../src/machines/loginLink/loginLink.machine';
import AuthLinkPage from '../../src/views/pages/AuthLinkPage';
import { describeModel } from '../support/model';
import { demoUser, renderView } from '../support/render';

describeModel('loginLink', {
  machine: loginLinkMachine,
  inputs: [
    { token: 'link-token', redirectTo: '/account' },
    { token: null, redirectTo: '/subscription' },
  ],
  events: {},
  invocations: {
    verifyAuthLink: {
      done: [{ accessToken: 'access-3', refreshToken: 'r', user: demoUser }],
      error: [new Error('This login link has expired or was already used.')],
    },
  },
  render: ({ actors, inspect }, input) => {
    const query = input!.token ? `?token=${input!.token}&redirectUrl=${encodeURIComponent(input!.redirectTo)}` : '';
    return renderView(<AuthLinkPage />, { path: `/auth${query}`, overrides: { actors: actors.actors, inspect } });
  },
  executors: {},
  states: {
    verifying: () => {
      expect(screen.getByRole('status')).toHaveTextContent('Signing you in...');
    },
    failed: () => {
      expect(screen.getByRole('alert')).toHaveTextContent('This login link has expired or was already used.');
      expect(screen.getByRole('link', { name: 'Go to Homepage' })).toHaveAttribute('href', '/');
    },
    signedIn: (run) => {
      expect(run.location.history.at(-1)).toBe('/account');
      expect(run.location.history).toHaveLength(1);
      expect(run.session.getSnapshot().context.token).toBe('access-3');
      expect(localStorage.getItem('welcomeBack')).toBe('true');
    },
    noToken: (run) => {
      expect(run.location.history.at(-1)).toBe('/');
    },
  },
});
