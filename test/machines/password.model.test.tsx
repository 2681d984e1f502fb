import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { passwordMachine } from '../../src/machines/password/password.machine';
import { renderAccount } from '../support/account';
import { describeModel } from '../support/model';

const card = () => within(screen.getByRole('region', { name: 'Security' }));
const LABELS = { oldPassword: 'Old Password', newPassword: 'New Password', confirmNewPassword: 'Confirm New Password' } as const;

describeModel('password', {
  machine: passwordMachine,
  events: {
    'form.submit': [
      { type: 'form.submit', values: { oldPassword: 'Bisaya-Demo-2026', newPassword: 'N3w-pass', confirmNewPassword: 'N3w-pass' } },
      { type: 'form.submit', values: { oldPassword: '', newPassword: 'N3w-pass', confirmNewPassword: 'other' } },
    ],
  },
  invocations: {
    changePassword: { done: [{ data: null, message: 'Password updated successfully' }], error: [new Error('Old password is incorrect')] },
  },
  render: renderAccount,
  executors: {
    'form.submit': async (run, event) => {
      for (const [name, label] of Object.entries(LABELS) as Array<[keyof typeof LABELS, string]>) {
        const field = card().getByLabelText(label);
        await run.user.clear(field);
        if (event.values[name]) await run.user.type(field, event.values[name]);
      }
      await run.user.click(card().getByRole('button', { name: 'Update Password' }));
    },
  },
  states: {
    'form.editing': () => {
      for (const label of Object.values(LABELS)) expect(card().getByLabelText(label)).toHaveValue('');
      expect(card().queryByRole('alert')).not.toBeInTheDocument();
    },
    'form.invalid': () => {
      expect(card().getByText('Old Password is required')).toBeInTheDocument();
      expect(card().getByText('New Passwords do not match')).toBeInTheDocument();
    },
    'form.rejected': () => {
      expect(card().getByRole('alert')).toHaveTextContent('Old password is incorrect');
      expect(card().getByLabelText('New Password')).toHaveValue('N3w-pass');
    },
    submitting: () => {
      expect(card().getByRole('button', { name: 'Updating...' })).toBeDisabled();
    },
  },
});
