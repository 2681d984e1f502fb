import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { format, type RecoveryLocation } from '../../src/machines/recovery/recovery.address';
import { recoveryMachine } from '../../src/machines/recovery/recovery.machine';
import RecoveryPage from '../../src/views/pages/RecoveryPage';
import { typeInto, type ActorOutput } from '../support/flow';
import { describeModel } from '../support/model';
import { renderView } from '../support/render';
import { RESEND_WAIT } from '../../src/views/parts/CodeForm';

// These paths walk every state of the code step; the 60 s wait before 'Resend OTP' has its own test (test/views/code-form-wait.test.tsx).
RESEND_WAIT.seconds = 0;

const request: RecoveryLocation = { step: 'request', verifyToken: null, email: null, resetToken: null };
const verifyAt: RecoveryLocation = { step: 'verify', verifyToken: 'vt-url', email: 'premium@example.com', resetToken: null };
const resetAt: RecoveryLocation = { step: 'reset', verifyToken: null, email: null, resetToken: 'rt-url' };
const verifyBroken: RecoveryLocation = { step: 'verify', verifyToken: null, email: 'premium@example.com', resetToken: null };

const REFUSALS = {
  send: 'Please wait 30 seconds before requesting a new code.',
  resend: 'Too many codes requested for this email. Please try again in an hour.',
  verify: 'Invalid OTP code',
  reset: 'This reset link has expired or was already used. Please request a new code.',
};
const resendDone: ActorOutput<typeof recoveryMachine, 'sendRecoveryCode'> = { verifyToken: 'vt-2' };

describeModel('recovery', {
  machine: recoveryMachine,
  inputs: [request, verifyBroken],
  events: {
    'email.submit': [{ type: 'email.submit', email: 'premium@example.com' }, { type: 'email.submit', email: 'premium@' }],
    'code.submit': [{ type: 'code.submit', otpCode: 'K7P2QX' }, { type: 'code.submit', otpCode: '' }],
    'code.resend': [{ type: 'code.resend' }],
    'password.submit': [
      { type: 'password.submit', password: 'Bagong-Password-1', confirmPassword: 'Bagong-Password-1' },
      { type: 'password.submit', password: 'Bagong-Password-1', confirmPassword: 'other' },
    ],
    'flow.cancel': [{ type: 'flow.cancel' }],
    'location.changed': [
      { type: 'location.changed', location: verifyAt },
      { type: 'location.changed', location: resetAt },
      { type: 'location.changed', location: request },
    ],
  },
  prune: (s, e) => e.type !== 'location.changed' || s.matches({ request: { form: 'editing' } }) || s.matches('linkIncomplete'),
  invocations: {
    sendRecoveryCode: { done: [{ verifyToken: 'vt-1' }], error: [new Error(REFUSALS.send)] },
    resendRecoveryCode: { done: [resendDone], error: [new Error(REFUSALS.resend)] },
    verifyRecoveryCode: { done: [{ resetToken: 'rt-1' }], error: [new Error(REFUSALS.verify)] },
    resetPassword: { done: [{ data: null, message: 'Password reset successfully' }], error: [new Error(REFUSALS.reset)] },
  },
  render: ({ actors, inspect }, input) => {
    const run = renderView(<RecoveryPage />, { path: format(input!), overrides: { actors: actors.actors, inspect } });
    return { ...run, user: userEvent.setup() };
  },
  executors: {
    'email.submit': async (run, event) => {
      await typeInto(run, 'Email', event.email);
      await run.user.click(screen.getByRole('button', { name: 'Send OTP' }));
    },
    'code.submit': async (run, event) => {
      await typeInto(run, 'OTP code', event.otpCode);
      await run.user.click(screen.getByRole('button', { name: 'Verify' }));
    },
    'code.resend': async (run) => run.user.click(screen.getByRole('button', { name: 'Resend OTP' })),
    'password.submit': async (run, event) => {
      await typeInto(run, 'New Password', event.password);
      await typeInto(run, 'Confirm Password', event.confirmPassword);
      await run.user.click(screen.getByRole('button', { name: 'Reset Password' }));
    },
    'flow.cancel': async (run) =>
      run.user.click(screen.queryByRole('button', { name: 'Request a new OTP' }) ?? screen.getByRole('button', { name: 'Cancel' })),
    'location.changed': (run, event) => run.location.navigate(format(event.location)),
  },
  states: {
    'request.form.editing': (run) => {
      expect(screen.getByRole('heading', { name: 'Forgot your password?' })).toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(run.location.history.at(-1)).toBe('/forgot-password');
    },
    'request.form.invalid': () => {
      expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    },
    'request.form.rejected': () => {
      expect(screen.getByRole('alert')).toHaveTextContent(REFUSALS.send);
      expect(screen.getByLabelText('Email')).toHaveValue('premium@example.com');
    },
    'request.sending': () => {
      expect(screen.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    },
    'verify.form.editing': (run, snapshot) => {
      expect(screen.getByRole('heading', { name: 'Enter your OTP' })).toBeInTheDocument();
      expect(screen.getByText('premium@example.com')).toBeInTheDocument();
      // The address holds the step, so a reload resumes here.
      const url = new URL(run.location.history.at(-1)!, 'http://x');
      expect(url.pathname).toBe('/forgot-password/verify');
      expect(url.searchParams.get('q')).toBe(snapshot.context.verifyToken);
      expect(url.searchParams.get('email')).toBe('premium@example.com');
    },
    'verify.form.invalid': () => {
      expect(screen.getByText('OTP code is required')).toBeInTheDocument();
    },
    'verify.form.rejected': () => {
      expect([REFUSALS.verify, REFUSALS.resend]).toContain(screen.getByRole('alert').textContent);
    },
    'verify.verifying': () => {
      expect(screen.getByRole('button', { name: 'Verifying...' })).toBeDisabled();
    },
    'verify.resending': () => {
      expect(screen.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    },
    'reset.form.editing': (run, snapshot) => {
      expect(screen.getByRole('heading', { name: 'Set a new password' })).toBeInTheDocument();
      expect(run.location.history.at(-1)).toBe(`/forgot-password/reset?q=${snapshot.context.resetToken}`);
    },
    'reset.form.invalid': () => {
      expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    },
    'reset.form.rejected': () => {
      expect(screen.getByRole('alert')).toHaveTextContent(REFUSALS.reset);
    },
    'reset.resetting': () => {
      expect(screen.getByRole('button', { name: 'Saving...' })).toBeDisabled();
    },
    linkIncomplete: () => {
      expect(screen.getByRole('alert')).toHaveTextContent('This link is incomplete or has expired. Request a new OTP to continue.');
    },
    done: (run) => {
      expect(run.location.history.at(-1)).toBe('/login');
    },
  },
});
