/** Renders the back office (the /ops page) with a signed-in (or not) viewer, a stored ops session, and a stubbed fetch. */
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import type { OpsSession } from '../../src/api/ops/schemas';
import type { FlowOverrides } from '../../src/views/services';
import OpsPage from '../../src/views/pages/OpsPage';
import { OPS_SESSION_KEY } from '../../src/views/ops/opsSessionStore';
import { demoUser, renderView, startSession } from './render';

export const operatorSession = (role: 'support' | 'finance' | 'admin' = 'finance'): OpsSession => ({
  opsToken: 'ops-token',
  expiresAt: '2099-01-01T00:00:00.000Z',
  operator: { email: `${role}@example.com`, name: 'Nena Operator', role },
});

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

export const ok = (data: unknown) => json(200, { success: true, message: 'OK', data });

export type OpsFetch = (url: string, init: RequestInit | undefined) => Response | Promise<Response>;

/**
 * Renders /ops at `path`. The console's API uses the global fetch: `respond` answers every call
 * (default: a 500 for anything not expected). The returned `calls` lists every URL asked with its method and body.
 */
export function renderOps(options: {
  path?: string;
  signedIn?: boolean;
  stored?: OpsSession | null;
  overrides?: FlowOverrides;
  respond?: OpsFetch;
}) {
  window.sessionStorage.clear();
  if (options.stored) window.sessionStorage.setItem(OPS_SESSION_KEY, JSON.stringify(options.stored));
  const calls: Array<{ url: string; method: string; body: unknown; auth: string | null }> = [];
  const respond = options.respond ?? (() => json(500, { success: false, message: 'Not in this test', data: null }));
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const headers = new Headers(init?.headers);
    calls.push({ url, method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) as unknown : undefined, auth: headers.get('Authorization') });
    return respond(url, init);
  });
  const session = startSession(options.signedIn === false ? null : demoUser);
  // The viewer's own calls (the plans the mint form offers) go through the same stubbed fetch.
  const run = renderView(<OpsPage />, { path: options.path ?? '/ops/find', session, overrides: options.overrides, fetch: (...args) => fetch(...args) });
  return { ...run, calls, user: userEvent.setup() };
}

export const VIEWER_ID = '00000000-0000-4000-8000-0000000000aa';

/** A viewer's timeline: one active subscription, one refundable payment with its charge, a mail. */
export function timelineFixture(overrides: { reversible?: { kind: 'void' | 'refund' | 'none'; maxAmount: string; why: string | null } } = {}) {
  return {
    viewer: { id: VIEWER_ID, email: 'nena@example.com', name: 'Nena Cruz', language: 'ceb', createdAt: '2026-01-05T02:00:00.000Z', tin: null },
    subscriptions: [{
      id: 'sub-1', planName: 'Monthly', status: 'PAST_DUE', paymentMethod: 'MAYA_VAULT', startDate: '2026-11-01T00:00:00.000Z', endDate: '2026-12-01T00:00:00.000Z',
      canceledAt: null, cancelReason: null, dunningStopped: false, retryCount: 1, nextRetryAt: '2026-12-02T00:00:00.000Z' as string | null,
    }],
    payments: [{
      id: 'rec-1', referenceNumber: 'SB-REF-0001', amount: '99.00', currency: 'PHP', status: 'PAID', method: 'CARD', createdAt: '2026-11-01T01:00:00.000Z',
      invoice: { id: 'inv-1', number: 'SI-000001' },
      reversible: overrides.reversible ?? { kind: 'refund', maxAmount: '99.00', why: null },
      attempts: [{ id: 'att-1', kind: 'CARD', mayaId: 'maya-pay-1', amount: '99.00', outcome: 'SUCCEEDED', reason: null, madeAt: '2026-11-01T01:00:00.000Z', resolvedAt: '2026-11-01T01:00:05.000Z', reverses: null }],
    }],
    mails: [{ id: 'mail-1', subject: 'Your receipt', sentAt: '2026-11-01T01:01:00.000Z' }],
    webhooks: [{ id: 'wh-1', receivedAt: '2026-11-01T01:00:06.000Z', verified: true, status: 'PAYMENT_SUCCESS', paymentId: 'maya-pay-1', why: null }],
    sessions: [{ id: 'sess-1234567890', createdAt: '2026-11-01T00:59:00.000Z', revokedAt: null }],
    audit: [],
  };
}

export const opsMe = (role: 'support' | 'finance' | 'admin' = 'finance') => ({ email: `${role}@example.com`, name: 'Nena Operator', role, enrolled: true });

/** Answers /me and the viewer's timeline; anything else goes to `other`. */
export function consoleFetch(timeline: unknown, other?: OpsFetch, role: 'support' | 'finance' | 'admin' = 'finance'): OpsFetch {
  return (url, init) => {
    if (url.endsWith('/api/v1/ops/me')) return ok(opsMe(role));
    if (url.includes('/api/v1/ops/viewers/')) return ok(timeline);
    if (other) return other(url, init);
    return json(500, { success: false, message: 'Not in this test', data: null });
  };
}
