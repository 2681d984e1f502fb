/** The deleteAccount flow (issue 36): "Delete my account" on the account page, walked on the real view. */
import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { ApiError } from '../../src/api/http';
import { deleteAccountMachine } from '../../src/machines/deleteAccount/deleteAccount.machine';
import { renderAccount } from '../support/account';
import { typeInto } from '../support/flow';
import { describeModel } from '../support/model';

const card = () => within(screen.getByRole('region', { name: 'Delete my account' }));
const EMAIL_LABEL = 'To confirm, type your email address: free@example.com';
/** Set by Cancel: the next look at the explanation checks where focus went. */
let cancelled = false;

describeModel('deleteAccount', {
  machine: deleteAccountMachine,
  input: { email: 'free@example.com' },
  events: {
    'delete.begin': [{ type: 'delete.begin' }],
    'delete.cancel': [{ type: 'delete.cancel' }],
    'form.submit': [
      { type: 'form.submit', values: { password: 'Bisaya-Demo-2026', confirmation: 'Free@Example.com ' } },
      { type: 'form.submit', values: { password: '', confirmation: 'someone@example.com' } },
    ],
  },
  invocations: {
    deleteAccount: { done: [{ data: null, message: 'Your account has been deleted' }], error: [new ApiError('Your password is incorrect', 400)] },
  },
  render: renderAccount,
  executors: {
    'delete.begin': async (run) => run.user.click(card().getByRole('button', { name: 'Continue to delete' })),
    'delete.cancel': async (run) => {
      await run.user.click(card().getByRole('button', { name: 'Cancel' }));
      cancelled = true;
    },
    'form.submit': async (run, event) => {
      await typeInto(run, 'Current Password', event.values.password, card());
      await typeInto(run, EMAIL_LABEL, event.values.confirmation, card());
      await run.user.click(card().getByRole('button', { name: 'Delete my account for good' }));
    },
  },
  states: {
    intro: async () => {
      // Back from the form (Cancel): focus is on the button that opens it again.
      if (cancelled) await waitFor(() => expect(card().getByRole('button', { name: 'Continue to delete' })).toHaveFocus());
      cancelled = false;
      expect(card().getByText('Your subscription is canceled at once: Premium ends right away and you are never charged again.')).toBeInTheDocument();
      expect(card().getByText('The law makes us keep your invoices and payment records for 10 years (BIR), without your name, email or photo.')).toBeInTheDocument();
      expect(card().getByRole('button', { name: 'Continue to delete' })).toBeEnabled();
      expect(card().queryByLabelText('Current Password')).not.toBeInTheDocument();
    },
    'form.editing': async () => {
      expect(card().getByLabelText('Current Password')).toHaveValue('');
      // Opened (not typed in yet): focus is in its first field.
      await waitFor(() => expect(card().getByLabelText('Current Password')).toHaveFocus());
      expect(card().getByLabelText(EMAIL_LABEL)).toHaveValue('');
      expect(card().queryByRole('alert')).not.toBeInTheDocument();
    },
    'form.invalid': () => {
      expect(card().getByText('Password is required')).toBeInTheDocument();
      expect(card().getByText('Type your email address exactly as shown to confirm')).toBeInTheDocument();
    },
    'form.rejected': () => {
      expect(card().getByRole('alert')).toHaveTextContent('Your password is incorrect');
      expect(card().getByRole('button', { name: 'Delete my account for good' })).toBeEnabled();
    },
    deleting: (run) => {
      expect(card().getByRole('button', { name: 'Deleting...' })).toBeDisabled();
      expect(run.session.getSnapshot().value).toBe('signedIn');
    },
    deleted: async (run) => {
      // Signed out and on the landing page.
      await waitFor(() => expect(run.session.getSnapshot().value).toBe('signedOut'));
      expect(run.location.history?.at(-1)).toBe('/');
    },
  },
});
