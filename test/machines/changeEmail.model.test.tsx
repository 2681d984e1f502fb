import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { changeEmailMachine } from '../../src/machines/changeEmail/changeEmail.machine';
import { RESEND_WAIT } from '../../src/views/parts/CodeForm';
import { renderAccount } from '../support/account';
import { describeModel } from '../support/model';

// Resend OTP is offered at once here: its 60 s wait has its own test (test/views/code-form-wait.test.tsx).
RESEND_WAIT.seconds = 0;

const card = () => within(screen.getByRole('region', { name: 'Email Address' }));
const REFUSALS = { start: 'Password is incorrect', verify: 'Invalid OTP code', resend: 'Please wait 42 seconds before requesting a new code.' };

describeModel('changeEmail', {
  machine: changeEmailMachine,
  events: {
    'email.edit': [{ type: 'email.edit' }],
    'form.submit': [
      { type: 'form.submit', values: { password: 'Bisaya-Demo-2026', newEmail: 'New@Example.com' } },
      { type: 'form.submit', values: { password: '', newEmail: 'not-an-email' } },
    ],
    'form.cancel': [{ type: 'form.cancel' }],
    'code.submit': [{ type: 'code.submit', otpCode: 'K7P2QX' }, { type: 'code.submit', otpCode: '12' }],
    'code.resend': [{ type: 'code.resend' }],
    'code.cancel': [{ type: 'code.cancel' }],
  },
  invocations: {
    startEmailChange: { done: [{ verificationToken: 'vt-1' }], error: [new Error(REFUSALS.start)] },
    verifyEmailChange: { done: [{ email: 'new@example.com' }], error: [new Error(REFUSALS.verify)] },
    resendEmailChangeCode: { done: [{ verificationToken: 'vt-1' }], error: [new Error(REFUSALS.resend)] },
  },
  render: renderAccount,
  executors: {
    'email.edit': async (run) => {
      await run.user.click(card().getByRole('button', { name: 'Change Email' }));
    },
    'form.submit': async (run, event) => {
      const fields = { password: 'Current Password', newEmail: 'New Email Address' } as const;
      for (const [name, label] of Object.entries(fields) as Array<[keyof typeof fields, string]>) {
        const field = card().getByLabelText(label);
        await run.user.clear(field);
        if (event.values[name]) await run.user.type(field, event.values[name]);
      }
      await run.user.click(card().getByRole('button', { name: 'Send Code' }));
    },
    'form.cancel': async (run) => {
      await run.user.click(card().getByRole('button', { name: 'Cancel' }));
    },
    'code.submit': async (run, event) => {
      const field = card().getByLabelText('OTP code');
      await run.user.clear(field);
      await run.user.type(field, event.otpCode);
      await run.user.click(card().getByRole('button', { name: 'Verify' }));
    },
    'code.resend': async (run) => {
      await run.user.click(card().getByRole('button', { name: 'Resend OTP' }));
    },
    'code.cancel': async (run) => {
      await run.user.click(card().getByRole('button', { name: 'Cancel' }));
    },
  },
  states: {
    closed: (run) => {
      // The address shown is the account's: the new one once a change went through, in the header's session too.
      const email = run.session.getSnapshot().context.user!.email;
      expect(['free@example.com', 'new@example.com']).toContain(email);
      expect(card().getByText(email)).toBeInTheDocument();
      expect(card().getByRole('button', { name: 'Change Email' })).toBeEnabled();
      expect(card().queryByRole('form')).not.toBeInTheDocument();
    },
    'form.editing': () => {
      expect(card().getByText(/Your current address gets a notice/)).toBeInTheDocument();
      expect(card().getByLabelText('Current Password')).toHaveValue('');
      expect(card().queryByRole('alert')).not.toBeInTheDocument();
    },
    'form.invalid': () => {
      expect(card().getByText('Password is required')).toBeInTheDocument();
      expect(card().getByText('Please enter a valid email address')).toBeInTheDocument();
    },
    'form.rejected': () => {
      expect(card().getByRole('alert')).toHaveTextContent(REFUSALS.start);
      expect(card().getByLabelText('New Email Address')).toHaveValue('New@Example.com');
    },
    sending: () => {
      expect(card().getByRole('button', { name: 'Sending...' })).toBeDisabled();
    },
    'verify.form.editing': () => {
      expect(card().getByText('new@example.com')).toBeInTheDocument();
      expect(card().getByLabelText('OTP code')).toHaveAttribute('maxLength', '6');
      expect(card().queryByRole('alert')).not.toBeInTheDocument();
    },
    'verify.form.invalid': () => {
      expect(card().getByText('OTP code must be 6 letters or digits')).toBeInTheDocument();
    },
    'verify.form.rejected': () => {
      expect([REFUSALS.verify, REFUSALS.resend]).toContain(card().getByRole('alert').textContent);
    },
    'verify.verifying': () => {
      expect(card().getByRole('button', { name: 'Verifying...' })).toBeDisabled();
    },
    'verify.resending': () => {
      expect(card().getByRole('button', { name: 'Sending...' })).toBeDisabled();
    },
  },
});
