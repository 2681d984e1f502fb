/**
 * The back office's fault matrix (issue 35): every call the console makes, under a network error and
 * answers 500, 401, 404 and 429. Each shows a message a person can read, and what was typed stays.
 * An ops call's 401 (the ops session ended) asks for a code again with the page kept underneath; an
 * entry call's 401 is the viewer's own session ending (the normal sign-in, then back).
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, ok, operatorSession, opsMe, renderOps, timelineFixture, VIEWER_ID, type OpsFetch } from '../support/ops';

afterEach(() => vi.unstubAllGlobals());

type Mode = 'network' | 500 | 401 | 404 | 429;
const MODES: Mode[] = ['network', 500, 401, 404, 429];
const EXPIRED = 'Your operator session has expired. Please verify again.';
const MESSAGES: Record<Exclude<Mode, 'network'>, string> = {
  500: 'Something broke on our side (500).',
  401: EXPIRED,
  404: 'No route for this call (404).',
  429: 'Too many attempts. Please wait a minute (429).',
};
const expected = (mode: Mode) => (mode === 'network' ? 'Network error' : MESSAGES[mode]);

const batch = {
  id: 'batch-1', partner: 'Gaisano', planId: 1, planName: 'Monthly', days: 30, expiresOn: '2099-12-31', perAccount: true, useLimit: null,
  count: 2, used: 0, createdBy: 'finance@example.com', createdAt: '2026-11-20T00:00:00.000Z', disabledAt: null,
};
const plans = [{ id: 1, slug: 'monthly', name: 'Monthly', description: '', price: '99.00', currency: 'PHP', duration: '1', billingCycle: 'month', trialDays: 0, sortOrder: 1, isActive: true, features: [], popular: false }];

/** Every read the pages make, answered well. */
const healthy: OpsFetch = (url) => {
  const path = url.replace(/^https?:\/\/[^/]+/, '');
  if (path.endsWith('/api/v1/ops/me')) return ok(opsMe('admin'));
  if (path.startsWith('/api/v1/ops/viewers/')) return ok(timelineFixture());
  if (path.startsWith('/api/v1/ops/search')) return ok({ results: [{ userId: VIEWER_ID, email: 'nena@example.com', name: 'Nena Cruz', matchedBy: 'email', status: 'ACTIVE' }] });
  if (path === '/api/v1/ops/voucher-batches') return ok({ batches: [batch] });
  if (path === '/api/v1/ops/voucher-batches/batch-1') return ok({ batch, codes: [{ code: 'SB-AAAA-BBBB-CCCC', disabledAt: null, redemptions: 0 }], redemptions: [] });
  if (path === '/api/v1/ops/queues') return ok({ pastDue: [], ourFault: [], stuck: [], reversals: [], unverifiedWebhooks: [] });
  if (path.startsWith('/api/v1/ops/audit')) return ok({ entries: [], nextCursor: null });
  if (path === '/api/v1/ops/operators') return ok({ operators: [{ userId: 'op-2', email: 'support@example.com', name: 'Sam', role: 'support', enrolled: true, grantedBy: 'cli', grantedAt: '2026-11-01T00:00:00.000Z', activeSessions: 1 }] });
  if (path.includes('/subscription/plans')) return ok(plans);
  return json(500, { success: false, message: `Not in this test: ${path}`, data: null });
};

/** Answers calls that match with the failure; everything else as `healthy`. */
function failing(mode: Mode, matches: (path: string, method: string) => boolean): OpsFetch {
  return (url, init) => {
    const path = url.replace(/^https?:\/\/[^/]+/, '');
    if (!matches(path, init?.method ?? 'GET')) return healthy(url, init);
    if (mode === 'network') throw new TypeError('Failed to fetch');
    return json(mode, { success: false, message: MESSAGES[mode], data: null }, mode === 429 ? { 'Retry-After': '60' } : {});
  };
}

type Run = ReturnType<typeof renderOps>;
interface Scenario {
  name: string;
  path: string;
  matches: (path: string, method: string) => boolean;
  /** Types what a person types and makes the call. */
  act: (run: Run) => Promise<void>;
  /** What was typed is still there (in the page, hidden or not). */
  kept: (run: Run) => Promise<void> | void;
}

const hidden = { hidden: true } as const;
const panelNamed = (name: string) => screen.getByRole('region', { ...hidden, name });
const textbox = (scope: HTMLElement, name: string | RegExp) => within(scope).getByRole('textbox', { ...hidden, name });

/** An action of the timeline (or of a batch, or of an operator): reason (and value), Continue, Confirm. */
function action(name: string, button: { name: string; index?: number }, call: RegExp, options: { path?: string; value?: [string, string] } = {}): Scenario {
  return {
    name,
    path: options.path ?? `/ops/viewers/${VIEWER_ID}`,
    matches: (path, method) => method === 'POST' && call.test(path),
    act: async (run) => {
      const buttons = await screen.findAllByRole('button', { name: button.name });
      await run.user.click(buttons[button.index ?? 0]!);
      const panel = panelNamed(name);
      if (options.value) {
        await run.user.clear(textbox(panel, options.value[0]));
        await run.user.type(textbox(panel, options.value[0]), options.value[1]);
      }
      await run.user.type(textbox(panel, 'Reason (written to the audit log)'), `Fault test: ${name}`);
      await run.user.click(within(panel).getByRole('button', { name: 'Continue' }));
      await run.user.click(within(panel).getByRole('button', { name: 'Confirm' }));
    },
    kept: async (run) => {
      const panel = panelNamed(name);
      expect(within(panel).getByText(`Reason: Fault test: ${name}`)).toBeInTheDocument();
      if (run.location.history.at(-1) && screen.queryByRole('heading', { name: 'Verify it is you' })) return;
      await run.user.click(within(panel).getByRole('button', { name: 'Back' }));
      expect(textbox(panelNamed(name), 'Reason (written to the audit log)')).toHaveValue(`Fault test: ${name}`);
      if (options.value) expect(textbox(panelNamed(name), options.value[0])).toHaveValue(options.value[1]);
    },
  };
}

/** A read of a page: its message and Try again. */
function read(name: string, path: string, call: (path: string) => boolean): Scenario {
  return {
    name, path, matches: (p, method) => method === 'GET' && call(p),
    act: async () => {},
    kept: () => {
      if (!screen.queryByRole('heading', { name: 'Verify it is you' })) expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
    },
  };
}

const SCENARIOS: Scenario[] = [
  {
    name: 'search', path: '/ops/find', matches: (p) => p.startsWith('/api/v1/ops/search'),
    act: async (run) => {
      await run.user.type(screen.getByRole('searchbox'), 'nena@example.com');
      await run.user.click(screen.getByRole('button', { name: 'Search' }));
    },
    kept: () => { expect(screen.getByRole('searchbox', hidden)).toHaveValue('nena@example.com'); },
  },
  read('viewer timeline', `/ops/viewers/${VIEWER_ID}`, (p) => p.startsWith('/api/v1/ops/viewers/')),
  {
    name: 'Ask Maya', path: `/ops/viewers/${VIEWER_ID}`, matches: (p) => p.endsWith('/maya'),
    act: async (run) => run.user.click(await screen.findByRole('button', { name: 'Ask Maya' })),
    kept: () => {},
  },
  action('Refund', { name: 'Refund' }, /\/payments\/rec-1\/reverse$/, { value: ['Amount in pesos', '12.50'] }),
  action('Retry renewal now', { name: 'Retry renewal now' }, /\/subscriptions\/sub-1\/retry$/),
  action('Stop retries', { name: 'Stop retries' }, /\/subscriptions\/sub-1\/dunning$/),
  action('Extend period', { name: 'Extend period' }, /\/subscriptions\/sub-1\/extend$/, { value: ['Days to add (1 to 366)', '5'] }),
  action('Cancel subscription', { name: 'Cancel subscription' }, /\/subscriptions\/sub-1\/cancel$/),
  action('Resend mail', { name: 'Resend' }, /\/mails\/mail-1\/resend$/),
  read('queues', '/ops/queues', (p) => p === '/api/v1/ops/queues'),
  read('voucher batches', '/ops/vouchers', (p) => p === '/api/v1/ops/voucher-batches'),
  {
    name: 'mint a batch', path: '/ops/vouchers', matches: (p, method) => method === 'POST' && p === '/api/v1/ops/voucher-batches',
    act: async (run) => {
      const form = within(screen.getByRole('form', { name: 'Mint voucher codes' }));
      await screen.findByRole('option', { name: 'Monthly' });
      await run.user.type(form.getByRole('textbox', { name: 'Partner' }), 'Gaisano');
      await run.user.type(form.getByRole('textbox', { name: 'How many codes (1 to 5000)' }), '10');
      await run.user.selectOptions(form.getByRole('combobox', { name: 'Plan' }), '1');
      const { fireEvent } = await import('@testing-library/react');
      fireEvent.change(form.getByLabelText('Last day to redeem (Manila)'), { target: { value: '2099-12-31' } });
      await run.user.type(form.getByRole('textbox', { name: 'Reason (written to the audit log)' }), 'Fault test: mint');
      await run.user.click(form.getByRole('button', { name: 'Mint codes' }));
    },
    kept: () => {
      const form = within(screen.getByRole('form', { ...hidden, name: 'Mint voucher codes' }));
      expect(form.getByRole('textbox', { ...hidden, name: 'Partner' })).toHaveValue('Gaisano');
      expect(form.getByRole('textbox', { ...hidden, name: 'Reason (written to the audit log)' })).toHaveValue('Fault test: mint');
    },
  },
  read('voucher batch', '/ops/vouchers/batch-1', (p) => p === '/api/v1/ops/voucher-batches/batch-1'),
  {
    name: 'batch CSV', path: '/ops/vouchers/batch-1', matches: (p) => p.endsWith('/codes.csv'),
    act: async (run) => run.user.click(await screen.findByRole('button', { name: 'Download CSV' })),
    kept: () => {},
  },
  action('Disable code', { name: 'Disable code' }, /\/vouchers\/SB-AAAA-BBBB-CCCC\/disable$/, { path: '/ops/vouchers/batch-1' }),
  action('Disable batch', { name: 'Disable batch' }, /\/voucher-batches\/batch-1\/disable$/, { path: '/ops/vouchers/batch-1' }),
  {
    name: 'export', path: '/ops/exports', matches: (p) => p.startsWith('/api/v1/ops/exports/'),
    act: async (run) => {
      const from = screen.getByLabelText('From (Manila date)');
      const { fireEvent } = await import('@testing-library/react');
      fireEvent.change(from, { target: { value: '2026-11-01' } });
      fireEvent.change(screen.getByLabelText('To (Manila date)'), { target: { value: '2026-11-15' } });
      await run.user.click(screen.getByRole('button', { name: 'Download payments' }));
    },
    kept: () => {
      expect(screen.getByLabelText('From (Manila date)', { selector: 'input' })).toHaveValue('2026-11-01');
      expect(screen.getByLabelText('To (Manila date)', { selector: 'input' })).toHaveValue('2026-11-15');
    },
  },
  read('audit log', '/ops/audit', (p) => p.startsWith('/api/v1/ops/audit')),
  read('operators', '/ops/operators', (p) => p === '/api/v1/ops/operators'),
  {
    name: 'grant a role', path: '/ops/operators', matches: (p, method) => method === 'POST' && p === '/api/v1/ops/operators',
    act: async (run) => {
      const form = within(screen.getByRole('form', { name: 'Give or change a role' }));
      await run.user.type(form.getByRole('textbox', { name: 'Email' }), 'new-op@example.com');
      await run.user.type(form.getByRole('textbox', { name: 'Reason (written to the audit log)' }), 'Fault test: grant');
      await run.user.click(form.getByRole('button', { name: 'Save role' }));
    },
    kept: () => {
      const form = within(screen.getByRole('form', { ...hidden, name: 'Give or change a role' }));
      expect(form.getByRole('textbox', { ...hidden, name: 'Email' })).toHaveValue('new-op@example.com');
      expect(form.getByRole('textbox', { ...hidden, name: 'Reason (written to the audit log)' })).toHaveValue('Fault test: grant');
    },
  },
  action('Sign out everywhere', { name: 'Sign out everywhere' }, /\/operators\/op-2\/sessions\/revoke$/, { path: '/ops/operators' }),
];

describe('the back office under faults: every ops call shows a message and keeps what was typed', () => {
  for (const scenario of SCENARIOS) {
    it.each(MODES)(`${scenario.name} under %s`, async (mode) => {
      const run = renderOps({ path: scenario.path, stored: operatorSession('admin'), respond: failing(mode, scenario.matches) });
      await screen.findByRole('heading', { level: 1 });
      await scenario.act(run);
      if (mode === 401) {
        // The ops session is over: a code again, the page kept (hidden) underneath.
        expect(await screen.findByRole('heading', { level: 1, name: 'Verify it is you' })).toBeVisible();
        expect(screen.getByRole('alert')).toHaveTextContent(EXPIRED);
      } else {
        await waitFor(() => expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContain(expected(mode)));
      }
      await scenario.kept(run);
    });
  }
});

describe('the entry calls (viewer token) under faults', () => {
  const entry = (mode: Mode, matches: (p: string) => boolean, options: { stored?: boolean; enrolled?: boolean } = {}) =>
    renderOps({
      path: '/ops/find', stored: options.stored ? operatorSession('admin') : null,
      respond: (url, init) => {
        const path = url.replace(/^https?:\/\/[^/]+/, '');
        if (path.endsWith('/api/v1/ops/me') && !matches(path)) return ok({ ...opsMe('admin'), enrolled: options.enrolled ?? true });
        if (path.endsWith('/api/v1/ops/enrol') && !matches(path)) return ok({ secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP' });
        return failing(mode, (p) => matches(p))(url, init);
      },
    });

  it.each(MODES.filter((mode) => mode !== 404 && mode !== 401))('GET /me under %s: the message and Try again', async (mode) => {
    entry(mode, (p) => p.endsWith('/api/v1/ops/me'));
    expect(await screen.findByRole('alert')).toHaveTextContent(expected(mode));
    expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
  });

  it('GET /me under 404: the normal 404 page (a viewer is not told the back office exists)', async () => {
    entry(404, (p) => p.endsWith('/api/v1/ops/me'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
  });

  it('GET /me under 401: the viewer session is over, so the normal sign-in, then back', async () => {
    const run = entry(401, (p) => p.endsWith('/api/v1/ops/me'));
    await waitFor(() => expect(run.location.history.at(-1)).toBe('/login?from=%2Fops%2Ffind'));
  });

  it.each(MODES.filter((mode) => mode !== 401))('POST /enrol under %s: the message and Try again', async (mode) => {
    entry(mode, (p) => p.endsWith('/api/v1/ops/enrol'), { enrolled: false });
    expect(await screen.findByRole('alert')).toHaveTextContent(expected(mode));
    expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
  });

  for (const [name, call, enrolled] of [['POST /enrol/confirm', '/api/v1/ops/enrol/confirm', false], ['POST /session', '/api/v1/ops/session', true]] as const) {
    it.each(MODES.filter((mode) => mode !== 401))(`${name} under %s: the message at the code, the code kept`, async (mode) => {
      const run = entry(mode, (p) => p.endsWith(call), { enrolled });
      const field = await screen.findByRole('textbox', { name: /^Code/ });
      await run.user.type(field, '123456');
      await run.user.click(screen.getByRole('button', { name: 'Verify' }));
      await waitFor(() => expect(screen.getByRole('textbox', { name: /^Code/ })).toHaveAccessibleDescription(expected(mode)));
      expect(screen.getByRole('textbox', { name: /^Code/ })).toHaveValue('123456');
    });
  }

  it('POST /session/end under a network error: the token is forgotten anyway, a code is asked', async () => {
    const run = entry('network', (p) => p.endsWith('/session/end'), { stored: true });
    await run.user.click(await screen.findByRole('button', { name: 'Sign out of the back office' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Verify it is you' })).toBeVisible();
    expect(window.sessionStorage.getItem('opsSession')).toBeNull();
  });
});
