/** The viewer's timeline: what the console offers for a payment, as the server says it may be given back. */
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleFetch, operatorSession, renderOps, timelineFixture, VIEWER_ID } from '../support/ops';

afterEach(() => vi.unstubAllGlobals());

const WINDOW = "Maya refunds a payment only within 180 days. Refund it by hand from Maya's manager.";
const open = (fixture: ReturnType<typeof timelineFixture>, role: 'support' | 'finance' = 'finance') =>
  renderOps({ path: `/ops/viewers/${VIEWER_ID}`, stored: operatorSession(role), respond: consoleFetch(fixture, undefined, role) });
const payment = () => screen.getByRole('article', { name: /SB-REF-0001/ });

describe('a payment on the timeline', () => {
  it('beyond 180 days: the console says so and offers nothing', async () => {
    open(timelineFixture({ reversible: { kind: 'none', maxAmount: '0.00', why: WINDOW } }));
    await screen.findByRole('heading', { level: 1, name: 'Nena Cruz' });
    expect(within(payment()).getByText(WINDOW)).toBeInTheDocument();
    expect(within(payment()).queryByRole('button', { name: /Refund|Void/ })).not.toBeInTheDocument();
  });

  it('the same Manila day: Void, in full only', async () => {
    const run = open(timelineFixture({ reversible: { kind: 'void', maxAmount: '99.00', why: null } }));
    await screen.findByRole('heading', { level: 1, name: 'Nena Cruz' });
    expect(within(payment()).queryByRole('button', { name: 'Refund' })).not.toBeInTheDocument();
    await run.user.click(within(payment()).getByRole('button', { name: 'Void' }));
    const panel = screen.getByRole('region', { name: 'Void' });
    expect(within(panel).getByText('Made today (Manila): Maya voids it in full, and the viewer is never charged.')).toBeInTheDocument();
    expect(within(panel).getByRole('textbox', { name: 'Amount in pesos' })).toHaveAttribute('readonly');
    await run.user.type(within(panel).getByRole('textbox', { name: 'Reason (written to the audit log)' }), 'Bought by mistake');
    await run.user.click(within(panel).getByRole('button', { name: 'Continue' }));
    expect(within(panel).getByText('Void ₱99.00 for nena@example.com?')).toBeInTheDocument();
  });

  it('a partial refund states the amount; more than what is left is refused before sending', async () => {
    const run = open(timelineFixture({ reversible: { kind: 'refund', maxAmount: '60.00', why: null } }));
    await screen.findByRole('heading', { level: 1, name: 'Nena Cruz' });
    await run.user.click(within(payment()).getByRole('button', { name: 'Refund' }));
    const panel = screen.getByRole('region', { name: 'Refund' });
    const amount = within(panel).getByRole('textbox', { name: 'Amount in pesos' });
    expect(amount).toHaveValue('60.00');
    await run.user.clear(amount);
    await run.user.type(amount, '75');
    await run.user.type(within(panel).getByRole('textbox', { name: 'Reason (written to the audit log)' }), 'Half a month unused');
    await run.user.click(within(panel).getByRole('button', { name: 'Continue' }));
    expect(within(panel).getByText('At most ₱60.00 is left to give back')).toBeInTheDocument();
    await run.user.clear(amount);
    await run.user.type(amount, '30.5');
    await run.user.click(within(panel).getByRole('button', { name: 'Continue' }));
    expect(within(panel).getByText('Refund ₱30.50 to nena@example.com?')).toBeInTheDocument();
  });

  it('a support operator sees no refund (finance only) and extends by at most 7 days', async () => {
    const run = open(timelineFixture(), 'support');
    await screen.findByRole('heading', { level: 1, name: 'Nena Cruz' });
    expect(within(payment()).queryByRole('button', { name: 'Refund' })).not.toBeInTheDocument();
    await run.user.click(screen.getByRole('button', { name: 'Extend period' }));
    const panel = screen.getByRole('region', { name: 'Extend period' });
    await run.user.type(within(panel).getByRole('textbox', { name: 'Days to add (1 to 7)' }), '8');
    await run.user.type(within(panel).getByRole('textbox', { name: 'Reason (written to the audit log)' }), 'Outage on Sunday');
    await run.user.click(within(panel).getByRole('button', { name: 'Continue' }));
    expect(within(panel).getByText('Enter 1 to 7 days')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Back office' })).not.toHaveTextContent('Vouchers');
  });
});

describe('a subscription on the timeline', () => {
  it('offers retries only while PAST_DUE: a healthy one has Extend and Cancel, no retry line (newcomer walk)', async () => {
    const healthy = timelineFixture();
    healthy.subscriptions[0] = { ...healthy.subscriptions[0]!, status: 'ACTIVE', retryCount: 0, nextRetryAt: null };
    open(healthy);
    await screen.findByRole('heading', { level: 1, name: 'Nena Cruz' });
    const sub = screen.getByRole('article', { name: 'Monthly ACTIVE' });
    expect(within(sub).queryByRole('button', { name: 'Retry renewal now' })).not.toBeInTheDocument();
    expect(within(sub).queryByRole('button', { name: 'Stop retries' })).not.toBeInTheDocument();
    expect(within(sub).queryByText(/Retries:/)).not.toBeInTheDocument();
    expect(within(sub).getByRole('button', { name: 'Extend period' })).toBeInTheDocument();
    expect(within(sub).getByRole('button', { name: 'Cancel subscription' })).toBeInTheDocument();
  });

  it('a PAST_DUE one offers Retry renewal now and Stop retries, with its retries', async () => {
    open(timelineFixture());
    await screen.findByRole('heading', { level: 1, name: 'Nena Cruz' });
    const sub = screen.getByRole('article', { name: 'Monthly PAST_DUE' });
    expect(within(sub).getByRole('button', { name: 'Retry renewal now' })).toBeInTheDocument();
    expect(within(sub).getByRole('button', { name: 'Stop retries' })).toBeInTheDocument();
    expect(within(sub).getByText(/Retries: 1/)).toBeInTheDocument();
  });
});

describe('focus around an action panel', () => {
  it('returns to the button that opened the panel when it is closed (newcomer walk)', async () => {
    const run = open(timelineFixture());
    await screen.findByRole('heading', { level: 1, name: 'Nena Cruz' });
    const sub = screen.getByRole('article', { name: 'Monthly PAST_DUE' });
    const extend = within(sub).getByRole('button', { name: 'Extend period' });
    await run.user.click(extend);
    await run.user.click(within(screen.getByRole('region', { name: 'Extend period' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('region', { name: 'Extend period' })).not.toBeInTheDocument();
    expect(extend).toHaveFocus();
  });
});
