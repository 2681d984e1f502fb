/** Issue 11 item 1: dev routes (login links, the mailbox) are never reachable from another machine by default. */
import { describe, expect, it } from 'vitest';
import { readSettings } from '../../../server/settings';
import { startTestServer } from '../support/helpers';

const STRANGER = '203.0.113.7';
const loginLink = { email: 'premium@example.com', redirectUrl: '/account' };

describe('dev routes by default (loopback only)', () => {
  it('hides /dev/* from another machine, as if it did not exist', async () => {
    const server = await startTestServer();
    const minted = await server.call('POST', '/dev/login-link', { body: loginLink, client: STRANGER });
    expect(minted.status).toBe(404);
    expect(minted.json).toEqual({ success: false, message: 'No route for POST /dev/login-link', data: null });
    expect((await server.app.request('/dev/mailbox.json', undefined, STRANGER)).status).toBe(404);
    expect((await server.app.request('/dev/mailbox', undefined, STRANGER)).status).toBe(404);
  });

  it('serves them to this machine over IPv4, IPv6 and IPv4-mapped IPv6', async () => {
    const server = await startTestServer();
    for (const client of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1']) {
      const minted = await server.call('POST', '/dev/login-link', { body: loginLink, client });
      expect(minted.status, client).toBe(200);
    }
    expect((await server.app.request('/dev/mailbox.json')).status).toBe(200);
  });

  it('refuses a loopback connection that carries another site name (DNS rebinding) or a proxy hop', async () => {
    const server = await startTestServer();
    const rebound = await server.call('POST', 'http://evil.example:8080/dev/login-link', { body: loginLink });
    expect(rebound.status).toBe(404);
    const proxied = await server.call('POST', '/dev/login-link', { body: loginLink, headers: { 'X-Forwarded-For': STRANGER } });
    expect(proxied.status).toBe(404);
    const forwarded = await server.call('POST', '/dev/login-link', { body: loginLink, headers: { Forwarded: `for=${STRANGER}` } });
    expect(forwarded.status).toBe(404);
    expect((await server.call('POST', 'http://127.0.0.1:8080/dev/login-link', { body: loginLink })).status).toBe(200);
    expect((await server.call('POST', 'http://[::1]:8080/dev/login-link', { body: loginLink })).status).toBe(200);
  });

  it('are off for everyone with DEV_ROUTES=false', async () => {
    const server = await startTestServer({ devRoutes: 'off' });
    expect((await server.call('POST', '/dev/login-link', { body: loginLink })).status).toBe(404);
    expect((await server.app.request('/dev/mailbox.json')).status).toBe(404);
  });
});

describe('dev routes on a shared QA host (DEV_ROUTES=public)', () => {
  it('serves other machines, but the mailbox lists one address at a time', async () => {
    const server = await startTestServer({ devRoutes: 'public' });
    expect((await server.call('POST', '/dev/login-link', { body: loginLink, client: STRANGER })).status).toBe(200);
    const everyone = await server.call('GET', '/dev/mailbox.json', { client: STRANGER });
    expect(everyone.status).toBe(400);
    expect(everyone.json.message).toBe('Add ?to=EMAIL to read one address’s mail');
    const one = await server.app.request('/dev/mailbox.json?to=free%40example.com', undefined, STRANGER);
    expect(one.status).toBe(200);
    // This machine still sees the whole mailbox.
    expect((await server.app.request('/dev/mailbox.json')).status).toBe(200);
  });
});

describe('the DEV_ROUTES setting', () => {
  it('is loopback-only when unset, public or off when asked, and refuses anything else', () => {
    expect(readSettings({}).devRoutes).toBe('local');
    expect(readSettings({ DEV_ROUTES: 'local' }).devRoutes).toBe('local');
    expect(readSettings({ DEV_ROUTES: 'public' }).devRoutes).toBe('public');
    expect(readSettings({ DEV_ROUTES: 'false' }).devRoutes).toBe('off');
    expect(readSettings({ DEV_ROUTES: 'off' }).devRoutes).toBe('off');
    expect(() => readSettings({ DEV_ROUTES: 'yes please' })).toThrow(/DEV_ROUTES/);
  });
});
