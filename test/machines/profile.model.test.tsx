import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { profileMachine } from '../../src/machines/profile/profile.machine';
import { profileFixture, renderAccount } from '../support/account';
import { typeInto, type ActorOutput } from '../support/flow';
import { describeModel } from '../support/model';

const card = () => within(screen.getByRole('region', { name: 'Profile' }));
const saved: ActorOutput<typeof profileMachine, 'saveProfile'> = { ...profileFixture, firstName: 'Mariel', middleName: 'Luz', tin: '123-456-789-00000' };
const TIN = 'TIN for invoices (optional)';

describeModel('profile', {
  machine: profileMachine,
  events: {
    'form.submit': [
      { type: 'form.submit', values: { firstName: 'Mariel', middleName: 'Luz', lastName: 'Santos', tin: '123-456-789-00000' } },
      { type: 'form.submit', values: { firstName: '', middleName: '', lastName: '', tin: '123456789' } },
    ],
    'load.retry': [{ type: 'load.retry' }],
  },
  invocations: {
    loadProfile: { done: [profileFixture], error: [new Error('Network error')] },
    saveProfile: { done: [saved], error: [new Error('Something went wrong')] },
  },
  render: renderAccount,
  executors: {
    'form.submit': async (run, event) => {
      await typeInto(run, 'First Name', event.values.firstName, card());
      await typeInto(run, 'Middle Name (optional)', event.values.middleName, card());
      await typeInto(run, 'Last Name', event.values.lastName, card());
      await typeInto(run, TIN, event.values.tin, card());
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
      // The form shows the query cache: the loaded profile, or the saved answer after a save.
      const profile = snapshot.context.revision > 0 ? saved : profileFixture;
      expect(card().getByLabelText('First Name')).toHaveValue(profile.firstName);
      expect(card().getByLabelText('Middle Name (optional)')).toHaveValue(profile.middleName ?? '');
      expect(card().getByLabelText(TIN)).toHaveValue(profile.tin ?? '');
      expect(card().getByText(profile.email)).toBeInTheDocument();
      expect(card().getByRole('button', { name: 'Save Changes' })).toBeEnabled();
      expect(card().queryByRole('alert')).not.toBeInTheDocument();
    },
    'form.invalid': () => {
      expect(card().getByText('First Name is required')).toBeInTheDocument();
      expect(card().getByText('Last Name is required')).toBeInTheDocument();
      expect(card().getByLabelText(TIN)).toHaveAccessibleDescription('Enter your TIN as 000-000-000-00000 (a branch code of 3 to 5 digits).');
    },
    'form.rejected': () => {
      expect(card().getByRole('alert')).toHaveTextContent('Something went wrong');
      expect(card().getByLabelText('First Name')).toHaveValue('Mariel'); // what was typed stays
    },
    saving: () => {
      expect(card().getByRole('button', { name: 'Saving...' })).toBeDisabled();
    },
  },
});
