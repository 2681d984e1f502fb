/** Issue 36: the signed-in devices list, signing out one device or all others (PGlite). */
import { beforeEach, describe, expect, it } from 'vitest';
import { signedInDevicesSchema } from '../../../src/api/schemas';
import { readTrustedProxies } from '../../../server/platform/proxies';
import { randomBytes } from 'node:crypto';
import { describeUserAgent } from '../../../server/identity/devices';
import { createTokens } from '../../../server/identity/tokens';
import { startTestServer, type TestServer } from '../support/helpers';

const V1 = '/api/v1/mobile';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});

const signInAs = async (userAgent: string, email = 'free@example.com', headers: Record<string, string> = {}, client?: string) => {
  const result = await server.call('POST', `${V1}/auth/sign-in-email`, {
    body: { email, password: 'Bisaya-Demo-2026' }, headers: { 'User-Agent': userAgent, ...headers }, client,
  });
  expect(result.status).toBe(200);
  return result.json.data.accessToken as string;
};
const list = async (token: string) => {
  const result = await server.call('GET', `${V1}/account/sessions`, { token });
  expect(result.status).toBe(200);
  return signedInDevicesSchema.parse(result.json.data).sessions;
};
const profile = (token: string) => server.call('GET', `${V1}/account/profile`, { token });

describe('the devices list', () => {
  it('lists each live session with its browser, system and device, this one marked and first', async () => {
    const phone = await signInAs(IPHONE);
    const laptop = await signInAs(WINDOWS_CHROME);
    await signInAs(WINDOWS_CHROME, 'premium@example.com'); // another account's: never listed
    const sessions = await list(laptop);
    expect(sessions).toHaveLength(2);
    expect(sessions[0]).toMatchObject({ current: true, browser: 'Chrome 131', os: 'Windows 10', deviceType: 'desktop', place: null });
    expect(sessions[1]).toMatchObject({ current: false, browser: 'Mobile Safari 17', os: 'iOS 17.4', device: 'Apple iPhone', deviceType: 'mobile' });
    expect((await list(phone))[0]!.current).toBe(true);
    for (const s of sessions) expect(Date.parse(s.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(s.signedInAt));
  });

  it('shows a place only when a trusted proxy named the country', async () => {
    // Anyone may send CF-IPCountry: without TRUST_PROXY it is ignored.
    const token = await signInAs(IPHONE, 'free@example.com', { 'CF-IPCountry': 'PH' });
    expect((await list(token))[0]!.place).toBeNull();

    server = await startTestServer({ trustProxy: readTrustedProxies('10.0.0.1') });
    const proxied = await signInAs(IPHONE, 'free@example.com', { 'CF-IPCountry': 'ph', 'X-Forwarded-For': '203.0.113.9' }, '10.0.0.1');
    const direct = await signInAs(IPHONE, 'free@example.com', { 'CF-IPCountry': 'JP' }, '198.51.100.7');
    const unknown = await signInAs(IPHONE, 'free@example.com', { 'CF-IPCountry': 'XX' }, '10.0.0.1');
    const places = new Map((await list(proxied)).map((s) => [s.current ? 'proxied' : s.id, s.place]));
    expect(places.get('proxied')).toBe('PH');
    expect((await list(direct))[0]!.place).toBeNull();
    expect((await list(unknown))[0]!.place).toBeNull();
    const row = await server.db.query<{ client_address: string }>('SELECT client_address FROM sessions WHERE place = $1', ['PH']);
    expect(row.rows[0]!.client_address).toBe('203.0.113.9');
  });

  it('writes the last use at most once a minute, not on every read', async () => {
    const token = await signInAs(IPHONE);
    await server.db.query(`UPDATE sessions SET last_used_at = now() - interval '5 minutes'`);
    const before = (await list(token))[0]!.lastUsedAt; // this read was the first in a minute: written…
    expect(Date.now() - Date.parse(before)).toBeLessThan(5 * 60 * 1000 - 1000);
    await server.db.query(`UPDATE sessions SET last_used_at = now() - interval '5 minutes'`);
    for (let i = 0; i < 5; i++) expect((await profile(token)).status).toBe(200);
    const after = (await list(token))[0]!.lastUsedAt; // …the reads since within the minute were not
    expect(Date.now() - Date.parse(after)).toBeGreaterThan(4 * 60 * 1000);
  });

  it('reads a user agent it cannot place as nothing rather than a guess', () => {
    expect(describeUserAgent(null)).toEqual({ browser: null, os: null, device: null, deviceType: 'other' });
    expect(describeUserAgent('curl/8.5.0').deviceType).toBe('other');
  });
});

describe('signing a device out', () => {
  it('ends exactly that session: its next call is a 401, the others keep working', async () => {
    const phone = await signInAs(IPHONE);
    const tablet = await signInAs(IPHONE);
    const laptop = await signInAs(WINDOWS_CHROME);
    const phoneId = (await list(phone))[0]!.id;
    const out = await server.call('DELETE', `${V1}/account/sessions/${phoneId}`, { token: laptop });
    expect(out.status).toBe(200);
    expect(out.json.message).toBe('Signed out of that device');
    expect((await profile(phone)).status).toBe(401);
    expect((await profile(tablet)).status).toBe(200);
    expect((await profile(laptop)).status).toBe(200);
    expect((await list(laptop)).map((s) => s.id)).not.toContain(phoneId);
    // Its refresh tokens are revoked too, and nothing revives the session (fresh tokens are issued only for an open one).
    const live = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM refresh_tokens WHERE session_id = $1 AND revoked_at IS NULL', [phoneId]);
    expect(live.rows[0]!.n).toBe(0);
    const again = await server.call('DELETE', `${V1}/account/sessions/${phoneId}`, { token: laptop });
    expect(again.status).toBe(404);
  });

  it('cannot sign out another account’s device, nor answer whether it exists', async () => {
    const mine = await signInAs(IPHONE);
    const theirs = await signInAs(IPHONE, 'premium@example.com');
    const theirId = (await list(theirs))[0]!.id;
    for (const id of [theirId, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const refused = await server.call('DELETE', `${V1}/account/sessions/${id}`, { token: mine });
      expect(refused.status).toBe(404);
      expect(refused.json.message).toBe('This device is already signed out.');
    }
    expect((await profile(theirs)).status).toBe(200);
  });

  it('signs out every other device and keeps this one', async () => {
    const others = [await signInAs(IPHONE), await signInAs(WINDOWS_CHROME)];
    const here = await signInAs(WINDOWS_CHROME);
    const done = await server.call('POST', `${V1}/account/sessions/sign-out-others`, { token: here });
    expect(done.status).toBe(200);
    expect(done.json.data).toEqual({ signedOut: 2 });
    for (const token of others) expect((await profile(token)).status).toBe(401);
    expect((await profile(here)).status).toBe(200);
    expect(await list(here)).toHaveLength(1);
  });

  it('a password change cannot renew a session signed out meanwhile', async () => {
    const phone = await signInAs(IPHONE);
    const laptop = await signInAs(WINDOWS_CHROME);
    const phoneId = (await list(phone))[0]!.id;
    await server.call('DELETE', `${V1}/account/sessions/${phoneId}`, { token: laptop });
    const change = await server.call('PUT', `${V1}/account/password`, {
      token: phone, body: { oldPassword: 'Bisaya-Demo-2026', newPassword: 'Bagong-Password-1', confirmNewPassword: 'Bagong-Password-1' },
    });
    expect(change.status).toBe(401);
  });

  it('fresh tokens are never issued for an ended session (the refresh path cannot revive it)', async () => {
    const tokens = createTokens(server.db, randomBytes(32));
    const user = (await server.db.query<{ id: string }>(`SELECT id FROM users WHERE email = 'free@example.com'`)).rows[0]!.id;
    const first = await tokens.issue(user, undefined, { userAgent: IPHONE, clientAddress: '198.51.100.1', place: null });
    const session = (await tokens.verify(first.accessToken))!.sessionId;
    expect((await tokens.issue(user, session)).accessToken).toBeTruthy(); // open: renewed
    expect(await tokens.endSession(user, session)).toBe(true);
    await expect(tokens.issue(user, session)).rejects.toMatchObject({ status: 401 });
    expect(await tokens.verify(first.accessToken)).toBeNull();
    const open = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM refresh_tokens WHERE session_id = $1 AND revoked_at IS NULL', [session]);
    expect(open.rows[0]!.n).toBe(0);
  });

  it('needs a signed-in viewer', async () => {
    expect((await server.call('GET', `${V1}/account/sessions`)).status).toBe(401);
    expect((await server.call('POST', `${V1}/account/sessions/sign-out-others`)).status).toBe(401);
  });
});
