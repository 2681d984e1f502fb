/**
 * Issue 33: APP_ENV=production refuses every unsafe setting, one line each, and writes only the plan
 * catalog; the embedded default (no settings at all) is what it was.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readSettings, readTrustedProxies } from '../../../server/settings';
import { prepareDatabase, productionDataProblems } from '../../../server/startup';
import { openDatabase } from '../../../server/platform/db';
import { SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../../../server/gateway/config';
import { SEED_PLANS, SEED_VOUCHER_PLANS, SEED_VOUCHERS } from '../../../server/billing/catalog';
import { openTestDatabase } from '../support/helpers';

const webhookKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();

/** Everything production needs, right. */
const production = {
  APP_ENV: 'production', DEV_ROUTES: 'false', JWT_SECRET: 'j'.repeat(48), SMTP_URL: 'smtp://mailer:pw@smtp.example.ph:587',
  PUBLIC_BASE_URL: 'https://sinebisaya.example', MAYA_BASE_URL: 'https://pg.paymaya.com', MAYA_PUBLIC_KEY: 'pk-live-x', MAYA_SECRET_KEY: 'sk-live-y',
  DATABASE_URL: 'postgres://sine@db.internal/sine',
  SELLER_NAME: 'Sine Bisaya Media Inc.', SELLER_TIN: '123-456-789-00000', SELLER_ADDRESS: '1 Osmeña Blvd, Cebu City 6000',
  DPO_EMAIL: 'dpo@sinebisaya.ph',
};

const refusal = (env: Record<string, string | undefined>) => {
  try {
    readSettings(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('started');
};

describe('APP_ENV=production', () => {
  it('starts with every setting right, and says so', () => {
    const settings = readSettings(production);
    expect(settings.appEnv).toBe('production');
    expect(settings.devRoutes).toBe('off');
    expect(settings.gateway.baseUrl).toBe('https://pg.paymaya.com');
    expect(settings.gateway.webhook.allowedIps.length).toBeGreaterThan(0);
    expect(settings.publicBaseUrl).toBe('https://sinebisaya.example');
    expect(settings.seller).toEqual({ name: 'Sine Bisaya Media Inc.', tin: '123-456-789-00000', address: '1 Osmeña Blvd, Cebu City 6000' });
    expect(settings.dpo).toEqual({ email: 'dpo@sinebisaya.ph', sample: false });
  });

  it('keeps the sample data protection officer outside production, marked as the sample (issue 36)', () => {
    expect(readSettings({}).dpo).toEqual({ email: 'dpo@sinebisaya.example', sample: true });
    expect(() => readSettings({ DPO_EMAIL: 'not an address' })).toThrow(/^DPO_EMAIL must be one email address/);
  });

  // Each case: what is changed, and the one line that must say so.
  const cases: Array<[string, Record<string, string | undefined>, RegExp]> = [
    ['the gateway is the local sandbox (no MAYA_BASE_URL)', { MAYA_BASE_URL: undefined, MAYA_PUBLIC_KEY: undefined, MAYA_SECRET_KEY: undefined }, /^- MAYA_BASE_URL, MAYA_PUBLIC_KEY and MAYA_SECRET_KEY must name Maya/m],
    ['the gateway is the sandbox at another address', { MAYA_BASE_URL: 'http://10.0.0.9:8080/sandbox/maya', MAYA_PUBLIC_KEY: SANDBOX_PUBLIC_KEY, MAYA_SECRET_KEY: SANDBOX_SECRET_KEY, MAYA_WEBHOOK_PUBLIC_KEYS: webhookKey }, /^- MAYA_BASE_URL and the Maya keys point at the local sandbox/m],
    ["the sandbox's secret key with another address", { MAYA_BASE_URL: 'https://maya.internal', MAYA_SECRET_KEY: SANDBOX_SECRET_KEY, MAYA_WEBHOOK_PUBLIC_KEYS: webhookKey }, /^- MAYA_BASE_URL and the Maya keys point at the local sandbox/m],
    ['dev routes left at their default', { DEV_ROUTES: undefined }, /^- DEV_ROUTES must be false in production \(it is "local", the default\)/m],
    ['dev routes public', { DEV_ROUTES: 'public' }, /^- DEV_ROUTES must be false in production \(it is "public"\)/m],
    ['no JWT_SECRET', { JWT_SECRET: undefined }, /^- JWT_SECRET must be set, at least 32 characters/m],
    ['a short JWT_SECRET', { JWT_SECRET: 'x'.repeat(31) }, /^- JWT_SECRET must be at least 32 characters .*not 31$/m],
    ['no SMTP_URL', { SMTP_URL: undefined }, /^- SMTP_URL must name the mail relay/m],
    ['an SMTP_URL that is not smtp', { SMTP_URL: 'https://mail.example' }, /^- SMTP_URL must be an smtp:\/\/ or smtps:\/\/ address/m],
    ['no PUBLIC_BASE_URL', { PUBLIC_BASE_URL: undefined }, /^- PUBLIC_BASE_URL must be the https address viewers use/m],
    ['an http PUBLIC_BASE_URL', { PUBLIC_BASE_URL: 'http://sinebisaya.example' }, /^- PUBLIC_BASE_URL must be https in production/m],
    ['a fixed clock', { NOW: '2027-01-15T00:00:00+08:00' }, /^- NOW must not be set in production/m],
    ['a throwaway database', { DATA_DIR: ':memory:' }, /^- DATA_DIR=:memory: keeps nothing/m],
    ["Maya's webhook addresses not checked", { MAYA_WEBHOOK_IPS: 'any' }, /^- MAYA_WEBHOOK_IPS=any turns off/m],
    ['no seller (issue 34: invoices print it)', { SELLER_NAME: undefined, SELLER_TIN: undefined, SELLER_ADDRESS: undefined }, /^- SELLER_NAME, SELLER_TIN \(with branch code, 123-456-789-00000\) and SELLER_ADDRESS must name the registered seller/m],
    ['no data protection officer (issue 36: the privacy page names one)', { DPO_EMAIL: undefined }, /^- DPO_EMAIL must be the data protection officer's address/m],
    ['a seller without its address', { SELLER_ADDRESS: undefined }, /^- SELLER_NAME, SELLER_TIN and SELLER_ADDRESS go together/m],
    ['a seller TIN without its branch code', { SELLER_TIN: '123-456-789' }, /^- SELLER_TIN must be the TIN with its branch code, 123-456-789-00000, not "123-456-789"$/m],
    ['a proxy list that is not addresses', { TRUST_PROXY: '10.0.0.0/8, proxy.internal' }, /^- TRUST_PROXY must list IP addresses or CIDR ranges .*"proxy\.internal"$/m],
  ];
  it.each(cases)('refuses %s, with one line that says so', (_, change, line) => {
    const message = refusal({ ...production, ...change });
    expect(message).toMatch(/^APP_ENV=production: not starting, 1 setting to fix \(docs\/operations\.md#settings\):\n- /);
    expect(message).toMatch(line);
    expect(message.split('\n')).toHaveLength(2);
  });

  it('names every problem at once, one line each', () => {
    const message = refusal({ APP_ENV: 'production' });
    const lines = message.split('\n').slice(1);
    expect(lines.map((l) => l.slice(2, 16))).toEqual(['MAYA_BASE_URL,', 'DEV_ROUTES mus', 'JWT_SECRET mus', 'SMTP_URL must ', 'PUBLIC_BASE_UR', 'SELLER_NAME, S', 'DPO_EMAIL must']);
  });

  it('refuses an APP_ENV it does not know', () => {
    expect(refusal({ APP_ENV: 'staging' })).toBe('APP_ENV must be development (default) or production, not "staging"');
  });
});

describe('the embedded default (no settings)', () => {
  it('reads as before: development, dev routes on this machine, the local sandbox, no proxy, links to localhost', () => {
    const settings = readSettings({});
    expect(settings).toMatchObject({
      appEnv: 'development', port: 8080, devRoutes: 'local', publicBaseUrl: 'http://localhost:8080', serveSpa: true, jwtSecret: undefined, jwtPreviousSecrets: [],
      billing: { sweepMs: 2000, concurrency: 8, reconcileMs: 15_000 },
    });
    expect(settings.gateway.publicKey).toBe(SANDBOX_PUBLIC_KEY);
    expect(settings.gateway.baseUrl).toBe('http://127.0.0.1:8080/sandbox/maya');
    expect(settings.trustProxy.entries).toEqual([]);
    expect(settings.seller).toBeNull(); // the sample seller (issue 34): its documents say SAMPLE
    expect(settings.dataDir.endsWith('/.data')).toBe(true);
  });

  it('a single bad setting is still said as its own line, as before', () => {
    expect(refusal({ PORT: 'eighty' })).toBe('PORT must be a port number, not "eighty"');
  });

  it('writes the demo accounts and vouchers, as before', async () => {
    const db = await openTestDatabase();
    const users = await db.query<{ email: string }>('SELECT email FROM users ORDER BY email');
    expect(users.rows.map((r) => r.email)).toEqual([
      'admin@example.com', 'canceled@example.com', 'finance@example.com', 'free@example.com', 'premium@example.com', 'support@example.com', 'voucher@example.com',
    ]);
    // The demo operators (issue 35): dev only, not enrolled in TOTP.
    const operators = await db.query<{ email: string; role: string }>('SELECT u.email, r.role FROM operator_roles r JOIN users u ON u.id = r.user_id ORDER BY u.email');
    expect(operators.rows).toEqual([{ email: 'admin@example.com', role: 'admin' }, { email: 'finance@example.com', role: 'finance' }, { email: 'support@example.com', role: 'support' }]);
    expect((await db.query('SELECT 1 FROM operator_totp')).rows).toEqual([]);
    const vouchers = await db.query<{ code: string }>('SELECT code FROM vouchers ORDER BY code');
    expect(vouchers.rows.map((r) => r.code)).toEqual(['BISAYA30', 'SUGBO365']);
    await db.close();
  });
});

describe('the database in production', () => {
  it('gets the plan catalog only: no demo account, no demo voucher, nothing in the sandbox tables', async () => {
    const db = await openDatabase(':memory:');
    await prepareDatabase(db, 'production');
    const plans = await db.query<{ slug: string }>('SELECT slug FROM plans ORDER BY id');
    expect(plans.rows.map((r) => r.slug)).toEqual([...SEED_PLANS, ...SEED_VOUCHER_PLANS].map((p) => p.slug));
    // No operator either (issue 35): the first admin is made by `npm run ops:grant`, never by a start.
    for (const table of ['users', 'vouchers', 'subscriptions', 'payment_records', 'saved_cards', 'server_clock', 'sandbox_customers', 'sandbox_cards', 'sandbox_payments',
      'operator_roles', 'operator_totp', 'operator_recovery_codes', 'ops_sessions', 'audit_log', 'voucher_batches']) {
      expect(`${table}: ${(await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n}`).toBe(`${table}: 0`);
    }
    expect(await productionDataProblems(db)).toEqual([]);
    // Started again: still nothing more.
    await prepareDatabase(db, 'production');
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users')).rows[0]!.n).toBe(0);
    await db.close();
  });

  it('refuses a database that holds the demo data or a moved dev clock, naming each', async () => {
    const db = await openTestDatabase();
    await db.query(`INSERT INTO server_clock (id, fixed_at) VALUES (true, '2027-01-15T00:00:00Z')`);
    const refused = await prepareDatabase(db, 'production').then(() => '', (error: Error) => error.message);
    expect(refused.split('\n')).toEqual([
      'APP_ENV=production: not starting, the database holds dev data (docs/operations.md#demo-data):',
      '- the demo accounts canceled@example.com, free@example.com, premium@example.com, voucher@example.com (their password is in the README)',
      '- the demo operators admin@example.com, finance@example.com, support@example.com (their password is in the README)',
      `- the demo vouchers ${SEED_VOUCHERS.map((v) => v.code).join(', ')} (printed in the README)`,
      '- the billing clock fixed at 2027-01-15T00:00:00.000Z by /dev/clock (DELETE FROM server_clock)',
    ]);
    await db.close();
  });
});

describe('TRUST_PROXY', () => {
  it('reads addresses, ranges and loopback, and matches IPv4-mapped addresses', () => {
    const proxies = readTrustedProxies('10.0.0.0/8, 192.0.2.7, 2001:db8::/32, loopback');
    for (const inside of ['10.1.2.3', '::ffff:10.9.9.9', '192.0.2.7', '2001:db8::1', '127.0.0.1', '::1']) expect(`${inside} ${proxies.has(inside)}`).toBe(`${inside} true`);
    for (const outside of ['11.0.0.1', '192.0.2.8', '2001:db9::1', 'unknown', '']) expect(`${outside} ${proxies.has(outside)}`).toBe(`${outside} false`);
    expect(readTrustedProxies(undefined).entries).toEqual([]);
    expect(() => readTrustedProxies('10.0.0.0/33')).toThrow(/TRUST_PROXY/);
    expect(() => readTrustedProxies('10.0.0.0/8/1')).toThrow(/TRUST_PROXY/);
  });
});
