/** The password rule and minimum age (product.md#password-rule) hold on the server too, whatever a client sends. */
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../support/helpers';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});

const V1 = '/api/v1/mobile/auth';
let counter = 0;
const signUp = (body: object) =>
  server.call('POST', `${V1}/sign-up`, {
    body: {
      email: `rule${++counter}@example.com`, password: 'Lami-kaayo-2026', passwordConfirm: 'Lami-kaayo-2026',
      firstName: 'Nena', lastName: 'Cabahug', birthdate: '1995-03-14', ...body,
    },
  });
const yearsAgo = (years: number, dayOffset = 0) => {
  const d = new Date();
  d.setFullYear(d.getFullYear() - years);
  d.setDate(d.getDate() + dayOffset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

describe('sign-up', () => {
  it('refuses a short, a too long or a common password', async () => {
    for (const [password, message] of [
      ['short', 'Password must be at least 8 characters'],
      ['x'.repeat(129), 'Password must be at most 128 characters'],
      ['password1', 'This password is too common'],
      ['Qwertyuiop', 'This password is too common'],
    ] as const) {
      const answer = await signUp({ password, passwordConfirm: password });
      expect(answer.status, password).toBe(400);
      expect(answer.json.message, password).toBe(message);
    }
    expect((await signUp({})).status).toBe(200);
  });
  it('refuses a viewer younger than 18, accepts one who turns 18 today', async () => {
    const minor = await signUp({ birthdate: yearsAgo(18, 1) });
    expect(minor.status).toBe(400);
    expect(minor.json.message).toBe('You must be at least 18 years old');
    expect((await signUp({ birthdate: yearsAgo(18) })).status).toBe(200);
  });
});

describe('password change', () => {
  it("refuses 'abc' and a common password as the new password", async () => {
    const token = (await server.signIn('free@example.com')).json.data.accessToken as string;
    const change = (newPassword: string) =>
      server.call('PUT', '/api/v1/mobile/account/password', { token, body: { oldPassword: 'Bisaya-Demo-2026', newPassword, confirmNewPassword: newPassword } });
    expect((await change('abc')).json.message).toBe('Password must be at least 8 characters');
    expect((await change('iloveyou')).json.message).toBe('This password is too common');
    expect((await server.signIn('free@example.com')).status).toBe(200); // still the old password
  });
});

describe('password reset', () => {
  it('refuses a short or common new password before the token is looked at', async () => {
    const reset = (password: string) =>
      server.call('POST', `${V1}/forgot/reset-password`, { body: { resetToken: 'any', password, confirmPassword: password } });
    expect((await reset('abc')).json.message).toBe('Password must be at least 8 characters');
    expect((await reset('sunshine')).json.message).toBe('This password is too common');
  });
});

describe('sign-in', () => {
  it('still takes any password (the rule is for choosing one)', async () => {
    const answer = await server.call('POST', `${V1}/sign-in-email`, { body: { email: 'free@example.com', password: 'abc' } });
    expect(answer.json.message).toBe('Invalid email or password');
  });
});
