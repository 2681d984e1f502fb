import { beforeAll, describe, expect, it } from 'vitest';
import { OTP_MAX_ATTEMPTS, OTP_MAX_SENDS_PER_HOUR, OTP_MESSAGES, generateCode } from '../../../server/identity/codes';
import { authResultSchema } from '../../../src/api/schemas';
import { startTestServer } from '../support/helpers';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});

const V1 = '/api/v1/mobile/auth';
let counter = 0;
const newEmail = () => `viewer${++counter}-${Date.now()}@example.com`;
const signUpBody = (email: string) => ({
  email, password: 'Lami-kaayo-2026', passwordConfirm: 'Lami-kaayo-2026', firstName: 'Nena', lastName: 'Cabahug', birthdate: '1995-03-14',
});
const latestCode = async (email: string) => (await server.mail(email)).find((m) => m.otp)?.otp ?? null;
const wrongCode = (code: string) => (code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA');

describe('codes', () => {
  it('are 6 letters or digits', () => {
    for (let i = 0; i < 200; i++) expect(generateCode()).toMatch(/^[A-Z0-9]{6}$/);
  });
});

describe('sign-up with a one-time code', () => {
  it('creates the account only after the mailed code is entered, and logs in', async () => {
    const email = newEmail();
    const start = await server.call('POST', `${V1}/sign-up`, { body: signUpBody(email) });
    expect(start.status).toBe(200);
    const verificationToken = start.json.data.verificationToken as string;
    expect((await server.signIn(email, 'Lami-kaayo-2026')).status).toBe(401); // not yet an account
    const code = await latestCode(email);
    expect(code).toMatch(/^[A-Z0-9]{6}$/);

    const wrong = await server.call('POST', `${V1}/sign-up/verify-otp`, { body: { verificationToken, otpCode: wrongCode(code!) } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toBe(OTP_MESSAGES.invalid);

    const right = await server.call('POST', `${V1}/sign-up/verify-otp`, { body: { verificationToken, otpCode: code!.toLowerCase() } });
    expect(right.status).toBe(200);
    const result = authResultSchema.parse(right.json.data);
    expect(result.user).toMatchObject({ email, firstName: 'Nena', lastName: 'Cabahug', birthdate: '1995-03-14' });
    expect(result.user.subscription?.planType).toBe('FREE');
    expect((await server.signIn(email, 'Lami-kaayo-2026')).status).toBe(200);

    const again = await server.call('POST', `${V1}/sign-up/verify-otp`, { body: { verificationToken, otpCode: code! } });
    expect(again.status).toBe(400); // single use
  });

  it('answers an existing email exactly like a new one, and mails no code', async () => {
    const known = await server.call('POST', `${V1}/sign-up`, { body: signUpBody('free@example.com') });
    const fresh = await server.call('POST', `${V1}/sign-up`, { body: signUpBody(newEmail()) });
    expect(known.status).toBe(fresh.status);
    expect(Object.keys(known.json.data)).toEqual(Object.keys(fresh.json.data));
    expect(known.json.message).toBe(fresh.json.message);
    expect(await latestCode('free@example.com')).toBeNull();
  });

  it('validates with the messages of spec §5', async () => {
    const call = (body: object) => server.call('POST', `${V1}/sign-up`, { body: { ...signUpBody(newEmail()), ...body } });
    expect((await call({ passwordConfirm: 'different' })).json.message).toBe('Passwords do not match');
    expect((await call({ birthdate: '2999-01-01' })).json.message).toBe('Birthdate cannot be in the future');
    expect((await call({ birthdate: '1899-12-31' })).json.message).toBe('Birthdate cannot be before 1900-01-01');
    expect((await call({ firstName: '  ' })).json.message).toBe('First Name is required');
    const badCode = await server.call('POST', `${V1}/sign-up/verify-otp`, { body: { verificationToken: 'x', otpCode: '12-456' } });
    expect(badCode.status).toBe(400);
  });

  it(`voids a code after ${OTP_MAX_ATTEMPTS} wrong tries`, async () => {
    const email = newEmail();
    const { json } = await server.call('POST', `${V1}/sign-up`, { body: signUpBody(email) });
    const code = (await latestCode(email))!;
    const verify = (otpCode: string) => server.call('POST', `${V1}/sign-up/verify-otp`, { body: { verificationToken: json.data.verificationToken, otpCode } });
    for (let i = 1; i < OTP_MAX_ATTEMPTS; i++) expect((await verify(wrongCode(code))).status).toBe(400);
    const fifth = await verify(wrongCode(code));
    expect(fifth.status).toBe(429);
    expect(fifth.json.message).toBe(OTP_MESSAGES.voided);
    expect((await verify(code)).json.message).toBe(OTP_MESSAGES.voided);
  });

  it('refuses an expired code', async () => {
    const email = newEmail();
    const { json } = await server.call('POST', `${V1}/sign-up`, { body: signUpBody(email) });
    await server.db.query(`UPDATE otp_challenges SET expires_at = now() - interval '1 second' WHERE email = $1`, [email]);
    const late = await server.call('POST', `${V1}/sign-up/verify-otp`, { body: { verificationToken: json.data.verificationToken, otpCode: (await latestCode(email))! } });
    expect(late.status).toBe(400);
    expect(late.json.message).toBe(OTP_MESSAGES.expired);
  });

  it(`resends no sooner than 60 s and at most ${OTP_MAX_SENDS_PER_HOUR} an hour; a new code replaces the old`, async () => {
    const email = newEmail();
    const { json } = await server.call('POST', `${V1}/sign-up`, { body: signUpBody(email) });
    const verificationToken = json.data.verificationToken as string;
    const first = (await latestCode(email))!;
    const tooSoon = await server.call('POST', `${V1}/sign-up/resend-otp`, { body: { verificationToken } });
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.json.message).toMatch(/^Please wait \d+ seconds before requesting a new code\.$/);

    for (let send = 2; send <= OTP_MAX_SENDS_PER_HOUR; send++) {
      await server.ageSends(email);
      const resent = await server.call('POST', `${V1}/sign-up/resend-otp`, { body: { verificationToken } });
      expect(resent.status).toBe(200);
      expect(resent.json.data.verificationToken).toBe(verificationToken);
    }
    await server.ageSends(email);
    const sixth = await server.call('POST', `${V1}/sign-up/resend-otp`, { body: { verificationToken } });
    expect(sixth.status).toBe(429);
    expect(sixth.json.message).toBe(OTP_MESSAGES.tooManySends);

    const latest = (await latestCode(email))!;
    if (latest !== first) {
      const old = await server.call('POST', `${V1}/sign-up/verify-otp`, { body: { verificationToken, otpCode: first } });
      expect(old.json.message).toBe(OTP_MESSAGES.invalid);
    }
    const ok = await server.call('POST', `${V1}/sign-up/verify-otp`, { body: { verificationToken, otpCode: latest } });
    expect(ok.status).toBe(200);
  });
});

describe('password recovery', () => {
  it('mails a code, trades it for a reset token, and sets the new password', async () => {
    const sent = await server.call('POST', `${V1}/forgot/send-otp`, { body: { email: 'premium@example.com' } });
    expect(sent.status).toBe(200);
    const code = (await latestCode('premium@example.com'))!;
    const verified = await server.call('POST', `${V1}/forgot/verify-otp`, { body: { verifyToken: sent.json.data.verifyToken, otpCode: code } });
    expect(verified.status).toBe(200);
    const resetToken = verified.json.data.resetToken as string;

    const mismatch = await server.call('POST', `${V1}/forgot/reset-password`, { body: { resetToken, password: 'Lami-k7p-one', confirmPassword: 'Lami-k7p-two' } });
    expect(mismatch.json.message).toBe('Passwords do not match');
    const reset = await server.call('POST', `${V1}/forgot/reset-password`, { body: { resetToken, password: 'Bagong-Password-1', confirmPassword: 'Bagong-Password-1' } });
    expect(reset.status).toBe(200);
    expect(reset.json.message).toBe('Password reset successfully');
    expect((await server.signIn('premium@example.com', 'Bagong-Password-1')).status).toBe(200);
    expect((await server.signIn('premium@example.com')).status).toBe(401);

    const twice = await server.call('POST', `${V1}/forgot/reset-password`, { body: { resetToken, password: 'Bagong-Password-2', confirmPassword: 'Bagong-Password-2' } });
    expect(twice.status).toBe(400); // single use
  });

  it('answers an unknown email exactly like a known one', async () => {
    const unknown = await server.call('POST', `${V1}/forgot/send-otp`, { body: { email: 'nobody-here@example.com' } });
    const known = await server.call('POST', `${V1}/forgot/send-otp`, { body: { email: 'voucher@example.com' } });
    expect(unknown.status).toBe(known.status);
    expect(unknown.json.message).toBe(known.json.message);
    expect(Object.keys(unknown.json.data)).toEqual(['verifyToken']);
    expect(await server.mail('nobody-here@example.com')).toEqual([]);
    const guess = await server.call('POST', `${V1}/forgot/verify-otp`, { body: { verifyToken: unknown.json.data.verifyToken, otpCode: 'ABC123' } });
    expect(guess.status).toBe(400);
  });

  it('limits how often a code can be requested for one email', async () => {
    const again = await server.call('POST', `${V1}/forgot/send-otp`, { body: { email: 'voucher@example.com' } });
    expect(again.status).toBe(429);
    expect(again.json.message).toMatch(/^Please wait \d+ seconds/);
  });
});

describe('login links', () => {
  it('are minted by /dev/login-link and verified once', async () => {
    const minted = await server.call('POST', '/dev/login-link', { body: { email: 'canceled@example.com', redirectUrl: '/account' } });
    expect(minted.status).toBe(200);
    const url = new URL(minted.json.data.url);
    expect(url.pathname).toBe('/auth');
    expect(url.searchParams.get('redirectUrl')).toBe('/account');
    const token = url.searchParams.get('token')!;
    const verified = await server.call('POST', `${V1}/verify-auth-link`, { body: { token } });
    expect(verified.status).toBe(200);
    expect(authResultSchema.parse(verified.json.data).user.email).toBe('canceled@example.com');
    const reused = await server.call('POST', `${V1}/verify-auth-link`, { body: { token } });
    expect(reused.status).toBe(400);
    expect(reused.json.message).toBe('This login link has expired or was already used.');
    expect((await server.call('POST', `${V1}/verify-auth-link`, { body: { token: '' } })).json.message).toBe('Token is required');
  });
});

describe('the dev mailbox', () => {
  it('lists messages newest first as JSON and as an escaped HTML page', async () => {
    await server.call('POST', `${V1}/sign-up`, { body: { ...signUpBody(newEmail()), firstName: '<script>x</script>' } });
    const page = await server.app.request('/dev/mailbox');
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('Dev mailbox');
    expect(text).not.toContain('<script>x</script>');
    const all = (await (await server.app.request('/dev/mailbox.json')).json()) as Array<{ sentAt: string }>;
    const times = all.map((m) => m.sentAt);
    expect([...times].sort().reverse()).toEqual(times);
  });
  it('never writes a code to the log', async () => {
    const email = newEmail();
    await server.call('POST', `${V1}/sign-up`, { body: signUpBody(email) });
    const code = (await latestCode(email))!;
    expect(server.logs.join('\n')).not.toContain(code);
  });
});
