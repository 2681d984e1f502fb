/**
 * The account page's fault matrix (issue 36: "the new calls are added to your own fault tests"), as
 * test/views/ops-faults.test.tsx does for the back office: every call the viewer's new account features
 * make (signed-in devices, the email change and its undo page, download my data, delete my account),
 * through the real AccountPage / EmailUndoPage and their real actors, under a network error and answers
 * 500, 401, 404 and 429 (and a proxy's HTML 502 page). Each time the person reads a message (an alert), no spinner is left, what they
 * typed is still there, and a 401 on a signed-in call ends the session as everywhere else.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient, queryKeys } from '../../src/api/queries';
import type { DataExportState, SignedInDevice } from '../../src/api/schemas';
import { RESEND_WAIT } from '../../src/views/parts/CodeForm';
import AccountPage from '../../src/views/pages/AccountPage';
import { AppRoutes } from '../../src/views/App';
import EmailUndoPage from '../../src/views/pages/EmailUndoPage';
import { profileFixture } from '../support/account';
import { demoUser, renderView, startSession } from '../support/render';

/** The ops matrix's modes, and a proxy's HTML error page (no envelope, no message of the server's). */
type Mode = 'network' | 500 | 401 | 404 | 429 | 'proxy 502';
const MODES: Mode[] = ['network', 500, 401, 404, 429, 'proxy 502'];
const MESSAGES: Record<Exclude<Mode, 'network' | 'proxy 502'>, string> = {
  500: 'Something broke on our side (500).',
  401: 'Your session has expired. Please log in again.',
  404: 'No route for this call (404).',
  429: 'Too many attempts. Please wait a minute (429).',
};
const expected = (mode: Mode) => (mode === 'network' ? 'Network error' : mode === 'proxy 502' ? 'Something went wrong' : MESSAGES[mode]);

const here: SignedInDevice = {
  id: 'here', current: true, browser: 'Chrome 131', os: 'Windows 10', device: null, deviceType: 'desktop', place: null,
  signedInAt: '2026-11-20T02:00:00.000Z', lastUsedAt: '2026-11-27T02:00:00.000Z',
};
const phone: SignedInDevice = {
  id: 'phone', current: false, browser: 'Mobile Safari 17', os: 'iOS 17.4', device: 'Apple iPhone', deviceType: 'mobile', place: 'PH',
  signedInAt: '2026-11-21T03:00:00.000Z', lastUsedAt: '2026-11-26T04:30:00.000Z',
};
const readyExport: DataExportState = { state: 'READY', requestedAt: '2026-11-27T01:00:00.000Z', readyAt: '2026-11-27T01:00:30.000Z', expiresAt: '2099-11-28T01:00:30.000Z' };

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}
const ok = (data: unknown, message = 'OK') => json(200, { success: true, message, data });

type Respond = (path: string, method: string) => Response | Promise<Response>;

/** Every call of the account page, answered well. */
const healthy: Respond = (path, method) => {
  const at = (suffix: string) => path.endsWith(`/api/v1/mobile${suffix}`);
  if (at('/account/profile')) return ok(profileFixture);
  if (at('/account/sessions') && method === 'GET') return ok({ sessions: [here, phone] });
  if (at('/account/sessions/phone') && method === 'DELETE') return ok(null, 'Signed out of that device');
  if (at('/account/sessions/sign-out-others')) return ok({ signedOut: 1 });
  if (at('/account/email/change')) return ok({ verificationToken: 'change-token' });
  if (at('/account/email/change/resend')) return ok({ verificationToken: 'change-token-2' });
  if (at('/account/email/change/verify')) return ok({ email: 'new@example.com' });
  if (at('/auth/email/undo')) return ok(null, 'Your email address was changed back and every device was signed out.');
  if (at('/account/export')) return ok(method === 'GET' ? readyExport : { ...readyExport, state: 'PREPARING', readyAt: null, expiresAt: null });
  if (at('/account/export/link')) return ok({ token: 'file-token', expiresAt: '2099-01-01T00:00:00.000Z' });
  if (path.includes('/account/export/download?')) return new Response('{"name":"Maria"}', { status: 200, headers: { 'Content-Type': 'application/json' } });
  if (at('/account/delete')) return ok(null, 'Your account was deleted');
  return json(500, { success: false, message: `Not in this test: ${method} ${path}`, data: null });
};

/** Answers the matching call with the failure; everything else as `healthy`. */
function failing(mode: Mode, matches: (path: string, method: string) => boolean): typeof fetch {
  return async (input, init) => {
    const url = String(input);
    const path = url.replace(/^https?:\/\/[^/]+/, '');
    const method = init?.method ?? 'GET';
    if (!matches(path, method)) return healthy(path, method);
    if (mode === 'network') throw new TypeError('Failed to fetch');
    if (mode === 'proxy 502') return new Response('<html><body>502 Bad Gateway</body></html>', { status: 502, headers: { 'Content-Type': 'text/html' } });
    return json(mode, { success: false, message: MESSAGES[mode], data: null }, mode === 429 ? { 'Retry-After': '60' } : {});
  };
}

function renderAccountWith(fetchImpl: typeof fetch) {
  const session = startSession(demoUser);
  const queryClient = createQueryClient();
  queryClient.setQueryData(queryKeys.profile, profileFixture);
  const run = renderView(
    <QueryClientProvider client={queryClient}>
      <AccountPage />
    </QueryClientProvider>,
    { path: '/account', session, fetch: fetchImpl },
  );
  return { ...run, user: userEvent.setup({ applyAccept: false }) };
}
type Run = ReturnType<typeof renderAccountWith>;

const region = (name: string) => within(screen.getByRole('region', { name }));
const devices = () => region('Signed-in Devices');
const emailCard = () => region('Email Address');
const dataCard = () => region('Your data');
const deleteCard = () => region('Delete my account');
const EMAIL_LABEL = 'To confirm, type your email address: free@example.com';
/** Every "…ing" label a button or status line wears while a call is in flight. */
const SPINNERS = /^(Loading devices|Signing out|Sending|Verifying|Checking for a copy of your data|Preparing your data|Downloading your data|Deleting your account)/;

interface Scenario {
  name: string;
  /** Readies the scenario's own state before the page is shown. */
  before?: () => void;
  matches: (path: string, method: string) => boolean;
  /** Where the message shows. */
  scope: () => ReturnType<typeof within>;
  /** Types what a person types and makes the call. */
  act: (run: Run) => Promise<void>;
  /** What was typed is still there; what lets the person go on is there. */
  kept: (run: Run) => Promise<void> | void;
}

/** The email change's form, filled and sent (answered well unless the scenario fails it). */
async function sendCode(run: Run) {
  await run.user.click(emailCard().getByRole('button', { name: 'Change Email' }));
  await run.user.type(emailCard().getByLabelText('Current Password'), 'Secret#2026');
  await run.user.type(emailCard().getByLabelText('New Email Address'), 'new@example.com');
  await run.user.click(emailCard().getByRole('button', { name: 'Send Code' }));
}

const SCENARIOS: Scenario[] = [
  {
    name: 'listDevices', matches: (p, method) => method === 'GET' && p.endsWith('/account/sessions'), scope: devices,
    act: async () => {},
    kept: () => { expect(devices().getByRole('button', { name: 'Try again' })).toBeEnabled(); },
  },
  {
    name: 'signOutDevice', matches: (p, method) => method === 'DELETE' && p.endsWith('/account/sessions/phone'),
    scope: () => within(screen.getByRole('alertdialog')),
    act: async (run) => {
      await run.user.click(await devices().findByRole('button', { name: 'Sign out Apple iPhone, Mobile Safari 17 on iOS 17.4' }));
      const dialog = within(await screen.findByRole('alertdialog'));
      await run.user.click(dialog.getByRole('button', { name: 'Sign Out' }));
    },
    kept: () => {
      const dialog = within(screen.getByRole('alertdialog'));
      expect(dialog.getByRole('button', { name: 'Sign Out' })).toBeEnabled();
      expect(dialog.getByRole('button', { name: 'Keep Signed In' })).toBeEnabled();
    },
  },
  {
    name: 'signOutOtherDevices', matches: (p, method) => method === 'POST' && p.endsWith('/account/sessions/sign-out-others'),
    scope: () => within(screen.getByRole('alertdialog')),
    act: async (run) => {
      await run.user.click(await devices().findByRole('button', { name: 'Sign Out All Other Devices' }));
      const dialog = within(await screen.findByRole('alertdialog'));
      await run.user.click(dialog.getByRole('button', { name: 'Sign Out All Other Devices' }));
    },
    kept: () => {
      const dialog = within(screen.getByRole('alertdialog'));
      expect(dialog.getByRole('button', { name: 'Sign Out All Other Devices' })).toBeEnabled();
      expect(dialog.getByRole('button', { name: 'Keep Signed In' })).toBeEnabled();
    },
  },
  {
    name: 'startEmailChange', matches: (p) => p.endsWith('/account/email/change'), scope: emailCard,
    act: sendCode,
    kept: () => {
      expect(emailCard().getByLabelText('Current Password')).toHaveValue('Secret#2026');
      expect(emailCard().getByLabelText('New Email Address')).toHaveValue('new@example.com');
      expect(emailCard().getByRole('button', { name: 'Send Code' })).toBeEnabled();
    },
  },
  {
    name: 'resendEmailChangeCode', matches: (p) => p.endsWith('/account/email/change/resend'), scope: emailCard,
    act: async (run) => {
      await sendCode(run);
      await run.user.type(await emailCard().findByLabelText('OTP code'), 'ab12cd');
      await run.user.click(emailCard().getByRole('button', { name: 'Resend OTP' }));
    },
    kept: () => {
      expect(emailCard().getByLabelText('OTP code')).toHaveValue('AB12CD');
      expect(emailCard().getByRole('button', { name: 'Verify' })).toBeEnabled();
    },
  },
  {
    name: 'verifyEmailChange', matches: (p) => p.endsWith('/account/email/change/verify'), scope: emailCard,
    act: async (run) => {
      await sendCode(run);
      await run.user.type(await emailCard().findByLabelText('OTP code'), 'ab12cd');
      await run.user.click(emailCard().getByRole('button', { name: 'Verify' }));
    },
    kept: () => {
      expect(emailCard().getByLabelText('OTP code')).toHaveValue('AB12CD');
      expect(emailCard().getByRole('button', { name: 'Verify' })).toBeEnabled();
    },
  },
  {
    name: 'getDataExport', matches: (p, method) => method === 'GET' && p.endsWith('/account/export'), scope: dataCard,
    act: async () => {},
    kept: () => { expect(dataCard().getByRole('button', { name: 'Try again' })).toBeEnabled(); },
  },
  (() => {
    // The copy asked for is being prepared; the page's next look at it (EXPORT_POLL_MS later) fails.
    let started = false;
    return {
      name: 'getDataExport while preparing',
      before: () => { started = false; },
      matches: (p: string, method: string) => {
        if (method === 'POST' && p.endsWith('/account/export')) started = true;
        return started && method === 'GET' && p.endsWith('/account/export');
      },
      scope: dataCard,
      act: async (run: Run) => {
        await run.user.click(await dataCard().findByRole('button', { name: 'Prepare a new copy' }));
        expect(await dataCard().findByRole('status')).toHaveTextContent('Preparing your data');
      },
      kept: () => { expect(dataCard().getByRole('button', { name: 'Prepare my data' })).toBeEnabled(); },
    } satisfies Scenario;
  })(),
  {
    name: 'startDataExport', matches: (p, method) => method === 'POST' && p.endsWith('/account/export'), scope: dataCard,
    act: async (run) => run.user.click(await dataCard().findByRole('button', { name: 'Prepare a new copy' })),
    kept: () => { expect(dataCard().getByRole('button', { name: 'Prepare my data' })).toBeEnabled(); },
  },
  {
    name: 'dataExportLink', matches: (p) => p.endsWith('/account/export/link'), scope: dataCard,
    act: async (run) => run.user.click(await dataCard().findByRole('button', { name: 'Download (JSON)' })),
    kept: () => { expect(dataCard().getByRole('button', { name: 'Download (JSON)' })).toBeEnabled(); },
  },
  {
    name: 'downloadDataExport', matches: (p) => p.includes('/account/export/download?token=file-token'), scope: dataCard,
    act: async (run) => run.user.click(await dataCard().findByRole('button', { name: 'Download (readable page)' })),
    kept: () => { expect(dataCard().getByRole('button', { name: 'Download (readable page)' })).toBeEnabled(); },
  },
  {
    name: 'deleteAccount', matches: (p) => p.endsWith('/account/delete'), scope: deleteCard,
    act: async (run) => {
      await run.user.click(deleteCard().getByRole('button', { name: 'Continue to delete' }));
      await run.user.type(deleteCard().getByLabelText('Current Password'), 'Secret#2026');
      await run.user.type(deleteCard().getByLabelText(EMAIL_LABEL), 'free@example.com');
      await run.user.click(deleteCard().getByRole('button', { name: 'Delete my account for good' }));
    },
    kept: (run) => {
      expect(deleteCard().getByLabelText('Current Password')).toHaveValue('Secret#2026');
      expect(deleteCard().getByLabelText(EMAIL_LABEL)).toHaveValue('free@example.com');
      expect(deleteCard().getByRole('button', { name: 'Delete my account for good' })).toBeEnabled();
      expect(run.location.history.at(-1)).toBe('/account');
    },
  },
];

beforeEach(() => { RESEND_WAIT.seconds = 0; });
afterEach(() => { RESEND_WAIT.seconds = 60; });

describe('the account page under faults: every new call shows a message, keeps what was typed, leaves no spinner', () => {
  for (const scenario of SCENARIOS) {
    it.each(MODES)(`${scenario.name} under %s`, { timeout: 10_000 }, async (mode) => {
      scenario.before?.();
      const run = renderAccountWith(failing(mode, scenario.matches));
      await screen.findByRole('heading', { level: 1, name: 'Account' });
      await scenario.act(run);
      await waitFor(() => expect(scenario.scope().getAllByRole('alert').map((alert: HTMLElement) => alert.textContent)).toContain(expected(mode)), { timeout: 4000 });
      if (mode === 401) await waitFor(() => expect(run.session.getSnapshot().value).toBe('signedOut'));
      else expect(run.session.getSnapshot().value).toBe('signedIn');
      expect(screen.queryAllByText(SPINNERS)).toEqual([]);
      expect(document.querySelectorAll('[aria-busy="true"]')).toHaveLength(0);
      await scenario.kept(run);
    });
  }
});

describe('a 401 on the account page, in the whole app: the session ends as everywhere else', () => {
  const byName = (name: string) => SCENARIOS.find((scenario) => scenario.name === name)!;
  // One call that comes on its own (the devices list), one the person makes after typing (the deletion).
  for (const name of ['listDevices', 'deleteAccount']) {
    it(`${name}: the normal sign-in, then back to /account`, async () => {
      const scenario = byName(name);
      const run = renderView(<AppRoutes />, { path: '/account', session: startSession(demoUser), fetch: failing(401, scenario.matches) });
      // (The devices list is read as the page comes: its 401 may take the page away before it is seen.)
      if (name !== 'listDevices') expect(await screen.findByRole('heading', { level: 1, name: 'Account' })).toBeInTheDocument();
      await scenario.act({ ...run, user: userEvent.setup({ applyAccept: false }) });
      await waitFor(() => expect(run.location.history.at(-1)).toBe('/login?from=%2Faccount'));
      expect(run.session.getSnapshot().value).toBe('signedOut');
      expect(window.localStorage.getItem('token')).toBeNull();
    });
  }
});

describe('the undo page (/account/email/undo) under faults', () => {
  it.each(MODES)('undoEmailChange under %s: the message, and the way home', async (mode) => {
    const run = renderView(<EmailUndoPage />, {
      path: '/account/email/undo?token=undo-token', session: startSession(null),
      fetch: failing(mode, (p) => p.endsWith('/auth/email/undo')),
    });
    // Opening the link does nothing by itself: the person presses Change It Back.
    (await screen.findByRole('button', { name: 'Change It Back' })).click();
    expect(await screen.findByRole('heading', { level: 1, name: 'We could not undo the change' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(expected(mode));
    expect(screen.queryByText('Changing your email address back...')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Homepage' })).toHaveAttribute('href', '/');
    expect(run.session.getSnapshot().value).toBe('signedOut');
  });
});
