/** Issue 11 items 4 (control characters), 5 (Host header) and 6 (JSON needs application/json). */
import { beforeAll, describe, expect, it } from 'vitest';
import { CARD_FIELD_MESSAGES, messages, profileUpdateRequestSchema, signUpRequestSchema } from '../../../src/api/schemas';
import { readSettings } from '../../../server/settings';
import { startTestServer, type TestServer } from '../support/helpers';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = (await server.signIn('free@example.com')).json.data.accessToken;
});

const V1 = '/api/v1/mobile';
const signUp = (extra: object) => ({
  email: 'nul-test@example.com', password: 'Lami-kaayo-2026', passwordConfirm: 'Lami-kaayo-2026', firstName: 'Nena', lastName: 'Cabahug',
  birthdate: '1995-03-14', ...extra,
});

describe('control characters in text fields', () => {
  it('are refused with a 400 and a message on profile update and sign-up', async () => {
    for (const bad of ['a\u0000b', 'tab\there', 'bell\u0007', 'del\u007f', 'c1\u009b', 'line\nbreak', '\ud800', 'half\udc00pair']) {
      const put = await server.call('PUT', `${V1}/account/profile`, { token, body: { firstName: bad, lastName: 'Santos' } });
      expect(put.status, JSON.stringify(bad)).toBe(400);
      expect(put.json.message).toBe('Text must not contain control characters');
      const middle = await server.call('PUT', `${V1}/account/profile`, { token, body: { firstName: 'Maria', middleName: bad, lastName: 'Santos' } });
      expect(middle.status).toBe(400);
      const up = await server.call('POST', `${V1}/auth/sign-up`, { body: signUp({ lastName: bad }) });
      expect(up.status).toBe(400);
      expect(up.json.message).toBe(messages.controlCharacters());
    }
  });

  it('refuse a new password with half a surrogate pair, which would hash like other passwords', async () => {
    const odd = 'Lami-kaayo-\ud800';
    const change = await server.call('PUT', `${V1}/account/password`, { token, body: { oldPassword: 'Bisaya-Demo-2026', newPassword: odd, confirmNewPassword: odd } });
    expect(change.status).toBe(400);
    expect(change.json.message).toBe(messages.controlCharacters());
  });

  it('are refused by the same shared schemas in the app', () => {
    const result = signUpRequestSchema.safeParse(signUp({ firstName: 'a\u0000b' }));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Text must not contain control characters');
    expect(profileUpdateRequestSchema.safeParse({ firstName: 'Ma\u0000ria', lastName: 'S' }).success).toBe(false);
    // Letters of every script and emoji are fine.
    expect(profileUpdateRequestSchema.safeParse({ firstName: 'Ñiño 🎬', middleName: 'Łukasz', lastName: 'Dela Cruz' }).success).toBe(true);
  });

  it('give the mailbox a 400, not a 500', async () => {
    const response = await server.app.request('/dev/mailbox.json?to=a%00b');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ success: false, message: 'Please enter a valid email address', data: null });
    expect((await server.app.request('/dev/mailbox?to=a%00b')).status).toBe(400);
  });
});

describe('control characters and unreadable card fields on the money endpoints (issue 19)', () => {
  it('answer 400 with a message, never a 5xx, and never reach the gateway', async () => {
    const premium = (await server.signIn('premium@example.com')).json.data.accessToken as string;
    const status = (await server.call('GET', `${V1}/subscription/status`, { token: premium })).json.data;
    const answers = {
      // A JSON escape inside the details string becomes a NUL only once parsed.
      details: await server.call('POST', `${V1}/subscription/update-payment-method`, {
        token: premium, body: { subscriptionId: status.subscriptionId, paymentMethod: 'MAYA_VAULT', paymentMethodDetails: '{"cardTokenId":"a\\u0000b"}' },
      }),
      cardToken: await server.call('POST', `${V1}/payment/vault/create`, { token, body: { planId: 1, cardToken: 'tok\u0000en' } }),
      linkId: await server.call('POST', `${V1}/payment/wallet/create`, { token, body: { planId: 1, linkId: 'link\u0001' } }),
      returnAddress: await server.call('POST', `${V1}/payment/wallet/link`, {
        token, body: { redirectUrl: { success: 'http://localhost/a\u0000', failure: 'http://localhost/b', cancel: 'http://localhost/c' } },
      }),
      subscriptionId: await server.call('POST', `${V1}/payment/checkout/renew`, { token, body: { subscriptionId: 'x\u0000' } }),
    };
    for (const [name, answer] of Object.entries(answers)) {
      expect([name, answer.status, answer.json.message]).toEqual([name, 400, messages.controlCharacters()]);
    }
    const atGateway = await server.db.query(`SELECT 1 FROM sandbox_wallet_links WHERE redirect_success LIKE '%' || chr(1) || '%' OR redirect_success LIKE '%\\u0000%'`);
    expect(atGateway.rows).toEqual([]);
  });

  it('say in words what a card field needs (not zod\'s pattern text)', async () => {
    const card = { number: '5123456789012346', expMonth: '12', expYear: '2030', cvc: '123', isDefault: true };
    const cases: Array<[object, string]> = [
      [{ cvc: '12345' }, CARD_FIELD_MESSAGES.cvc()],
      [{ expYear: '30' }, CARD_FIELD_MESSAGES.expYear()],
      [{ expMonth: '7' }, CARD_FIELD_MESSAGES.expMonth()],
      [{ number: '51234' }, CARD_FIELD_MESSAGES.number()],
      [{ number: 5123456789012346 }, CARD_FIELD_MESSAGES.number()],
      [{ isDefault: 'yes' }, CARD_FIELD_MESSAGES.isDefault()],
    ];
    for (const [change, message] of cases) {
      const answer = await server.call('POST', `${V1}/payment/vault/cards`, { token, body: { ...card, ...change } });
      expect([JSON.stringify(change), answer.status, answer.json.message]).toEqual([JSON.stringify(change), 400, message]);
      expect(answer.json.message).not.toMatch(/Invalid|pattern|Too small|expected/);
    }
  });
});

describe('the Host header', () => {
  it('never becomes the base address of /app-config.json or of minted links', async () => {
    const configured = await startTestServer({ publicBaseUrl: 'https://sine.example', devRoutes: 'public' });
    const config = await configured.call('GET', 'http://evil.example/app-config.json');
    expect((config.json as unknown as { baseUrl: string }).baseUrl).toBe('https://sine.example');
    const minted = await configured.call('POST', 'http://evil.example/dev/login-link', { body: { email: 'free@example.com' } });
    expect(new URL(minted.json.data.url).origin).toBe('https://sine.example');
  });

  it('defaults to the listening address when PUBLIC_BASE_URL is unset', () => {
    expect(readSettings({}).publicBaseUrl).toBe('http://localhost:8080');
    expect(readSettings({ PORT: '4183' }).publicBaseUrl).toBe('http://localhost:4183');
    expect(readSettings({ PUBLIC_BASE_URL: 'https://sine.example/' }).publicBaseUrl).toBe('https://sine.example');
    expect(() => readSettings({ PUBLIC_BASE_URL: 'javascript:alert(1)' })).toThrow(/PUBLIC_BASE_URL/);
  });
});

describe('JSON endpoints', () => {
  const body = JSON.stringify({ email: 'free@example.com', password: 'Bisaya-Demo-2026' });
  const post = (headers: Record<string, string>) =>
    server.app.request(`${V1}/auth/sign-in-email`, { method: 'POST', headers, body });

  it('refuse a body that is not declared application/json with 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
      const response = await post({ 'Content-Type': type });
      expect(response.status, type).toBe(415);
      expect(await response.json()).toEqual({ success: false, message: 'Content-Type must be application/json', data: null });
    }
    const none = await server.app.request(`${V1}/auth/sign-in-email`, { method: 'POST', body: new TextEncoder().encode(body) });
    expect(none.status).toBe(415);
    const dev = await server.app.request('/dev/login-link', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"email":"free@example.com"}' });
    expect(dev.status).toBe(415);
  });

  it('accept application/json with parameters, in any case', async () => {
    expect((await post({ 'Content-Type': 'application/json; charset=utf-8' })).status).toBe(200);
    expect((await post({ 'Content-Type': 'Application/JSON' })).status).toBe(200);
  });
});
