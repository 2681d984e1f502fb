/**
 * Issue 35's fault matrix: every ops call (from the route table), reaching its use-case with real ids,
 * while the database fails under it, and while Maya fails (every call answered 500, or timing out): each
 * answer is a clean envelope (or the CSV it is), with no stack, no SQL, no secret, and a failed money
 * action leaves no audit entry.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS } from '../../../src/api/ops/schemas';
import { OPS_ROUTES, type OpsRoute } from '../../../server/ops/routes';
import { setSandboxFaults } from '../../../server/sandbox/faults';
import type { Queryable } from '../../../server/platform/db';
import { SERVER_START_TIMEOUT_MS } from '../support/billing-helpers';
import { startOpsServer, type OpsServer, type TestOperator } from '../support/ops-helpers';
import { FREE, newRecords, resetSeams, snapshotPaymentMethods, verifiedCard } from '../support/seams-harness';
import { CONSENT } from '../support/consent';

let server: OpsServer;
let admin: TestOperator;
const ids: Record<string, string> = {};
const SECRET = 'pw-Db-Secret-4417';

beforeAll(async () => {
  server = await startOpsServer();
  await snapshotPaymentMethods(server);
  await resetSeams(server);
  admin = await server.operator('admin');
  const at = await server.freezeClock();
  const card = await verifiedCard(server, FREE);
  expect((await server.as(FREE).post('/payment/vault/create', { ...CONSENT, planId: 1, cardToken: card })).status).toBe(200);
  const record = (await newRecords(server, FREE))[0]!;
  ids.recordId = record.id;
  ids.userId = (await server.db.query<{ user_id: string }>('SELECT user_id FROM payment_records WHERE id = $1', [record.id])).rows[0]!.user_id;
  ids.id = (await server.db.query<{ subscription_id: string }>('SELECT subscription_id FROM payment_records WHERE id = $1', [record.id])).rows[0]!.subscription_id;
  ids.attemptId = (await server.db.query<{ id: string }>('SELECT id FROM gateway_attempts WHERE record_id = $1', [record.id])).rows[0]!.id;
  ids.mailId = (await server.db.query<{ id: string }>('SELECT max(id)::text AS id FROM mail_log WHERE user_id = $1', [ids.userId])).rows[0]!.id;
  const expiresOn = new Date(at.getTime() + 40 * 86_400_000).toISOString().slice(0, 10);
  const batch = await admin.post('/voucher-batches', { partner: 'Globe', count: 2, days: 7, planId: 1, expiresOn, perAccount: true, useLimit: null, reason: 'Fault matrix batch' });
  ids.batchId = batch.json.data.id;
  ids.code = (await admin.get(`/voucher-batches/${ids.batchId}`)).json.data.codes[0].code;
  ids.operatorUserId = admin.userId;
}, SERVER_START_TIMEOUT_MS);
afterAll(async () => {
  await server?.db.close();
});

const pathOf = (route: OpsRoute) =>
  `${OPS}${route.path.replace(/:([A-Za-z]+)/g, (_, name: string) => (name === 'userId' && route.path.startsWith('/operators') ? ids.operatorUserId! : ids[name]!))}`;

const bodyOf = (route: OpsRoute): unknown => {
  if (route.method === 'GET') return undefined;
  const reason = 'Fault matrix: checking the answer';
  const bodies: Record<string, unknown> = {
    '/enrol/confirm': { code: '123456' },
    '/session': { code: '123456' },
    '/payments/:recordId/reverse': { amount: '99.00', reason, requestKey: randomUUID() },
    '/subscriptions/:id/dunning': { stopped: true, reason },
    '/subscriptions/:id/extend': { days: 1, reason },
    '/subscriptions/:id/cancel': { when: 'period_end', reason },
    '/voucher-batches': { partner: 'Smart', count: 1, days: 7, planId: 1, expiresOn: '2099-01-01', perAccount: true, useLimit: null, reason },
    '/operators': { email: FREE, role: 'support', reason },
  };
  return bodies[route.path] ?? { reason };
};

const query = (route: OpsRoute) => (route.path.startsWith('/exports/') ? '?from=2026-01-01&to=2026-12-31' : route.path === '/search' ? '?q=free' : '');

// Signing out last: it ends the session the other calls use.
const ordered = [...OPS_ROUTES].sort((a, b) => Number(a.path === '/session/end') - Number(b.path === '/session/end'));

async function callEach(label: string) {
  const answers: string[] = [];
  for (const route of ordered) {
    const token = route.entry ? admin.accessToken : admin.opsToken;
    const response = await server.app.request(`${pathOf(route)}${query(route)}`, {
      method: route.method,
      headers: { Authorization: `Bearer ${token}`, ...(route.method === 'POST' ? { 'Content-Type': 'application/json' } : {}) },
      body: route.method === 'POST' ? JSON.stringify(bodyOf(route)) : undefined,
    });
    const text = await response.text();
    const where = `${label} ${route.method} ${route.path} -> ${response.status}`;
    expect(text, where).not.toMatch(/\n\s+at |Error:|SELECT |INSERT |UPDATE |node_modules|\.ts:\d/);
    expect(text, where).not.toContain(SECRET);
    expect(text, where).not.toContain('sk-');
    if ((response.headers.get('Content-Type') ?? '').startsWith('text/csv')) {
      expect(response.status, where).toBe(200);
    } else {
      const json = JSON.parse(text) as { success: boolean; message: string; data: unknown };
      expect(Object.keys(json).sort(), where).toEqual(['data', 'message', 'success']);
      expect(json.success, where).toBe(response.status < 400);
      if (response.status >= 500) expect(json.data, where).toBeNull();
      // A stranger's 404 would mean the guard did not let the admin through: the fault was never reached.
      expect(json.message, where).not.toMatch(/^No route for/);
    }
    answers.push(`${route.method} ${route.path} ${response.status}`);
  }
  return answers;
}

/** The database fails under every query but the guard's own (so each call reaches its use-case). */
function failDatabase() {
  const db = server.db;
  const original = { query: db.query.bind(db), transaction: db.transaction.bind(db) };
  const guardOnly = /ops_sessions|operator_roles|FROM sessions vs|operator_totp/;
  const failing = (run: Queryable['query']): Queryable['query'] =>
    ((sql: string, params?: unknown[]) =>
      guardOnly.test(sql) && !/^\s*(INSERT|DELETE)/i.test(sql) && !/secret_encrypted|FOR UPDATE|last_used_step/.test(sql)
        ? run(sql, params)
        : Promise.reject(new Error(`connection to db.internal failed: password=${SECRET}`))) as Queryable['query'];
  db.query = failing(original.query);
  db.transaction = (fn) => original.transaction((tx) => fn({ ...tx, query: failing(tx.query.bind(tx)), exec: tx.exec.bind(tx) }));
  return () => {
    db.query = original.query;
    db.transaction = original.transaction;
  };
}

describe('every ops call under failure', () => {
  it('the database failing: 500 in the envelope, nothing of the failure in it', async () => {
    const auditBefore = (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0]!.n;
    const restore = failDatabase();
    let answers: string[];
    try {
      answers = await callEach('database down');
    } finally {
      restore();
    }
    // Past the guard (the operator read from the database) into each use-case, which fails: a 500 each,
    // but for the calls that read only what the guard reads (the operator, their sessions and roles).
    expect(answers.filter((a) => !a.endsWith(' 500'))).toEqual(['GET /me 200', 'GET /operators 200', 'POST /session/end 200']);
    expect((await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0]!.n).toBe(auditBefore);
    // Nothing of it reached the answers; the log has the error for us (with its stack), not the viewer.
    expect(server.logs.join('\n')).toContain('connection to db.internal failed');
  });

  it('Maya failing (every call a 500): clean answers; the reversal says nothing was given back', async () => {
    // A new session: the database pass above may have ended none, but the sign-out at its end did.
    const session = await server.opsAs(admin.accessToken).post('/session', { code: admin.recoveryCodes[0]! });
    admin.opsToken = session.json.data.session.opsToken;
    await setSandboxFaults(server.db, { faults: [{ on: 'any', mode: 'http500', times: 1_000_000 }] });
    let answers: string[];
    try {
      answers = await callEach('Maya down');
    } finally {
      await setSandboxFaults(server.db, { faults: [] });
    }
    expect(answers).toContain('POST /payments/:recordId/reverse 502');
    expect(answers).toContain('GET /attempts/:attemptId/maya 502');
    expect(answers).toContain('POST /records/:recordId/resolve 502');
    const reversals = await server.db.query(`SELECT 1 FROM audit_log WHERE action = 'payment.reverse'`);
    expect(reversals.rows).toHaveLength(0);
  });
});
