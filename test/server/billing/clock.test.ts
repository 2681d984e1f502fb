import { randomBytes } from 'node:crypto';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../server/app';
import { readClock } from '../../../server/platform/clock';
import { openPreparedDatabase } from '../../../server/startup';
import { seed } from '../../../server/dev/seed';
import { createTokens } from '../../../server/identity/tokens';
import { DAY_MS, SERVER_START_TIMEOUT_MS, startBillingServer, type BillingServer } from '../support/billing-helpers';

let server: BillingServer;
beforeAll(async () => {
  server = await startBillingServer();
}, SERVER_START_TIMEOUT_MS);
beforeEach(async () => {
  await server.reset();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the billing clock', () => {
  it('follows the system clock until POST /dev/clock fixes it, and goes back with null', async () => {
    const before = Date.now();
    const first = await server.call('GET', '/dev/clock');
    expect(first.json.data.source).toBe('system');
    expect(new Date(first.json.data.now).getTime()).toBeGreaterThanOrEqual(before);

    const set = await server.call('POST', '/dev/clock', { body: { now: '2027-01-15T00:00:00+08:00' } });
    expect(set.status).toBe(200);
    expect(set.json.data).toEqual({ now: '2027-01-14T16:00:00.000Z', source: 'dev' });
    expect(set.json.message).toBe('Clock set to 01/15/2027 12:00 am Asia/Manila');
    expect((await server.call('GET', '/dev/clock')).json.data.now).toBe('2027-01-14T16:00:00.000Z');

    const reset = await server.call('POST', '/dev/clock', { body: { now: null } });
    expect(reset.json.data.source).toBe('system');
  });

  it('refuses a time it cannot read', async () => {
    for (const now of ['tomorrow', '2027-01-15', '2027-02-30T00:00:00Z', '2027-01-15T24:00:00Z', 42, undefined]) {
      const { status, json } = await server.call('POST', '/dev/clock', { body: { now } });
      expect(status, String(now)).toBe(400);
      expect(json.message, String(now)).toMatch(/^now must be an ISO 8601 date-time with an offset/);
    }
  });

  it('reads NOW from the environment when nothing is set, and a set time wins over it', async () => {
    expect(await readClock(server.db, { NOW: '2027-01-15T00:00:00+08:00' })).toEqual({ now: new Date('2027-01-14T16:00:00Z'), source: 'env' });
    await expect(readClock(server.db, { NOW: 'soon' })).rejects.toThrow(/NOW must be an ISO 8601 date-time/);
    await server.setClock('2028-01-01T00:00:00Z');
    expect((await readClock(server.db, { NOW: '2027-01-15T00:00:00+08:00' })).source).toBe('dev');
  });

  it('is not reachable when dev routes are off', async () => {
    const app = createApp({ db: server.db, tokens: createTokens(server.db, randomBytes(32)), devRoutes: 'off', publicBaseUrl: 'http://localhost:8080', log: () => {} });
    expect((await app.request('/dev/clock')).status).toBe(404);
  });

  it('moves the canceled account from CANCELED to FREE when set past its end date, and back when reset', async () => {
    const status = async () => (await server.as('canceled@example.com').get('/subscription/status')).json.data;
    const { endDate } = await status();
    await server.setClock(new Date(new Date(endDate).getTime() + DAY_MS));
    expect(await status()).toMatchObject({ planType: 'FREE' });
    await server.setClock(null);
    expect(await status()).toMatchObject({ planType: 'PREMIUM', status: 'CANCELED' });
  });
});

describe('the billing clock as the reads see it (issue 21: remembered on PGlite)', () => {
  it('follows a time written straight into the database, and not one a rolled-back transaction wrote', async () => {
    const status = async () => (await server.as('canceled@example.com').get('/subscription/status')).json.data;
    const history = async () => (await server.as('canceled@example.com').get('/subscription/history')).json.data as Array<{ status: string }>;
    const { endDate } = await status();
    expect(await status()).toMatchObject({ status: 'CANCELED' });
    const past = new Date(new Date(endDate).getTime() + DAY_MS);
    await server.db.query('INSERT INTO server_clock (id, fixed_at) VALUES (true, $1)', [past]);
    expect(await status()).toMatchObject({ planType: 'FREE' });
    expect((await history())[0]!.status).toBe('EXPIRED');
    await expect(
      server.db.transaction(async (tx) => {
        await tx.query('DELETE FROM server_clock');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await status()).toMatchObject({ planType: 'FREE' });
    await server.db.transaction((tx) => tx.query('DELETE FROM server_clock'));
    expect(await status()).toMatchObject({ planType: 'PREMIUM', status: 'CANCELED' });
    expect((await history())[0]!.status).toBe('CANCELED');
  });
});

describe('seeding against the clock', () => {
  it('dates the demo data from NOW, and seeding again adds nothing', async () => {
    vi.stubEnv('NOW', '2027-01-15T00:00:00+08:00');
    const db = await openPreparedDatabase(':memory:');
    try {
      const at = new Date('2027-01-14T16:00:00Z').getTime();
      const rows = await db.query<{ email: string; status: string; end_date: Date }>(
        `SELECT u.email, s.status, s.end_date FROM subscriptions s JOIN users u ON u.id = s.user_id
         WHERE s.status IN ('ACTIVE', 'CANCELED') AND s.end_date > $1 ORDER BY u.email`,
        [new Date(at)],
      );
      expect(rows.rows.map((r) => [r.email, r.status, (r.end_date.getTime() - at) / DAY_MS])).toEqual([
        ['canceled@example.com', 'CANCELED', 15],
        ['premium@example.com', 'ACTIVE', 20],
        ['voucher@example.com', 'ACTIVE', 25],
      ]);
      const count = async () =>
        (await db.query<{ n: string }>(`SELECT (SELECT count(*) FROM subscriptions) || '/' || (SELECT count(*) FROM payment_records) || '/' || (SELECT count(*) FROM voucher_redemptions) AS n`)).rows[0]!.n;
      const first = await count();
      expect(first).toBe('7/8/1');
      await seed(db);
      expect(await count()).toBe(first);
    } finally {
      await db.close();
    }
  }, SERVER_START_TIMEOUT_MS);
});
