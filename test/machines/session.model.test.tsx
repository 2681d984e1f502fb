import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { createActor } from 'xstate';
import { sessionMachine } from '../../src/machines/session/session.machine';
import { AppRoutes } from '../../src/views/App';
import { describeModel, type RunTools } from '../support/model';
import { demoUser, findAccountMenuButton, renderView } from '../support/render';

const unauthorizedFetch: typeof fetch = async () =>
  new Response(JSON.stringify({ success: false, message: 'Your session has expired. Please log in again.', data: null }), {
    status: 401,
    headers: { 'Content-Type': 'application/json' },
  });

function setup(tools: RunTools) {
  const session = createActor(sessionMachine.provide({ actors: tools.actors.actors as never }), { inspect: tools.inspect }).start();
  const run = renderView(<AppRoutes />, { path: '/', session, fetch: unauthorizedFetch });
  return { ...run, user: userEvent.setup() };
}

describeModel('session', {
  machine: sessionMachine,
  events: {
    'session.login': [{ type: 'session.login', accessToken: 'fresh-token', user: demoUser }],
    'session.logout': [{ type: 'session.logout' }],
    'session.unauthorized': [{ type: 'session.unauthorized' }],
    'user.update': [{ type: 'user.update', changes: { firstName: 'Mariel' } }],
  },
  invocations: {
    restoreSession: {
      done: [
        { session: { token: 'stored-token', user: demoUser }, broken: false, welcomeBack: true },
        { session: null, broken: false, welcomeBack: false },
        { session: null, broken: true, welcomeBack: false },
      ],
      error: [new Error('storage is blocked')],
    },
  },
  render: setup,
  executors: {
    'session.login': (run, event) => run.session.send(event),
    'session.logout': async (run) => {
      // Signed out once the header offers Log In again. On a loaded machine the menu's own open and close can
      // lag, and a press on Log Out while it is still opening was seen to close it unchosen (CI dry run):
      // the menu is opened and Log Out chosen again while the account menu is still there, three times at most.
      for (let attempt = 1; attempt <= 3; attempt++) {
        await run.user.click(await findAccountMenuButton());
        await run.user.click(await screen.findByRole('menuitem', { name: 'Log Out' }));
        try {
          await screen.findByRole('link', { name: 'Log In' }, { timeout: 4_000 });
          return;
        } catch (error) {
          if (attempt === 3) throw error;
        }
      }
    },
    // Any call that answers 401 tells the session to discard the token (product.md#session-state, product.md#errors).
    'session.unauthorized': async (run) => {
      await expect(run.api.getProfile()).rejects.toThrow('Your session has expired. Please log in again.');
    },
    'user.update': (run, event) => run.session.send(event),
  },
  states: {
    loading: () => {
      expect(screen.getByRole('heading', { name: /Welcome to/ })).toHaveTextContent('Welcome to Sine Bisaya');
      expect(screen.queryByRole('link', { name: 'Log In' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /My Account/ })).not.toBeInTheDocument();
      expect(screen.queryByPlaceholderText('Enter your Email Address')).not.toBeInTheDocument();
    },
    signedOut: () => {
      expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
      expect(screen.getByPlaceholderText('Enter your Email Address')).toBeRequired();
      expect(screen.queryByRole('link', { name: /App Store/ })).not.toBeInTheDocument();
      expect(window.localStorage.getItem('token')).toBeNull();
      expect(window.localStorage.getItem('user')).toBeNull();
    },
    signedIn: async (_run, snapshot) => {
      expect(await findAccountMenuButton()).toBeInTheDocument();
      expect(screen.queryByRole('link', { name: 'Log In' })).not.toBeInTheDocument();
      expect(screen.getByRole('link', { name: /App Store/ })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: /Google Play/ })).toBeInTheDocument();
      const stored = window.localStorage.getItem('user');
      if (snapshot.context.token === 'fresh-token') {
        expect(window.localStorage.getItem('token')).toBe('fresh-token');
        expect(JSON.parse(stored!).firstName).toBe(snapshot.context.user.firstName);
      }
    },
  },
});
