/**
 * Operators in Cebu read Bisaya (issue 35): the door, the console's bar, the timeline and an action's
 * confirmation in Bisaya, from the catalog, with no English text of the console left.
 */
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { overwriteGetLocale } from '../../src/i18n';
import { consoleFetch, json, operatorSession, opsMe, renderOps, timelineFixture, VIEWER_ID } from '../support/ops';

beforeEach(() => overwriteGetLocale(() => 'ceb'));
afterEach(() => {
  overwriteGetLocale(() => 'en');
  vi.unstubAllGlobals();
});

describe('the back office in Bisaya', () => {
  it('asks an enrolled operator for a code in Bisaya', async () => {
    renderOps({ respond: (url) => (url.endsWith('/api/v1/ops/me') ? json(200, { success: true, message: 'OK', data: opsMe('support') }) : json(500, { success: false, message: 'x', data: null })) });
    expect(await screen.findByRole('heading', { level: 1, name: 'I-verify nga ikaw gyud' })).toBeInTheDocument();
    expect(screen.getByText('I-type ang code gikan sa imong authenticator app aron maabli ang back office.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'I-verify' })).toBeInTheDocument();
  });

  it('shows the timeline and a refund confirmation in Bisaya', async () => {
    const run = renderOps({ path: `/ops/viewers/${VIEWER_ID}`, stored: operatorSession('finance'), respond: consoleFetch(timelineFixture()) });
    await screen.findByRole('heading', { level: 1, name: 'Nena Cruz' });
    const nav = screen.getByRole('navigation', { name: 'Back office' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Pangita', 'Mga Queue', 'Mga Voucher', 'Mga Export', 'Audit log']);
    for (const heading of ['Mga Subscription', 'Mga Bayad', 'Mga Mail', 'Mga Webhook', 'Mga Session', 'Mga audit entry']) {
      expect(screen.getByRole('heading', { level: 2, name: heading })).toBeInTheDocument();
    }
    await run.user.click(screen.getByRole('button', { name: 'I-refund' }));
    const panel = screen.getByRole('region', { name: 'I-refund' });
    await run.user.type(within(panel).getByRole('textbox', { name: 'Rason (isulat sa audit log)' }), 'Doble ang singil');
    await run.user.click(within(panel).getByRole('button', { name: 'Padayon' }));
    expect(within(panel).getByText('I-refund ang ₱99.00 kang nena@example.com?')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Kumpirmaha' })).toBeEnabled();
    // No English words of the console are left on the page.
    for (const english of ['Subscriptions', 'Payments', 'Refund', 'Continue', 'Reason (written to the audit log)', 'Ask Maya', 'Sign out of the back office']) {
      expect(screen.queryByText(english)).not.toBeInTheDocument();
    }
  });
});
