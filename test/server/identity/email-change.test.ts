/** Issue 36: changing the email address (password, code to the new address, notice and undo to the old one) on PGlite. */
import { beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/helpers';

const V1 = '/api/v1/mobile';
const PASSWORD = 'Bisaya-Demo-2026';
let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});

const token = async (email = 'free@example.com') => (await server.signIn(email)).json.data.accessToken as string;
const start = (access: string, newEmail: string, password = PASSWORD, client?: string) =>
  server.call('POST', `${V1}/account/email/change`, { token: access, body: { password, newEmail }, client });
const verify = (access: string, verificationToken: string, otpCode: string) =>
  server.call('POST', `${V1}/account/email/change/verify`, { token: access, body: { verificationToken, otpCode } });
const profile = (access: string) => server.call('GET', `${V1}/account/profile`, { token: access });
const codeFor = async (email: string) => (await server.mail(email)).find((m) => m.otp)?.otp ?? null;
const undoTokenOf = async (email: string) => {
  const notice = (await server.mail(email)).find((m) => m.subject.includes('email address was changed'));
  const link = /https?:\/\/\S+/.exec(notice?.text ?? '')?.[0];
  return link ? new URL(link).searchParams.get('token') : null;
};
const undo = (undoToken: string) => server.call('POST', `${V1}/auth/email/undo`, { body: { token: undoToken } });

describe('changing the email address', () => {
  it('takes the password, then the code mailed to the new address; the old address gets a notice with an undo link', async () => {
    const access = await token();
    const started = await start(access, 'New.Free@Example.com');
    expect(started.status).toBe(200);
    const code = await codeFor('new.free@example.com');
    expect(code).toMatch(/^[A-Z0-9]{6}$/);
    const done = await verify(access, started.json.data.verificationToken, code!.toLowerCase());
    expect(done.status).toBe(200);
    expect(done.json.data).toEqual({ email: 'new.free@example.com' });
    expect((await profile(access)).json.data.email).toBe('new.free@example.com');
    const notice = (await server.mail('free@example.com'))[0]!;
    expect(notice.text).toContain('changed to new.free@example.com');
    expect(notice.text).toContain('http://localhost/account/email/undo?token=');
    expect((await server.signIn('new.free@example.com')).status).toBe(200);
    expect((await server.signIn('free@example.com')).status).toBe(401);
  });

  it('refuses a wrong password (counted by the sign-in throttle) and sends no code', async () => {
    const access = await token();
    const wrong = await start(access, 'other@example.com', 'not-the-password');
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toBe('Password is incorrect');
    expect(await codeFor('other@example.com')).toBeNull();
    const throttle = await server.db.query<{ failures: number }>(`SELECT failures FROM auth_throttle WHERE key = 'signin:account:free@example.com'`);
    expect(throttle.rows[0]!.failures).toBe(1);
    // After the free tries the pair waits, as a sign-in would.
    for (let i = 0; i < 5; i++) await start(access, 'other@example.com', 'not-the-password');
    const slowed = await start(access, 'other@example.com');
    expect(slowed.status).toBe(429);
  });

  it('cannot take an address in use, and answers exactly as for a free one', async () => {
    const access = await token();
    const taken = await start(access, 'premium@example.com');
    const free = await start(access, 'nobody-yet@example.com');
    expect(taken.status).toBe(free.status);
    expect(taken.json.message).toBe(free.json.message);
    expect(Object.keys(taken.json.data)).toEqual(Object.keys(free.json.data));
    // No code reaches the other account's mailbox, and no code validates.
    expect(await codeFor('premium@example.com')).toBeNull();
    // Its owner is told instead, as sign-up tells a known email; the free address got its code.
    expect((await server.mail('premium@example.com')).map((m) => m.subject)).toEqual(['Someone tried to use your email for another account']);
    expect(await codeFor('nobody-yet@example.com')).toMatch(/^[A-Z0-9]{6}$/);
    for (const guess of ['AAAAAA', 'BBBBBB']) expect((await verify(access, taken.json.data.verificationToken, guess)).status).toBe(400);
    expect((await profile(access)).json.data.email).toBe('free@example.com');
  });

  it('refuses a wrong or expired code, voids the challenge after 5 tries, and refuses another viewer’s challenge', async () => {
    const access = await token();
    const started = await start(access, 'fresh@example.com');
    const verificationToken = started.json.data.verificationToken as string;
    const code = (await codeFor('fresh@example.com'))!;
    const wrong = code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
    expect((await verify(access, verificationToken, wrong)).json.message).toBe('Invalid OTP code');
    // Another viewer holding the token gets nothing from it.
    const stranger = await token('premium@example.com');
    expect((await verify(stranger, verificationToken, code)).status).toBe(400);
    await server.db.query(`UPDATE otp_challenges SET expires_at = now() - interval '1 second' WHERE purpose = 'email_change'`);
    const late = await verify(access, verificationToken, code);
    expect(late.status).toBe(400);
    expect(late.json.message).toBe('This code has expired. Please request a new one.');
    expect((await profile(access)).json.data.email).toBe('free@example.com');

    await server.ageSends('fresh@example.com');
    const resent = await server.call('POST', `${V1}/account/email/change/resend`, { token: access, body: { verificationToken } });
    expect(resent.status).toBe(200);
    const fresh = (await codeFor('fresh@example.com'))!;
    const other = fresh === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
    for (let i = 0; i < 4; i++) expect((await verify(access, verificationToken, other)).status).toBe(400);
    expect((await verify(access, verificationToken, other)).status).toBe(429);
    expect((await verify(access, verificationToken, fresh)).status).toBe(429);
  });

  it('keeps the resend wait of the sign-up code', async () => {
    const access = await token();
    const started = await start(access, 'waiting@example.com');
    const resent = await server.call('POST', `${V1}/account/email/change/resend`, { token: access, body: { verificationToken: started.json.data.verificationToken } });
    expect(resent.status).toBe(429);
    expect(resent.json.message).toMatch(/^Please wait \d+ seconds before requesting a new code\.$/);
  });

  it('validates both fields', async () => {
    const access = await token();
    const bad = await start(access, 'not-an-email', '');
    expect(bad.status).toBe(400);
    const same = await start(access, 'FREE@example.com');
    expect(same.json.message).toBe('This is already your email address.');
    expect((await server.call('POST', `${V1}/account/email/change`, { body: { password: PASSWORD, newEmail: 'x@example.com' } })).status).toBe(401);
  });
});

describe('“this wasn’t me”', () => {
  async function changed() {
    const access = await token();
    const other = await token();
    const started = await start(access, 'intruder@example.com');
    await verify(access, started.json.data.verificationToken, (await codeFor('intruder@example.com'))!);
    return { access, other, undoToken: (await undoTokenOf('free@example.com'))! };
  }

  it('restores the old address once and ends every session', async () => {
    const { access, other, undoToken } = await changed();
    const link = await server.call('POST', '/dev/login-link', { body: { email: 'intruder@example.com' } });
    const linkToken = new URL(link.json.data.url).searchParams.get('token')!;
    const undone = await undo(undoToken);
    expect(undone.status).toBe(200);
    expect(undone.json.message).toBe('Your email address was changed back and every device was signed out.');
    expect((await profile(access)).status).toBe(401);
    expect((await profile(other)).status).toBe(401);
    expect((await server.signIn('free@example.com')).status).toBe(200);
    expect((await server.signIn('intruder@example.com')).status).toBe(401);
    expect((await server.call('POST', `${V1}/auth/verify-auth-link`, { body: { token: linkToken } })).status).toBe(400);
    const again = await undo(undoToken);
    expect(again.status).toBe(400);
    expect(again.json.message).toBe('This link has expired or was already used.');
  });

  it('is refused after 7 days', async () => {
    const { access, undoToken } = await changed();
    await server.db.query(`UPDATE email_change_undos SET expires_at = now() - interval '1 second'`);
    expect((await undo(undoToken)).status).toBe(400);
    expect((await profile(access)).json.data.email).toBe('intruder@example.com');
  });

  it('keeps the old address from being taken while it can still be taken back', async () => {
    await changed();
    const signUp = await server.call('POST', `${V1}/auth/sign-up`, {
      body: { email: 'free@example.com', password: 'Bagong-Password-1', passwordConfirm: 'Bagong-Password-1', firstName: 'A', lastName: 'B', birthdate: '1990-01-01' },
    });
    expect(signUp.status).toBe(200);
    expect((await server.mail('free@example.com')).some((m) => m.otp)).toBe(false);
    const premium = await token('premium@example.com');
    const grab = await start(premium, 'free@example.com');
    expect(grab.status).toBe(200);
    expect((await server.mail('free@example.com')).some((m) => m.otp)).toBe(false);
  });
});

describe('the mails', () => {
  it('are written in the viewer’s language (the code, and the notice with its link)', async () => {
    const signedIn = await server.call('POST', `${V1}/auth/sign-in-email`, {
      body: { email: 'free@example.com', password: PASSWORD }, headers: { 'Accept-Language': 'ceb-PH' },
    });
    const access = signedIn.json.data.accessToken as string;
    const started = await start(access, 'bisaya@example.com');
    const codeMail = (await server.mail('bisaya@example.com'))[0]!;
    expect(codeMail.subject).toBe('Ang imong code sa Sine Bisaya sa pag-ilis sa email');
    expect(codeMail.text).toContain(`aron ilisan ang imong email address mao ang ${codeMail.otp}.`);
    await verify(access, started.json.data.verificationToken, codeMail.otp!);
    const notice = (await server.mail('free@example.com'))[0]!;
    expect(notice.subject).toBe('Na-ilis ang email address sa imong Sine Bisaya account');
    expect(notice.text).toMatch(/^Na-ilis ngadto sa bisaya@example\.com ang email address .* sulod sa 7 ka adlaw .*: http:\/\/localhost\/account\/email\/undo\?token=\S+$/);
  });
});
