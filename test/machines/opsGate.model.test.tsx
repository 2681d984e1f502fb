import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, expect, vi } from 'vitest';
import { ApiError } from '../../src/api/http';
import { opsGateMachine } from '../../src/machines/opsGate/opsGate.machine';
import { OPS_SESSION_KEY } from '../../src/views/ops/opsSessionStore';
import { describeModel } from '../support/model';
import { json, operatorSession, renderOps } from '../support/ops';

afterEach(() => vi.unstubAllGlobals());


const session = operatorSession('finance');
const me = { email: 'finance@example.com', name: 'Nena Operator', role: 'finance' as const };
const RECOVERY = ['aaaa-1111', 'bbbb-2222', 'cccc-3333', 'dddd-4444', 'eeee-5555', 'ffff-6666', 'gggg-7777', 'hhhh-8888', 'iiii-9999', 'jjjj-0000'];
const codeField = () => screen.getByRole('textbox', { name: /^Code/ });
const storedSession = () => window.sessionStorage.getItem(OPS_SESSION_KEY);

describeModel('opsGate', {
  machine: opsGateMachine,
  inputs: [
    { signedIn: true, stored: null },
    { signedIn: false, stored: session },
    { signedIn: true, stored: session },
    // Another operator's session left in this tab: never used.
    { signedIn: true, stored: { ...session, operator: { ...session.operator, email: 'admin@example.com' } } },
  ],
  events: {
    'code.submit': [
      { type: 'code.submit', code: '123456' },
      { type: 'code.submit', code: 'abcd-1234' },
      { type: 'code.submit', code: '12' },
    ],
    'codes.saved': [{ type: 'codes.saved' }],
    'check.retry': [{ type: 'check.retry' }],
    'enrol.retry': [{ type: 'enrol.retry' }],
    'session.expired': [{ type: 'session.expired' }],
    'session.end': [{ type: 'session.end' }],
  },
  invocations: {
    loadMe: { done: [{ ...me, enrolled: true }, { ...me, enrolled: false }], error: [new ApiError('No route for GET /api/v1/ops/me', 404), new ApiError('Network error')] },
    startEnrol: { done: [{ secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/Sine%20Bisaya:finance%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Sine%20Bisaya' }], error: [new ApiError('Something went wrong', 500)] },
    confirmEnrol: { done: [{ recoveryCodes: RECOVERY, session }], error: [new ApiError('That code is not right.', 400)] },
    openSession: { done: [session], error: [new ApiError('That code is not right.', 400)] },
    endSession: { done: [null], error: [new ApiError('Network error')] },
  },
  render: (tools, input) => ({
    ...renderOps({
      signedIn: input?.signedIn ?? true,
      stored: input?.stored ?? null,
      overrides: { actors: tools.actors.actors, inspect: tools.inspect },
      // The only ops call a person makes here is a search: it answers 401 (the ops session is over).
      respond: () => json(401, { success: false, message: 'Your operator session has expired. Please verify again.', data: null }),
    }),
    tools,
  }),
  executors: {
    'code.submit': async (run, event) => {
      await run.user.clear(codeField());
      await run.user.type(codeField(), event.code);
      await run.user.click(screen.getByRole('button', { name: 'Verify' }));
    },
    'codes.saved': async (run) => run.user.click(screen.getByRole('button', { name: 'I saved them' })),
    'check.retry': async (run) => run.user.click(screen.getByRole('button', { name: 'Try again' })),
    'enrol.retry': async (run) => run.user.click(screen.getByRole('button', { name: 'Try again' })),
    'session.expired': async (run) => {
      const search = screen.getByRole('searchbox', { name: /^Email, name, payment reference/ });
      await run.user.clear(search);
      await run.user.type(search, 'nena');
      await run.user.click(screen.getByRole('button', { name: 'Search' }));
    },
    'session.end': async (run) => run.user.click(screen.getByRole('button', { name: 'Sign out of the back office' })),
  },
  states: {
    checking: () => {
      expect(screen.getByRole('status')).toHaveTextContent('Loading…');
      expect(screen.queryByRole('heading')).not.toBeInTheDocument();
    },
    signInNeeded: async (run) => {
      await waitFor(() => expect(run.location.history.at(-1)).toBe('/login?from=%2Fops%2Ffind'));
      // No viewer signed in: an ops session left in this tab is forgotten.
      expect(storedSession()).toBeNull();
    },
    checkFailed: () => {
      expect(screen.getByRole('alert')).toHaveTextContent('Network error');
      expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
    },
    notOperator: () => {
      // Exactly the app's 404 page: no word of the back office.
      expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
      expect(screen.getByText('The page you are looking for does not exist or has moved.')).toBeInTheDocument();
      expect(screen.queryByText(/back office|operator/i)).not.toBeInTheDocument();
    },
    'enrolling.starting': () => {
      expect(screen.getByRole('status')).toHaveTextContent('Loading…');
    },
    'enrolling.startFailed': () => {
      expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong');
      expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
    },
    'enrolling.form.editing': () => {
      expect(screen.getByRole('heading', { level: 1, name: 'Set up your authenticator' })).toBeInTheDocument();
      expect(screen.getByTestId('ops-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
      expect(screen.getByLabelText('Code from your authenticator app')).toHaveValue('');
    },
    'enrolling.form.invalid': () => {
      // Enrolment takes only an app code (no recovery codes exist yet).
      expect(screen.getByText('Enter the 6-digit code from your app, or a recovery code like abcd-1234')).toBeInTheDocument();
      expect(codeField()).toHaveAttribute('aria-invalid', 'true');
    },
    'enrolling.form.rejected': () => {
      expect(codeField()).toHaveAccessibleDescription('That code is not right.');
      expect(codeField()).toHaveValue('123456');
    },
    'enrolling.confirming': (run) => {
      expect(screen.getByRole('button', { name: 'Verifying...' })).toBeDisabled();
      expect(run.tools.actors.inputs('confirmEnrol').at(-1)).toEqual({ code: '123456' });
    },
    'enrolling.recoveryCodes': () => {
      expect(screen.getByRole('heading', { level: 1, name: 'Your recovery codes' })).toBeInTheDocument();
      const list = screen.getByRole('list', { name: 'Your recovery codes' });
      expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(RECOVERY);
      expect(screen.getByRole('button', { name: 'Download as a text file' })).toBeEnabled();
      // The ops session is kept for this tab only, never in localStorage.
      expect(JSON.parse(storedSession()!)).toMatchObject({ opsToken: 'ops-token' });
      expect(window.localStorage.getItem(OPS_SESSION_KEY)).toBeNull();
    },
    'verifying.form.editing': (_run, snapshot) => {
      expect(screen.getByRole('heading', { level: 1, name: 'Verify it is you' })).toBeInTheDocument();
      if (snapshot.context.resumed) {
        expect(screen.getByRole('alert')).toHaveTextContent('Your operator session has expired. Please verify again.');
        // The page underneath is kept (hidden), with what was typed in it.
        expect(screen.getByRole('searchbox', { hidden: true, name: /^Email, name/ })).toHaveValue('nena');
      } else {
        expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      }
      expect(storedSession()).toBeNull();
    },
    'verifying.form.invalid': () => {
      expect(screen.getByText('Enter the 6-digit code from your app, or a recovery code like abcd-1234')).toBeInTheDocument();
    },
    'verifying.form.rejected': () => {
      expect(codeField()).toHaveAccessibleDescription('That code is not right.');
    },
    'verifying.submitting': (run) => {
      expect(screen.getByRole('button', { name: 'Verifying...' })).toBeDisabled();
      expect(['123456', 'abcd-1234']).toContain((run.tools.actors.inputs('openSession').at(-1) as { code: string }).code);
    },
    ready: async () => {
      expect(await screen.findByRole('heading', { level: 1, name: 'Find a viewer' })).toBeVisible();
      const nav = screen.getByRole('navigation', { name: 'Back office' });
      // A finance operator: no Operators page (admin only).
      expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Find', 'Queues', 'Vouchers', 'Exports', 'Audit log']);
      expect(screen.getByText('finance@example.com · Finance')).toBeInTheDocument();
      expect(JSON.parse(storedSession()!)).toMatchObject({ opsToken: 'ops-token' });
    },
    ending: () => {
      expect(screen.getByRole('button', { name: 'Sign out of the back office' })).toBeDisabled();
    },
  },
});
