/** Issue 11 item 2: a password change or reset ends every other session and voids links and codes. */
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { authResultSchema } from '../../../src/api/schemas';
import { startTestServer, type TestServer } from '../support/helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});

const V1 = '/api/v1/mobile';
const profile = (token: string) => server.call('GET', `${V1}/account/profile`, { token });
const mintLink = async (email: string) => {
  const minted = await server.call('POST', '/dev/login-link', { body: { email } });
  return new URL(minted.json.data.url).searchParams.get('token')!;
};
const useLink = (token: string) => server.call('POST', `${V1}/auth/verify-auth-link`, { body: { token } });

describe('a password change', () => {
  it('ends the other sessions, voids outstanding links and codes, and keeps this session with fresh tokens', async () => {
    const here = (await server.signIn('free@example.com')).json.data.accessToken as string;
    const elsewhere = (await server.signIn('free@example.com')).json.data.accessToken as string;
    const link = await mintLink('free@example.com');
    const recovery = await server.call('POST', `${V1}/auth/forgot/send-otp`, { body: { email: 'free@example.com' } });
    const code = (await server.mail('free@example.com')).find((m) => m.otp)!.otp!;
    expect((await profile(elsewhere)).status).toBe(200);

    const changed = await server.call('PUT', `${V1}/account/password`, {
      token: here, body: { oldPassword: 'Bisaya-Demo-2026', newPassword: 'Bagong-Password-1', confirmNewPassword: 'Bagong-Password-1' },
    });
    expect(changed.status).toBe(200);
    expect(changed.json.message).toBe('Password updated successfully');
    const fresh = z.pick(authResultSchema, { accessToken: true, refreshToken: true }).parse(changed.json.data);

    expect((await profile(elsewhere)).status).toBe(401);
    expect((await profile(fresh.accessToken)).status).toBe(200);
    expect((await profile(here)).status).toBe(200); // the session that changed it stays signed in
    expect((await useLink(link)).status).toBe(400);
    const late = await server.call('POST', `${V1}/auth/forgot/verify-otp`, { body: { verifyToken: recovery.json.data.verifyToken, otpCode: code } });
    expect(late.status).toBe(400);
    const live = await server.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM refresh_tokens r JOIN users u ON u.id = r.user_id WHERE u.email = 'free@example.com' AND r.revoked_at IS NULL`,
    );
    expect(live.rows[0]!.count).toBe(1); // only the fresh one
  });
});

/** The signed-in reads (issue 21: on PostgreSQL each checks its session in its own statement). */
const READS = ['/account/profile', '/subscription/status', '/subscription/history', '/payment/history'];
const readAll = (token: string) => Promise.all(READS.map((path) => server.call('GET', `${V1}${path}`, { token })));

describe('a session ended elsewhere', () => {
  it('reads none of the viewer’s data, with or without rows to read; the open session reads them all', async () => {
    for (const email of ['premium@example.com', 'voucher@example.com']) {
      const here = (await server.signIn(email)).json.data.accessToken as string;
      const elsewhere = (await server.signIn(email)).json.data.accessToken as string;
      const before = await readAll(here);
      expect(before.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect((await readAll(elsewhere)).map((r) => r.json)).toEqual(before.map((r) => r.json));

      const changed = await server.call('PUT', `${V1}/account/password`, {
        token: here, body: { oldPassword: 'Bisaya-Demo-2026', newPassword: 'Bagong-Password-3', confirmNewPassword: 'Bagong-Password-3' },
      });
      expect(changed.status).toBe(200);
      for (const ended of await readAll(elsewhere)) {
        expect(ended.status).toBe(401);
        expect(ended.json).toEqual({ success: false, message: 'Your session has expired. Please log in again.', data: null });
      }
      expect((await readAll(here)).map((r) => r.json)).toEqual(before.map((r) => r.json));
    }
  });

  it('so does a viewer with no subscription and no payment: FREE and empty histories while open, 401 once ended', async () => {
    // An account of its own, with free@'s password (changed by the first test of this file).
    await server.db.query(
      `INSERT INTO users (email, password_hash, first_name, last_name, birthdate)
       SELECT 'nobody@example.com', password_hash, 'No', 'Body', birthdate FROM users WHERE email = 'free@example.com'`,
    );
    const here = (await server.signIn('nobody@example.com', 'Bagong-Password-1')).json.data.accessToken as string;
    const elsewhere = (await server.signIn('nobody@example.com', 'Bagong-Password-1')).json.data.accessToken as string;
    const [, status, history, payments] = await readAll(elsewhere);
    expect(status!.json.data).toMatchObject({ planType: 'FREE', subscriptionId: null });
    expect(history!.json.data).toEqual([]);
    expect(payments!.json.data).toEqual([]);

    const changed = await server.call('PUT', `${V1}/account/password`, {
      token: here, body: { oldPassword: 'Bagong-Password-1', newPassword: 'Bagong-Password-4', confirmNewPassword: 'Bagong-Password-4' },
    });
    expect(changed.status).toBe(200);
    expect((await readAll(elsewhere)).map((r) => r.status)).toEqual([401, 401, 401, 401]);
    expect((await readAll(here)).map((r) => r.json.data)).toEqual([expect.objectContaining({ email: 'nobody@example.com' }), status!.json.data, [], []]);
  });
});

describe('a password reset', () => {
  it('ends every session and voids links minted before it', async () => {
    const before = (await server.signIn('canceled@example.com')).json.data.accessToken as string;
    const link = await mintLink('canceled@example.com');
    const sent = await server.call('POST', `${V1}/auth/forgot/send-otp`, { body: { email: 'canceled@example.com' } });
    const code = (await server.mail('canceled@example.com')).find((m) => m.otp)!.otp!;
    const verified = await server.call('POST', `${V1}/auth/forgot/verify-otp`, { body: { verifyToken: sent.json.data.verifyToken, otpCode: code } });
    const resetToken = verified.json.data.resetToken as string;
    await server.ageSends('canceled@example.com');
    const second = await server.call('POST', `${V1}/auth/forgot/send-otp`, { body: { email: 'canceled@example.com' } });
    const secondCode = (await server.mail('canceled@example.com')).find((m) => m.otp)!.otp!;

    const reset = await server.call('POST', `${V1}/auth/forgot/reset-password`, {
      body: { resetToken, password: 'Bagong-Password-2', confirmPassword: 'Bagong-Password-2' },
    });
    expect(reset.status).toBe(200);
    expect((await profile(before)).status).toBe(401);
    expect((await useLink(link)).status).toBe(400);
    const stale = await server.call('POST', `${V1}/auth/forgot/verify-otp`, { body: { verifyToken: second.json.data.verifyToken, otpCode: secondCode } });
    expect(stale.status).toBe(400);
    expect((await server.signIn('canceled@example.com', 'Bagong-Password-2')).status).toBe(200);
  });
});
