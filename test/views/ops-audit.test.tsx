/** The audit page: newest first, filtered by the search form, 50 a page with Show more (the cursor). */
import { screen, within } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { ok, operatorSession, opsMe, renderOps } from '../support/ops';

afterEach(() => vi.unstubAllGlobals());

const entry = (id: number) => ({
  id: String(id), at: '2026-11-20T02:00:00.000Z', actorUserId: 'op-1', actorEmail: 'finance@example.com', actorRole: 'finance',
  action: 'payment.reverse', targetUserId: 'u-1', targetEmail: 'nena@example.com', targetType: 'payment_record', targetId: `rec-${id}`,
  reason: `Reason ${id}`, before: { refunded: '0.00' }, after: { refunded: '99.00' }, requestId: null,
});

it('lists entries, filters by the form and pages on with the cursor', async () => {
  const run = renderOps({
    path: '/ops/audit', stored: operatorSession('finance'),
    respond: (url) => {
      if (url.endsWith('/api/v1/ops/me')) return ok(opsMe('finance'));
      const query = new URL(url, 'http://x').searchParams;
      if (query.get('cursor') === 'c-2') return ok({ entries: [entry(1)], nextCursor: null });
      if (query.get('action') === 'payment.reverse' && query.get('q') === 'nena') return ok({ entries: [entry(3), entry(2)], nextCursor: 'c-2' });
      return ok({ entries: [entry(9)], nextCursor: null });
    },
  });
  const table = async (name: RegExp) => screen.findByRole('table', { name });
  expect(within(await table(/^1 audit entry$/)).getByText('Reason 9')).toBeInTheDocument();
  await run.user.type(screen.getByRole('searchbox', { name: 'Text (email, reason, id)' }), 'nena');
  await run.user.selectOptions(screen.getByRole('combobox', { name: 'Action' }), 'payment.reverse');
  await run.user.click(screen.getByRole('button', { name: 'Search' }));
  const filtered = await table(/^2 audit entries, newest first$/);
  expect(within(filtered).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell')[4]!.textContent)).toEqual(['Reason 3', 'Reason 2']);
  await run.user.click(screen.getByRole('button', { name: 'Show more' }));
  expect(within(await table(/^3 audit entries, newest first$/)).getByText('Reason 1')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  const asked = run.calls.filter((call) => call.url.includes('/api/v1/ops/audit')).map((call) => call.url.replace(/^.*\/audit/, ''));
  expect(asked).toEqual(['', '?q=nena&action=payment.reverse', '?q=nena&action=payment.reverse&cursor=c-2']);
  expect(run.calls.filter((call) => call.url.includes('/audit')).every((call) => call.auth === 'Bearer ops-token')).toBe(true);
});
