import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { profileMachine } from '../../src/machines/profile/profile.machine';
import { profileFixture, renderAccount } from '../support/account';
import { describeModel } from '../support/model';

type Run = ReturnType<typeof renderAccount>;
const card = () => within(screen.getByRole('region', { name: 'Profile' }));

async function typeInto(run: Run, label: string, value: string) {
  const field = card().getByLabelText(label);
  await run.user.clear(field);
  if (value) await run.user.type(field, value);
}

describeModel('profile', {
  machine: profileMachine,
  events: {
    'form.submit': [
      { type: 'form.submit', values: { firstName: 'Mariel', middleName: 'Luz', lastName: 'Santos' } },
      { type: 'form.submit', values: { firstName: '', middleName: '', lastName: '' } },
    ],
    'load.retry': [{ type: 'load.retry' }],
  },
  invocations: {
    loadProfile: { done: [profileFixture], error: [new Error('Network error')] },
    saveProfile: { done: [{ ...profileFixture, firstName: 'Mariel', middleName: 'Luz' }], error: [new Error('Something went wrong')] },
  },
  render: renderAccount,
  executors: {
    'form.submit': async (run, event) => {
      await typeInto(run, 'First Name', event.values.firstName);
      await typeInto(run, 'Middle Name (optional)', event.values.middleName);
      await typeInto(run, 'Last Name', event.values.lastName);
      await run.user.click(card().getByRole('button', { name: 'Save Changes' }));
    },
    'load.retry': async (run) => run.user.click(card().getByRole('button', { name: 'Try again' })),
  },
  states: {
    loading: () => {
      expect(card().getByRole('status')).toHaveTextContent('Loading profile...');
    },
    loadFailed: () => {
      expect(card().getByRole('alert')).toHaveTextContent('Network error');
    },
    'form.editing': (_run, snapshot) => {
      const profile = snapshot.context.profile;
      expect(card().getByLabelText('First Name')).toHaveValue(profile.firstName);
      expect(card().getByLabelText('Middle Name (optional)')).toHaveValue(profile.middleName ?? '');
      expect(card().getByText(profile.email)).toBeInTheDocument();
      expect(card().getByRole('button', { name: 'Save Changes' })).toBeEnabled();
      expect(card().queryByRole('alert')).not.toBeInTheDocument();
    },
    'form.invalid': () => {
      expect(card().getByText('First Name is required')).toBeInTheDocument();
      expect(card().getByText('Last Name is required')).toBeInTheDocument();
    },
    'form.rejected': (_run, snapshot) => {
      expect(card().getByRole('alert')).toHaveTextContent(snapshot.context.serverMessage as string);
      expect(card().getByLabelText('First Name')).toHaveValue('Mariel'); // what was typed stays
    },
    saving: () => {
      expect(card().getByRole('button', { name: 'Saving...' })).toBeDisabled();
    },
  },
});
