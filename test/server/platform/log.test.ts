/**
 * The structured log (issue 33): its settings, what it never writes (secrets by field name, and JWTs,
 * card numbers and keys in free text), and the request id: answered in X-Request-Id on every kind of
 * answer, and carried by the request's line, its gateway calls and its mails.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { log, logLine, maskSecrets, readLogSettings, withLogContext } from '../../../server/platform/log';
import { requestIdOf } from '../../../server/platform/requestLog';
import { captureLogs, type LogRecord } from '../../support/log-capture';
import { SERVER_START_TIMEOUT_MS, startBillingServer, type BillingServer, V1 } from '../support/billing-helpers';

describe('LOG_LEVEL and LOG_FORMAT', () => {
  it('default to info, pretty in a terminal and JSON otherwise', () => {
    expect(readLogSettings({}, true)).toEqual({ level: 'info', format: 'pretty' });
    expect(readLogSettings({}, false)).toEqual({ level: 'info', format: 'json' });
    expect(readLogSettings({ LOG_LEVEL: 'debug', LOG_FORMAT: 'json' }, true)).toEqual({ level: 'debug', format: 'json' });
    expect(readLogSettings({ LOG_LEVEL: ' WARN ', LOG_FORMAT: 'Pretty' }, false)).toEqual({ level: 'warn', format: 'pretty' });
    for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal']) expect(readLogSettings({ LOG_LEVEL: level }, false).level).toBe(level);
  });

  it('refuse anything else with one clear line', () => {
    expect(() => readLogSettings({ LOG_LEVEL: 'verbose' }, false)).toThrow('LOG_LEVEL must be one of trace, debug, info, warn, error, fatal (got "verbose").');
    expect(() => readLogSettings({ LOG_LEVEL: 'silent' }, false)).toThrow(/^LOG_LEVEL must be one of/);
    expect(() => readLogSettings({ LOG_FORMAT: 'text' }, false)).toThrow('LOG_FORMAT must be json or pretty (got "text").');
    try {
      readLogSettings({ LOG_FORMAT: 'xml' }, false);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });
});

describe('secrets never reach a line', () => {
  let logs: ReturnType<typeof captureLogs>;
  beforeAll(() => (logs = captureLogs()));
  afterEach(() => logs.clear());
  afterAll(() => logs.restore());

  const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEiLCJleHAiOjE3MDB9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';
  const SECRET_FIELDS: Record<string, string> = {
    password: 'Bisaya-Demo-2026', newPassword: 'New-Pass-9911', currentPassword: 'Old-Pass-7733', token: 'tok-aaaa-1111',
    accessToken: 'acc-bbbb-2222', refreshToken: 'ref-cccc-3333', authorization: 'Basic c2stc2VjcmV0Og==', cookie: 'session=dddd-4444',
    otp: '583920', code: '771204', secret: 'shh-eeee-5555', secretKey: 'maya-ffff-6666', cardNumber: '4123 4501 3100 1381',
    cvc: '947', cvv: '358', pan: '5453010000064154', expiry: '12/29',
  };

  it('censors each secret field, at the top and nested two levels down', () => {
    for (const [key, value] of Object.entries(SECRET_FIELDS)) {
      log().info({ [key]: value }, 'top');
      log().info({ body: { [key]: value } }, 'nested');
      log().info({ request: { body: { [key]: value } } }, 'deeper');
    }
    const text = logs.text();
    for (const [key, value] of Object.entries(SECRET_FIELDS)) expect(text, key).not.toContain(value);
    const records = logs.records();
    expect(records).toHaveLength(Object.keys(SECRET_FIELDS).length * 3);
    expect(records[0]).toMatchObject({ password: '[redacted]', msg: 'top' });
    expect(records[1]).toMatchObject({ body: { password: '[redacted]' } });
    expect(records[2]).toMatchObject({ request: { body: { password: '[redacted]' } } });
  });

  it('masks a JWT, a card number (13–19 digits, spaced or not) and sk-/pk- keys in free text and string fields', () => {
    const cases = [JWT, '4123450131001381', '4123 4501 3100 1381', '5453-0100-0006-4154', '3528000000000007123', 'sk-live-0123456789abcdef', 'pk-sandbox-sine-bisaya-local'];
    for (const secret of cases) {
      logLine(`something went wrong with ${secret} in it`);
      log().info({ detail: `the gateway said ${secret}` }, 'field');
      log().warn({ error: { message: `nested ${secret}` } }, 'nested');
    }
    const text = logs.text();
    for (const secret of cases) expect(text, secret).not.toContain(secret);
    expect(text).toContain('[jwt]');
    expect(text).toContain('[card]');
    expect(text).toContain('sk-[key]');
    expect(text).toContain('pk-[key]');
    // What is not a secret stays readable: an ISO date, a phone number, a UUID, a short amount.
    const plain = 'at 2026-06-05T10:20:30.000Z, +63 917 123 4567, id 3f0c1d2e-4b5a-4c6d-8e7f-901234567890, PHP 1499.00';
    expect(maskSecrets(plain)).toBe(plain);
  });
});

describe('the request id', () => {
  let server: BillingServer;
  let logs: ReturnType<typeof captureLogs>;
  beforeAll(async () => {
    server = await startBillingServer();
    logs = captureLogs();
  }, SERVER_START_TIMEOUT_MS);
  afterEach(() => logs.clear());
  afterAll(() => logs.restore());

  const requestLine = (records: LogRecord[], path: string) => records.find((r) => r.msg === 'request' && r.path === path);

  it('is the client’s own when it is a safe token, else a new id', () => {
    expect(requestIdOf('abc-123_x.y')).toBe('abc-123_x.y');
    expect(requestIdOf('a'.repeat(64))).toBe('a'.repeat(64));
    const made = ['a'.repeat(65), 'has space', 'new\nline', 'ünï', '', 'a;b', undefined].map((unsafe) => requestIdOf(unsafe));
    // A new id instead: this process's prefix and a counter, each one different.
    for (const id of made) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    expect(new Set(made).size).toBe(made.length);
  });

  it('is answered in X-Request-Id on envelopes, errors and HTML pages, and is on the request’s line', async () => {
    const ok = await server.call('GET', `${V1}/subscription/plans?type=PREMIUM&isActive=true`, { headers: { 'X-Request-Id': 'client-id-1' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe('client-id-1');
    const refused = await server.call('GET', `${V1}/account/profile`, { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(refused.status).toBe(401);
    const fresh = refused.headers.get('x-request-id')!;
    expect(fresh).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    const unknown = await server.call('GET', '/nothing/here');
    expect(unknown.status).toBe(404);
    const html = await server.app.request('/dev/mailbox');
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(html.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    const records = logs.records();
    // The query's names, never its values (an email, a code).
    expect(requestLine(records, `${V1}/subscription/plans?type&isActive`)).toMatchObject({
      requestId: 'client-id-1', method: 'GET', route: `${V1}/subscription/plans`, status: 200, client: '127.0.0.1', level: 30,
    });
    expect(requestLine(records, `${V1}/account/profile`)).toMatchObject({ requestId: fresh, status: 401, route: `${V1}/account/profile` });
    expect(requestLine(records, '/nothing/here')).toMatchObject({ requestId: unknown.headers.get('x-request-id'), status: 404, route: 'unmatched' });
    expect(typeof requestLine(records, '/dev/mailbox')!.ms).toBe('number');
    const mailbox = await server.call('GET', '/dev/mailbox.json?to=free%40example.com');
    expect(mailbox.status).toBe(200);
    expect(logs.text()).not.toContain('free%40example.com');
    expect(logs.text()).not.toContain('free@example.com');
  });

  it('reaches each gateway call the request makes, and the mail it sends', async () => {
    const token = await server.tokenOf('free@example.com');
    logs.clear();
    const saved = await server.call('POST', `${V1}/payment/vault/cards`, {
      token, headers: { 'X-Request-Id': 'save-card-1' }, body: { number: '5123456789012346', expMonth: '12', expYear: '2099', cvc: '947', isDefault: true },
    });
    expect(saved.status, saved.json.message).toBe(200);
    expect(saved.headers.get('x-request-id')).toBe('save-card-1');
    const records = logs.records();
    const calls = records.filter((r) => r.msg === 'gateway call');
    expect(calls.map((r) => r.gateway)).toEqual(expect.arrayContaining(['createPaymentToken', 'createCustomer', 'addCustomerCard']));
    for (const call of calls) {
      expect(call).toMatchObject({ requestId: 'save-card-1', outcome: 'ok', status: 200 });
      expect(typeof call.ms).toBe('number');
    }
    // The sandbox's own requests (the gateway stand-in is this very app) have ids of their own.
    expect(records.filter((r) => r.msg === 'request' && String(r.path).startsWith('/sandbox/')).every((r) => r.requestId !== 'save-card-1')).toBe(true);
    expect(logs.text()).not.toContain('5123456789012346');

    logs.clear();
    const sent = await server.call('POST', `${V1}/auth/forgot/send-otp`, { body: { email: 'free@example.com' }, headers: { 'X-Request-Id': 'forgot-1' } });
    expect(sent.status).toBe(200);
    const mail = logs.records().find((r) => r.msg === 'mail');
    expect(mail).toMatchObject({ requestId: 'forgot-1', mail: 'Your Sine Bisaya password reset code', language: 'en', outcome: 'sent' });
    const code = (await server.mail('free@example.com'))[0]!.otp!;
    expect(code).toMatch(/^[A-Z0-9]{6}$/);
    expect(logs.text()).not.toContain('free@example.com');
    expect(logs.text()).not.toContain(code);
  });

  it('is joined by a job id inside a job, on every line written there', async () => {
    await withLogContext({ jobId: 'job-7' }, async () => {
      logLine('first');
      await new Promise((resolve) => setTimeout(resolve, 5));
      await withLogContext({ requestId: 'r-1' }, async () => logLine('second'));
      logLine('third');
    });
    logLine('outside');
    expect(logs.records().map(({ msg, jobId, requestId }) => ({ msg, jobId, requestId }))).toEqual([
      { msg: 'first', jobId: 'job-7', requestId: undefined },
      { msg: 'second', jobId: 'job-7', requestId: 'r-1' },
      { msg: 'third', jobId: 'job-7', requestId: undefined },
      { msg: 'outside', jobId: undefined, requestId: undefined },
    ]);
  });
});
