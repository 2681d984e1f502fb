/**
 * Issue 36 on PostgreSQL (several connections): deleting an account while a renewal job is due, two
 * deletions at once, the tax documents' trigger exception, and an export prepared by the real job queue
 * (pg-boss). Runs in the `postgres` project (`npm run test:postgres`, CI).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { renewSubscription, type RenewalDeps } from '../../server/billing/renewals';
import { defaultGatewayConfig } from '../../server/gateway/config';
import { createMayaClient } from '../../server/gateway/maya';
import { createMailer } from '../../server/platform/mail';
import { startJobs } from '../../server/platform/jobs';
import { EXPORT_QUEUE, startAccountJobs } from '../../server/identity/accountJobs';
import { requestExport } from '../../server/identity/dataExport';
import { erasedEmail } from '../../server/identity/deletion';
import { startBillingServer, V1, type BillingServer } from '../server/support/billing-helpers';

let server: BillingServer;
let deps: RenewalDeps;
let boss: PgBoss | null = null;
const PASSWORD = 'Bisaya-Demo-2026';
beforeAll(async () => {
  server = await startBillingServer();
  const gateway = createMayaClient({ ...defaultGatewayConfig(0), fetch: ((input: RequestInfo | URL, init?: RequestInit) => server.app.request(String(input), init)) as typeof fetch });
  deps = { db: server.db, gateway, log: () => {}, publicBaseUrl: 'http://localhost', mailer: createMailer(server.db, '') };
});
afterAll(async () => {
  await boss?.stop({ graceful: false, wait: true } as PgBoss.StopOptions);
});

const userOf = async (email: string) => (await server.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email])).rows[0]?.id ?? null;

describe('deleting an account on PostgreSQL', () => {
  it('twice at once erases once; the renewal due after it charges nothing; documents keep only the blanked buyer', async () => {
    expect(db()).toBe('postgres');
    const EMAIL = 'premium@example.com';
    const userId = (await userOf(EMAIL))!;
    const sub = (await server.db.query<{ id: string; end_date: Date }>(
      `SELECT id, end_date FROM subscriptions WHERE user_id = $1 AND status = 'ACTIVE' ORDER BY start_date DESC LIMIT 1`, [userId],
    )).rows[0]!;
    const payments = (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_records WHERE user_id = $1', [userId])).rows[0]!.n;
    const [a, b] = await Promise.all([server.signIn(EMAIL), server.signIn(EMAIL)]);
    const answers = await Promise.all([a, b].map((s) =>
      server.call('POST', `${V1}/account/delete`, { token: s.json.data.accessToken, body: { password: PASSWORD, confirmation: EMAIL } })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200]);
    expect((await server.mail(EMAIL)).filter((m) => /deleted/.test(m.subject))).toHaveLength(1);
    expect((await server.db.query('SELECT email FROM users WHERE id = $1', [userId])).rows).toEqual([{ email: erasedEmail(userId) }]);
    for (const s of [a, b]) expect((await server.call('GET', `${V1}/account/profile`, { token: s.json.data.accessToken })).status).toBe(401);
    expect((await server.signIn(EMAIL)).status).not.toBe(200);

    await server.setClock(new Date(sub.end_date.getTime() + 60_000));
    expect(await Promise.all([renewSubscription(deps, sub.id), renewSubscription(deps, sub.id)])).toEqual(['skipped', 'skipped']);
    expect((await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_records WHERE user_id = $1', [userId])).rows[0]!.n).toBe(payments);
    await server.setClock(null);

    const docs = await server.db.query<{ buyer_name: string; buyer_email: string }>('SELECT buyer_name, buyer_email FROM tax_documents WHERE user_id = $1', [userId]);
    expect(docs.rows.length).toBeGreaterThan(0);
    for (const d of docs.rows) expect(d).toEqual({ buyer_name: '[erased]', buyer_email: '' });
    await expect(server.db.query(`UPDATE tax_documents SET description = 'x' WHERE user_id = $1`, [userId])).rejects.toThrow(/never edited or deleted/);
  });

  it('an export is prepared by the job queue (pg-boss) within a minute', async () => {
    boss = await startJobs(server.db, () => {});
    const stop = await startAccountJobs(boss, { db: server.db, gateway: deps.gateway, log: () => {} });
    const userId = (await userOf('free@example.com'))!;
    const { id, start } = await requestExport(server.db, userId);
    expect(start).toBe(true);
    await boss.send(EXPORT_QUEUE, { exportId: id });
    let state = '';
    for (let i = 0; i < 120 && state !== 'READY'; i++) {
      await new Promise((r) => setTimeout(r, 500));
      state = (await server.db.query<{ state: string }>('SELECT state FROM data_exports WHERE id = $1', [id])).rows[0]!.state;
    }
    expect(state).toBe('READY');
    const json = (await server.db.query<{ json: string }>('SELECT json FROM data_exports WHERE id = $1', [id])).rows[0]!.json;
    expect(JSON.parse(json).profile.email).toBe('free@example.com');
    await stop();
  });
});

describe('a download link on PostgreSQL', () => {
  it('taken by several requests at once gives the file exactly once', async () => {
    const EMAIL = 'voucher@example.com';
    const token = (await server.signIn(EMAIL)).json.data.accessToken as string;
    expect((await server.call('POST', `${V1}/account/export`, { token })).status).toBe(202);
    await expect.poll(async () => (await server.call('GET', `${V1}/account/export`, { token })).json.data.state, { timeout: 30_000 }).toBe('READY');
    const link = (await server.call('POST', `${V1}/account/export/link`, { token, body: { format: 'json' } })).json.data.token as string;
    const answers = await Promise.all(Array.from({ length: 6 }, () =>
      server.app.request(`${V1}/account/export/download?token=${encodeURIComponent(link)}`, { headers: { Authorization: `Bearer ${token}` } })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404, 404, 404, 404]);
  });
});

function db() {
  return server.db.kind;
}
