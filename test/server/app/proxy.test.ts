/**
 * Issue 33, behind a proxy (TRUST_PROXY): X-Forwarded-For is read only from the proxies named, so
 * Maya's webhook through a trusted proxy is accepted, the same header from anyone else is refused,
 * and the rate limits count the client behind the proxy. Also /healthz and /readyz, and a JWT secret
 * rotation (JWT_SECRET_PREVIOUS).
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { signWebhook } from '../../../server/gateway/webhook';
import { WEBHOOK_PATH } from '../../../server/gateway/config';
import { readTrustedProxies } from '../../../server/settings';
import { createTokens } from '../../../server/identity/tokens';
import { SIGN_IN_THROTTLE } from '../../../server/identity/throttle';
import { startTestServer, type TestServer } from '../support/helpers';

const PROXY = '10.0.0.5';
const MAYA = '13.229.160.234';
const VIEWER = '203.0.113.9';
const OTHER_VIEWER = '198.51.100.20';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.db.close();
  server = undefined;
});

async function deliver(s: TestServer, socket: string, forwardedFor?: string) {
  const body = JSON.stringify({ id: 'pay-1', requestReferenceNumber: 'SB-NOT-OURS-1', status: 'PAYMENT_SUCCESS' });
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...signWebhook(s.signingKey, body) };
  if (forwardedFor !== undefined) headers['X-Forwarded-For'] = forwardedFor;
  const response = await s.app.request(WEBHOOK_PATH, { method: 'POST', headers, body }, socket);
  return response.status;
}

describe("Maya's webhook allow-list behind a proxy", () => {
  it('accepts a signed webhook from Maya through a trusted proxy, and refuses the same header from anyone else', async () => {
    server = await startTestServer({ trustProxy: readTrustedProxies(`${PROXY}, loopback`), webhookIps: [MAYA] });
    expect(await deliver(server, PROXY, MAYA)).toBe(200);
    // Two proxies, both trusted: the address before them is Maya's.
    expect(await deliver(server, PROXY, `${MAYA}, 127.0.0.1`)).toBe(200);
    // The header from a client that is not a trusted proxy is not read.
    expect(await deliver(server, VIEWER, MAYA)).toBe(401);
    // A client that wrote Maya's address itself: the proxy appended the client's real one.
    expect(await deliver(server, PROXY, `${MAYA}, ${VIEWER}`)).toBe(401);
    // The proxy itself is not Maya; a malformed hop stops at the proxy.
    expect(await deliver(server, PROXY)).toBe(401);
    expect(await deliver(server, PROXY, 'maya.example')).toBe(401);
  });

  it('without TRUST_PROXY the header is never read: only the connection counts', async () => {
    server = await startTestServer({ webhookIps: [MAYA] });
    expect(await deliver(server, PROXY, MAYA)).toBe(401);
    expect(await deliver(server, MAYA)).toBe(200);
  });
});

describe('rate limits behind a proxy', () => {
  const failSignIns = async (s: TestServer, forwardedFor: string | undefined, times: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < times; i++) {
      const { status } = await s.call('POST', '/api/v1/mobile/auth/sign-in-email', {
        body: { email: 'premium@example.com', password: 'Not-The-Password-1' }, client: PROXY, headers: forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {},
      });
      statuses.push(status);
    }
    return statuses;
  };
  const free = SIGN_IN_THROTTLE.pair.free;

  it('count the client behind a trusted proxy: one client slowed, another through the same proxy not', async () => {
    server = await startTestServer({ trustProxy: readTrustedProxies(PROXY) });
    expect(await failSignIns(server, VIEWER, free + 1)).toEqual([...Array(free).fill(401), 429]);
    expect(await failSignIns(server, OTHER_VIEWER, 1)).toEqual([401]);
    // A forged header from an untrusted client counts that client, not the address it wrote.
    const forged = await server.call('POST', '/api/v1/mobile/auth/sign-in-email', {
      body: { email: 'premium@example.com', password: 'Not-The-Password-1' }, client: VIEWER, headers: { 'X-Forwarded-For': OTHER_VIEWER },
    });
    expect(forged.status).toBe(429);
  });

  it('without TRUST_PROXY everyone behind the proxy is one client (the behaviour TRUST_PROXY fixes)', async () => {
    server = await startTestServer();
    expect(await failSignIns(server, VIEWER, free + 1)).toEqual([...Array(free).fill(401), 429]);
    expect(await failSignIns(server, OTHER_VIEWER, 1)).toEqual([429]);
  });
});

describe('/healthz and /readyz', () => {
  it('answer for a load balancer: alive, and ready while the database, the migrations and the extra checks are', async () => {
    let jobs = 'ok';
    server = await startTestServer({ readiness: () => ({ jobs }) });
    const health = await server.app.request('/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await server.app.request('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', jobs: 'ok' } });
    // A migration this code knows is missing, and the queue stopped: not ready, each said. (The answer
    // is kept a second: asked every second by many balancers, the database is asked once.)
    await server.db.query(`DELETE FROM schema_migrations WHERE name = (SELECT max(name) FROM schema_migrations)`);
    jobs = 'no sweep of the job queue for 45 s';
    expect((await server.app.request('/readyz')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1050));
    const notReady = await server.app.request('/readyz');
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({
      status: 'not ready', checks: { database: 'ok', migrations: '1 of ' + (await server.db.query<{ n: number }>('SELECT count(*)::int + 1 AS n FROM schema_migrations')).rows[0]!.n + ' not applied (npm run migrate)', jobs: 'no sweep of the job queue for 45 s' },
    });
  });
});

describe('JWT secret rotation', () => {
  it('tokens signed with a previous secret (JWT_SECRET_PREVIOUS) keep working; new ones are signed with the new secret', async () => {
    server = await startTestServer();
    const [oldSecret, newSecret] = [randomBytes(32), randomBytes(32)];
    const user = (await server.db.query<{ id: string }>(`SELECT id FROM users WHERE email = 'premium@example.com'`)).rows[0]!.id;
    const before = createTokens(server.db, oldSecret);
    const issued = await before.issue(user);
    const rotated = createTokens(server.db, newSecret, [oldSecret]);
    expect(await rotated.verify(issued.accessToken)).toMatchObject({ userId: user });
    const fresh = await rotated.issue(user);
    expect(await before.verify(fresh.accessToken)).toBeNull();
    // Once the previous secret is dropped, its tokens stop (the app then refreshes with its refresh token).
    expect(await createTokens(server.db, newSecret).verify(issued.accessToken)).toBeNull();
  });
});
