/**
 * Issue 36 on PostgreSQL: signing a device out, and changing the email address (with its undo), where
 * every request reads the sessions table (no session is remembered in memory) and the signed-in reads
 * check their session in their own statement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/support/helpers';

const V1 = '/api/v1/mobile';
const UA = { phone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1' };
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  expect(server.db.kind).toBe('postgres');
});
afterAll(() => server.db.close());

const signIn = async (email: string, headers: Record<string, string> = {}) =>
  (await server.call('POST', `${V1}/auth/sign-in-email`, { body: { email, password: 'Bisaya-Demo-2026' }, headers })).json.data.accessToken as string;
const reads = (token: string) =>
  Promise.all(['/account/profile', '/subscription/status', '/account/sessions'].map(async (path) => (await server.call('GET', `${V1}${path}`, { token })).status));
const sessionsOf = async (token: string) => (await server.call('GET', `${V1}/account/sessions`, { token })).json.data.sessions as Array<{ id: string; current: boolean }>;

describe('signing out another device', () => {
  it('ends exactly that session', async () => {
    const phone = await signIn('premium@example.com', { 'User-Agent': UA.phone });
    const tablet = await signIn('premium@example.com');
    const laptop = await signIn('premium@example.com');
    const other = await signIn('voucher@example.com');
    const phoneId = (await sessionsOf(phone)).find((s) => s.current)!.id;
    const before = await server.db.query<{ id: string }>('SELECT id FROM sessions WHERE revoked_at IS NULL ORDER BY id');

    expect((await server.call('DELETE', `${V1}/account/sessions/${phoneId}`, { token: laptop })).status).toBe(200);

    const after = await server.db.query<{ id: string }>('SELECT id FROM sessions WHERE revoked_at IS NULL ORDER BY id');
    expect(after.rows.map((r) => r.id)).toEqual(before.rows.map((r) => r.id).filter((id) => id !== phoneId));
    expect(await reads(phone)).toEqual([401, 401, 401]);
    for (const token of [tablet, laptop, other]) expect(await reads(token)).toEqual([200, 200, 200]);
  });

  it('signs out every other device of the account and no other account’s', async () => {
    const others = [await signIn('canceled@example.com'), await signIn('canceled@example.com')];
    const here = await signIn('canceled@example.com');
    const stranger = await signIn('free@example.com');
    const done = await server.call('POST', `${V1}/account/sessions/sign-out-others`, { token: here });
    expect(done.json.data).toEqual({ signedOut: 2 });
    for (const token of others) expect(await reads(token)).toEqual([401, 401, 401]);
    expect(await reads(here)).toEqual([200, 200, 200]);
    expect(await reads(stranger)).toEqual([200, 200, 200]);
  });
});

describe('changing the email address', () => {
  const start = (token: string, newEmail: string) =>
    server.call('POST', `${V1}/account/email/change`, { token, body: { password: 'Bisaya-Demo-2026', newEmail } });
  const verify = (token: string, verificationToken: string, otpCode: string) =>
    server.call('POST', `${V1}/account/email/change/verify`, { token, body: { verificationToken, otpCode } });
  const emailOf = async (token: string) => (await server.call('GET', `${V1}/account/profile`, { token })).json.data.email as string;

  it('cannot take an address in use', async () => {
    const token = await signIn('free@example.com');
    const started = await start(token, 'premium@example.com');
    expect(started.status).toBe(200);
    expect((await server.mail('premium@example.com')).some((m) => m.otp)).toBe(false);
    expect((await verify(token, started.json.data.verificationToken, 'ABCDEF')).status).toBe(400);
    expect(await emailOf(token)).toBe('free@example.com');
  });

  it('refuses a wrong code and an expired one', async () => {
    const token = await signIn('free@example.com');
    const started = await start(token, 'free.new@example.com');
    const code = (await server.mail('free.new@example.com')).find((m) => m.otp)!.otp!;
    const wrong = code === 'ABCDEF' ? 'ABCDEG' : 'ABCDEF';
    expect((await verify(token, started.json.data.verificationToken, wrong)).json.message).toBe('Invalid OTP code');
    await server.db.query(`UPDATE otp_challenges SET expires_at = now() - interval '1 second' WHERE email = 'free.new@example.com'`);
    expect((await verify(token, started.json.data.verificationToken, code)).json.message).toBe('This code has expired. Please request a new one.');
    expect(await emailOf(token)).toBe('free@example.com');
  });

  it('is undone once within 7 days, ending every session', async () => {
    const token = await signIn('voucher@example.com');
    const elsewhere = await signIn('voucher@example.com');
    const started = await start(token, 'voucher.new@example.com');
    const code = (await server.mail('voucher.new@example.com')).find((m) => m.otp)!.otp!;
    expect((await verify(token, started.json.data.verificationToken, code)).json.data).toEqual({ email: 'voucher.new@example.com' });
    const notice = (await server.mail('voucher@example.com')).find((m) => m.text.includes('/account/email/undo?token='))!;
    const undoToken = new URL(/https?:\/\/\S+/.exec(notice.text)![0]).searchParams.get('token')!;

    const undone = await server.call('POST', `${V1}/auth/email/undo`, { body: { token: undoToken } });
    expect(undone.status).toBe(200);
    expect(await reads(token)).toEqual([401, 401, 401]);
    expect(await reads(elsewhere)).toEqual([401, 401, 401]);
    const fresh = await signIn('voucher@example.com');
    expect(await emailOf(fresh)).toBe('voucher@example.com');
    expect((await server.call('POST', `${V1}/auth/email/undo`, { body: { token: undoToken } })).status).toBe(400);

    // A second change, its link older than 7 days: refused.
    const again = await start(fresh, 'voucher.later@example.com');
    const later = (await server.mail('voucher.later@example.com')).find((m) => m.otp)!.otp!;
    await verify(fresh, again.json.data.verificationToken, later);
    const second = (await server.mail('voucher@example.com')).find((m) => m.text.includes('voucher.later@example.com'))!;
    const lateToken = new URL(/https?:\/\/\S+/.exec(second.text)![0]).searchParams.get('token')!;
    await server.db.query(`UPDATE email_change_undos SET created_at = created_at - interval '8 days', expires_at = expires_at - interval '8 days' WHERE consumed_at IS NULL`);
    expect((await server.call('POST', `${V1}/auth/email/undo`, { body: { token: lateToken } })).status).toBe(400);
    expect(await emailOf(fresh)).toBe('voucher.later@example.com');
  });
});
