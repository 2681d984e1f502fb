/**
 * Two API processes on one PostgreSQL (issue 10): what must hold across processes is in the database.
 * Runs only in the `postgres` project (`npm run test:postgres`, which starts a throwaway server and
 * sets DATABASE_URL); CI runs it.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTP_MAX_ATTEMPTS } from '../../server/identity/codes';
import { createDatabase, startServer, stopAll } from './support/processes';

const V1 = '/api/v1/mobile/auth';
let database: Awaited<ReturnType<typeof createDatabase>>;
const dataDir = mkdtempSync(join(tmpdir(), 'two-processes-'));
const processes: ChildProcess[] = [];
let a: string;
let b: string;

/** A server process on a free port, resolved with its address once it says so. */
async function startProcess(databaseUrl: string): Promise<string> {
  const { base } = await startServer(processes, { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) });
  return base;
}

async function call(base: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method, headers: body === undefined ? {} : { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as { success: boolean; message: string; data: any } }; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read nested fields freely
}

beforeAll(async () => {
  database = await createDatabase('sine_bisaya_two');
  // Both start at once: one migrates and seeds, the other waits for it (an advisory lock).
  [a, b] = await Promise.all([startProcess(database.url), startProcess(database.url)]);
}, 120_000);

afterAll(async () => {
  await stopAll(processes);
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('two API processes on one PostgreSQL', () => {
  it('end a session on one process when a password change on the other ends it', async () => {
    const signIn = (base: string) => call(base, 'POST', `${V1}/sign-in-email`, { email: 'free@example.com', password: 'Bisaya-Demo-2026' });
    const onA = (await signIn(a)).json.data.accessToken as string;
    const onB = (await signIn(b)).json.data.accessToken as string;
    const profile = (base: string, token: string) => fetch(`${base}/api/v1/mobile/account/profile`, { headers: { Authorization: `Bearer ${token}` } });
    expect((await profile(a, onA)).status).toBe(200);
    expect((await profile(b, onA)).status).toBe(200);
    const changed = await fetch(`${b}/api/v1/mobile/account/password`, {
      method: 'PUT', headers: { Authorization: `Bearer ${onB}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ oldPassword: 'Bisaya-Demo-2026', newPassword: 'Bagong-Password-9', confirmNewPassword: 'Bagong-Password-9' }),
    });
    expect(changed.status).toBe(200);
    expect((await profile(a, onA)).status).toBe(401);
    expect((await profile(b, onA)).status).toBe(401);
  });

  it(`void a code after ${OTP_MAX_ATTEMPTS} wrong tries spread over both processes`, async () => {
    const sent = await call(a, 'POST', `${V1}/forgot/send-otp`, { email: 'premium@example.com' });
    expect(sent.status).toBe(200);
    const verifyToken = sent.json.data.verifyToken as string;
    const mail = (await (await fetch(`${b}/dev/mailbox.json?to=premium@example.com`)).json()) as Array<{ otp: string | null }>;
    const code = mail.at(-1)!.otp!;
    const wrong = code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
    for (let i = 0; i < OTP_MAX_ATTEMPTS; i++) {
      const tried = await call(i % 2 === 0 ? a : b, 'POST', `${V1}/forgot/verify-otp`, { verifyToken, otpCode: wrong });
      // The last wrong try voids the code (429), counted over both processes.
      expect(tried.status).toBe(i === OTP_MAX_ATTEMPTS - 1 ? 429 : 400);
    }
    // The right code, on either process, is refused now.
    for (const base of [a, b]) {
      const right = await call(base, 'POST', `${V1}/forgot/verify-otp`, { verifyToken, otpCode: code });
      expect(right.status).toBe(429);
      expect(right.json.data).toBeNull();
    }
  });

  it('agree on the billing clock: a time set on one process is the time the other reads at once (issue 21)', async () => {
    const signIn = await call(b, 'POST', `${V1}/sign-in-email`, { email: 'canceled@example.com', password: 'Bisaya-Demo-2026' });
    const token = signIn.json.data.accessToken as string;
    const status = async () =>
      ((await (await fetch(`${b}/api/v1/mobile/subscription/status`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { data: { planType: string; status: string; endDate: string } }).data;
    const { endDate } = await status();
    expect(await status()).toMatchObject({ planType: 'PREMIUM', status: 'CANCELED' });
    try {
      const past = new Date(new Date(endDate).getTime() + 24 * 60 * 60 * 1000).toISOString();
      expect((await call(a, 'POST', '/dev/clock', { now: past })).status).toBe(200);
      expect(await status()).toMatchObject({ planType: 'FREE' });
    } finally {
      await call(a, 'POST', '/dev/clock', { now: null });
    }
    expect(await status()).toMatchObject({ planType: 'PREMIUM', status: 'CANCELED' });
  });

  it('let a login link sign in once: used on one process, refused on the other', async () => {
    const link = await call(a, 'POST', '/dev/login-link', { email: 'voucher@example.com' });
    expect(link.status).toBe(200);
    const token = new URL(link.json.data.url as string).searchParams.get('token');
    const [first, second] = await Promise.all([
      call(a, 'POST', `${V1}/verify-auth-link`, { token }),
      call(b, 'POST', `${V1}/verify-auth-link`, { token }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 400]);
    expect((await call(b, 'POST', `${V1}/verify-auth-link`, { token })).status).toBe(400);
  });
});
