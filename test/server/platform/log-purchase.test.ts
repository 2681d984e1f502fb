/**
 * Issue 33's proof: a full purchase with the JSON log captured, then the log grepped for every secret
 * the run used (none found) and for one request id across the purchase's request line, its gateway
 * calls and the receipt it mailed.
 *
 * The run: sign in as a demo account (password → access and refresh tokens), ask for a recovery code and
 * check it (OTP → reset token), save a card (number, CVC, expiry) and confirm it on the bank's page
 * (3-D Secure passkey), buy a month with it (the charge and the receipt); all against the local sandbox
 * with its keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth } from '../../../server/gateway/maya';
import { SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../../../server/gateway/config';
import { captureLogs, type LogRecord } from '../../support/log-capture';
import { SERVER_START_TIMEOUT_MS, startBillingServer, type BillingServer, V1 } from '../support/billing-helpers';
import { CONSENT } from '../support/consent';

const EMAIL = 'free@example.com';
const PASSWORD = 'Bisaya-Demo-2026';
// A sandbox card the bank confirms at save time with a click, and charges without asking again.
const CARD = '5123456789012346';
const CARD_SPACED = '5123 4567 8901 2346';
const CVC = '947';

let server: BillingServer;
let logs: ReturnType<typeof captureLogs>;
beforeAll(async () => {
  server = await startBillingServer();
  logs = captureLogs();
}, SERVER_START_TIMEOUT_MS);
afterAll(() => logs.restore());

const form = (body: string) => ({ method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body });

describe('a full purchase, logged', () => {
  it('writes none of the secrets it used, and one request id ties the purchase to its gateway calls and its receipt', async () => {
    const secrets: Record<string, string> = {
      password: PASSWORD, 'card number': CARD, 'card number (as typed)': CARD_SPACED,
      'Maya secret key': SANDBOX_SECRET_KEY, 'Maya public key': SANDBOX_PUBLIC_KEY,
      'secret key (Basic auth)': basicAuth(SANDBOX_SECRET_KEY).slice('Basic '.length), 'public key (Basic auth)': basicAuth(SANDBOX_PUBLIC_KEY).slice('Basic '.length),
      email: EMAIL,
    };

    // Signed in through the app: the password in, two tokens out.
    const signIn = await server.signIn(EMAIL, PASSWORD);
    expect(signIn.status).toBe(200);
    const token = signIn.json.data.accessToken as string;
    secrets['access token'] = token;
    secrets['refresh token'] = signIn.json.data.refreshToken as string;
    const authed = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => server.call(method, `${V1}${path}`, { token, body, headers });

    // A recovery code, mailed and checked (never used: the password stays).
    const asked = await server.call('POST', `${V1}/auth/forgot/send-otp`, { body: { email: EMAIL } });
    secrets['verify token'] = asked.json.data.verifyToken as string;
    const otp = (await server.mail(EMAIL))[0]!.otp!;
    secrets['OTP code'] = otp;
    const verified = await server.call('POST', `${V1}/auth/forgot/verify-otp`, { body: { verifyToken: asked.json.data.verifyToken, otpCode: otp } });
    expect(verified.status, verified.json.message).toBe(200);
    secrets['reset token'] = verified.json.data.resetToken as string;

    // A card saved and confirmed with the bank (3-D Secure at save time).
    const saved = await authed('POST', '/payment/vault/cards', { number: CARD_SPACED, expMonth: '12', expYear: '2031', cvc: CVC, isDefault: true });
    expect(saved.status, saved.json.message).toBe(200);
    const verifyUrl = saved.json.data.verificationUrl as string;
    // The bank page's address carries a token (a route parameter named so): logged by its name only.
    secrets['verification page token'] = verifyUrl.split('/').at(-1)!;
    expect((await server.app.request(verifyUrl)).status).toBe(200);
    const pressed = await server.app.request(verifyUrl, form('action=approve'));
    expect(pressed.status).toBe(303);
    // A redirect carries its request id too.
    expect(pressed.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    const back = await server.app.request(pressed.headers.get('Location')!);
    expect(back.status).toBe(303);
    const card = (await authed('GET', '/payment/vault/cards/default')).json.data as { cardTokenId: string };
    secrets['card token'] = card.cardTokenId;

    // The purchase: one charge, one receipt mailed.
    const mailsBefore = (await server.mail(EMAIL)).length;
    const bought = await authed('POST', '/payment/vault/create', { ...CONSENT, planId: 1, cardToken: card.cardTokenId }, { 'X-Request-Id': 'purchase-req-1' });
    expect(bought.status, bought.json.message).toBe(200);
    expect(bought.headers.get('x-request-id')).toBe('purchase-req-1');
    const mailbox = await server.mail(EMAIL);
    expect(mailbox.length).toBe(mailsBefore + 1);
    expect(mailbox[0]!.subject).toMatch(/^Sine Bisaya: invoice SB-INV-\d+ for your Monthly payment$/);

    const text = logs.text();
    const records = logs.records();
    expect(records.length).toBeGreaterThan(20);

    // No secret, anywhere in the log.
    for (const [name, secret] of Object.entries(secrets)) expect(text.includes(secret), `${name} is in the log`).toBe(false);
    // The CVC is three digits: no string field holds it on its own (pid, time and durations are numbers;
    // a UUID may hold the digits inside a longer run of hex, which is not the CVC).
    const strings = (value: unknown): string[] =>
      typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(strings) : [];
    expect(records.flatMap(strings).filter((s) => new RegExp(`(?<![0-9a-z])${CVC}(?![0-9a-z])`, 'i').test(s))).toEqual([]);
    expect(text).not.toMatch(/"cvc":"(?!\[redacted\])/);

    expect(records.filter((r) => r.msg === 'request' && String(r.path).startsWith('/sandbox/maya/pages/verify/')).map((r) => r.path)).toEqual([
      '/sandbox/maya/pages/verify/:token', '/sandbox/maya/pages/verify/:token',
    ]);

    // One request id: the purchase's line, its gateway calls (the charge), its receipt.
    const ofPurchase = records.filter((r) => r.requestId === 'purchase-req-1');
    const line = (msg: string) => ofPurchase.filter((r: LogRecord) => r.msg === msg);
    expect(line('request')).toEqual([
      expect.objectContaining({ method: 'POST', route: `${V1}/payment/vault/create`, path: `${V1}/payment/vault/create`, status: 200, client: '127.0.0.1' }),
    ]);
    expect(line('gateway call').map((r) => r.gateway)).toContain('payWithCard');
    expect(line('gateway call').every((r) => r.outcome === 'ok')).toBe(true);
    // The mail line names the kind of mail (its subject without numbers: never whom it went to).
    expect(line('mail')).toEqual([expect.objectContaining({ mail: 'Sine Bisaya: invoice SB-INV-# for your Monthly payment', outcome: 'sent', language: 'en' })]);
    // Nothing else in the log claims that id.
    expect(records.filter((r) => r.requestId === 'purchase-req-1' && !['request', 'gateway call', 'mail'].includes(String(r.msg)))).toEqual([]);
  });
});
