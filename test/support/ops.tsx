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
  const run = renderView(<OpsPage />, { path: options.path ?? '/ops/find', session, overrides: options.overrides });
  return { ...run, calls, user: userEvent.setup() };
}
