import { beforeAll, describe, expect, it } from 'vitest';
import { appConfigSchema } from '../../../src/api/schemas';
import { DEMO_PASSWORD } from '../../../server/dev/seed';
import { seed } from '../../../server/dev/seed';
import { startTestServer } from '../support/helpers';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});

describe('the reference server platform', () => {
  it('answers unknown routes with a 404 in the envelope', async () => {
    const { status, json } = await server.call('GET', '/api/v1/mobile/nothing-here');
    expect(status).toBe(404);
    expect(json).toEqual({ success: false, message: 'No route for GET /api/v1/mobile/nothing-here', data: null });
  });

  it('sends the security headers of the design', async () => {
    const { headers } = await server.call('GET', '/app-config.json');
    const csp = headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  it('sends the very same security headers on the envelope as on every other answer (issue 21)', async () => {
    const security = (headers: Headers) =>
      Object.fromEntries([...headers].filter(([name]) => !['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'retry-after', 'x-request-id'].includes(name)));
    const other = security((await server.call('GET', '/app-config.json')).headers);
    expect(Object.keys(other).length).toBeGreaterThanOrEqual(10);
    expect(other['x-frame-options']).toBe('DENY');
    const answers = [
      await server.call('GET', '/api/v1/mobile/subscription/plans'), // ok()
      await server.call('GET', '/api/v1/mobile/nothing-here'), // fail(), a 404
      await server.call('GET', '/api/v1/mobile/account/profile'), // fail() from requireAuth, a 401
      await server.call('GET', '/api/v1/mobile/subscription/plans?type=NONE'), // an HttpError through onError, a 400
    ];
    // The dev gate's 404 to another machine, answered before any route (it once went out without them).
    answers.push(await server.call('GET', '/dev/mailbox.json', { client: '203.0.113.7' }));
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 401, 400, 404]);
    for (const answer of answers) {
      expect(security(answer.headers)).toEqual(other);
      // Each answer its own request id (issue 33; a UUID when the client sent none).
      expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
      expect(answer.headers.get('content-type')).toBe('application/json');
    }
  });

  it('allows the built pages\' inline boot script by its hash, and no other inline script (issue 21)', async () => {
    const hashed = await startTestServer({ scriptHashes: ['b29vdCBzY3JpcHQ='] });
    const csp = (await hashed.call('GET', '/app-config.json')).headers.get('content-security-policy') ?? '';
    expect(/script-src ([^;]*)/.exec(csp)![1]).toBe("'self' 'sha256-b29vdCBzY3JpcHQ='");
  });

  it('serves /app-config.json with the base address', async () => {
    const { status, json } = await server.call('GET', '/app-config.json');
    expect(status).toBe(200);
    const config = appConfigSchema.parse(json);
    expect(config.baseUrl).toBe('http://localhost');
  });
});

describe('seed data (design: reference data)', () => {
  it('has the plans with their prices, the popular yearly plan and the free plan', async () => {
    const plans = await server.db.query<{ id: number; slug: string; price: string; billing_cycle: string; popular: boolean; type: string }>(
      'SELECT id, slug, price::text, billing_cycle, popular, type FROM plans ORDER BY id',
    );
    expect(plans.rows).toEqual([
      { id: 1, slug: 'monthly', price: '99.00', billing_cycle: 'month', popular: false, type: 'PREMIUM' },
      { id: 2, slug: 'yearly', price: '990.00', billing_cycle: 'year', popular: true, type: 'PREMIUM' },
      { id: 3, slug: 'free', price: '0.00', billing_cycle: 'month', popular: false, type: 'FREE' },
      { id: 4, slug: 'voucher-30', price: '99.00', billing_cycle: 'voucher', popular: false, type: 'VOUCHER' },
      { id: 5, slug: 'voucher-365', price: '990.00', billing_cycle: 'voucher', popular: false, type: 'VOUCHER' },
    ]);
  });

  it('has the four demo accounts in their states, all with the demo password', async () => {
    const expectations: Record<string, { planType: string; status: string; future?: boolean }> = {
      'free@example.com': { planType: 'FREE', status: 'ACTIVE' },
      'premium@example.com': { planType: 'PREMIUM', status: 'ACTIVE', future: true },
      'canceled@example.com': { planType: 'PREMIUM', status: 'CANCELED', future: true },
      'voucher@example.com': { planType: 'PREMIUM', status: 'ACTIVE', future: true },
    };
    for (const [email, expected] of Object.entries(expectations)) {
      const { status, json } = await server.signIn(email, DEMO_PASSWORD);
      expect(status, email).toBe(200);
      const subscription = json.data.user.subscription;
      expect(subscription.planType, email).toBe(expected.planType);
      expect(subscription.status, email).toBe(expected.status);
      if (expected.future) expect(new Date(subscription.endDate).getTime(), email).toBeGreaterThan(Date.now());
    }
  });

  it('stores only scrypt hashes of passwords', async () => {
    const rows = await server.db.query<{ password_hash: string }>('SELECT password_hash FROM users');
    for (const row of rows.rows) {
      expect(row.password_hash).toMatch(/^scrypt\$/);
      expect(row.password_hash).not.toContain(DEMO_PASSWORD);
    }
  });

  it('has the vouchers, and seeding twice adds nothing', async () => {
    await seed(server.db);
    const vouchers = await server.db.query<{ code: string; days: number; reusable: boolean }>('SELECT code, days, reusable FROM vouchers ORDER BY code');
    expect(vouchers.rows).toEqual([
      { code: 'BISAYA30', days: 30, reusable: true },
      { code: 'SUGBO365', days: 365, reusable: false },
    ]);
    const users = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM users');
    // The four demo viewers and the three demo operators (issue 35).
    expect(users.rows[0]!.count).toBe(7);
  });
});
