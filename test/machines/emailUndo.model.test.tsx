import { screen } from '@testing-library/react';
import { expect } from 'vitest';
import { emailUndoMachine } from '../../src/machines/emailUndo/emailUndo.machine';
import EmailUndoPage from '../../src/views/pages/EmailUndoPage';
import { describeModel } from '../support/model';
import { demoUser, renderView, startSession } from '../support/render';

describeModel('emailUndo', {
  machine: emailUndoMachine,
  inputs: [{ token: 'undo-token' }, { token: null }],
  events: { 'undo.confirm': [{ type: 'undo.confirm' }] },
  invocations: {
    undoEmailChange: {
      done: [{ data: null, message: 'Your email address was changed back and every device was signed out.' }],
      error: [new Error('This link has expired or was already used.')],
    },
  },
  // Opened signed in: a link that works signs this browser out too.
  render: ({ actors, inspect }, input) =>
    renderView(<EmailUndoPage />, {
      path: `/account/email/undo${input!.token ? `?token=${input!.token}` : ''}`,
      session: startSession(demoUser),
      overrides: { actors: actors.actors, inspect },
    }),
  executors: {
    'undo.confirm': async () => {
      screen.getByRole('button', { name: 'Change It Back' }).click();
    },
  },
  states: {
    asking: (run) => {
      // Opening the link does nothing by itself (a mail scanner opens links): the person decides.
      expect(screen.getByRole('heading', { level: 1, name: 'Change your email address back?' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Change It Back' })).toBeEnabled();
      expect(run.session.getSnapshot().matches('signedIn')).toBe(true);
    },
    undoing: (run) => {
      expect(screen.getByRole('status')).toHaveTextContent('Changing your email address back...');
      expect(run.session.getSnapshot().matches('signedIn')).toBe(true);
    },
    undone: (run) => {
      expect(screen.getByRole('heading', { level: 1, name: 'Your email address is back' })).toBeInTheDocument();
      expect(screen.getByText(/Reset your password now/)).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Reset Password' })).toHaveAttribute('href', '/forgot-password');
      expect(run.session.getSnapshot().matches('signedOut')).toBe(true);
    },
    failed: (run) => {
      expect(screen.getByRole('heading', { level: 1, name: 'We could not undo the change' })).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent('This link has expired or was already used.');
      expect(run.session.getSnapshot().matches('signedIn')).toBe(true);
    },
    noToken: () => {
      expect(screen.getByRole('alert')).toHaveTextContent('This link is incomplete. Open the link in the email again.');
      expect(screen.getByRole('link', { name: 'Go to Homepage' })).toHaveAttribute('href', '/');
    },
  },
});
