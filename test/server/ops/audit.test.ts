/**
 * Issue 35: every operator action writes exactly one audit entry, and none when it fails; the entry is
 * written in the action's transaction (the audit write failing undoes the action).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '../../../src/api/ops/schemas';
import { SERVER_START_TIMEOUT_MS } from '../support/billing-helpers';
import { startOpsServer, type OpsServer, type TestOperator } from '../support/ops-helpers';
import { FREE, latestSubscription, newRecords, PREMIUM, resetSeams, setCard, snapshotPaymentMethods, verifiedCard } from '../support/seams-harness';
import { CONSENT } from '../support/consent';

let server: OpsServer;
let admin: TestOperator;
let other: TestOperator;

beforeAll(async () => {
  server = await startOpsServer();
  await snapshotPaymentMethods(server);
  await resetSeams(server);
  admin = await server.operator('admin');
  other = await server.operator('support');
}, SERVER_START_TIMEOUT_MS);
afterAll(async () => {
  await server?.db.close();
});

const counts = async () =>
  Object.fromEntries((await server.db.query<{ action: string; n: number }>('SELECT action, count(*)::int AS n FROM audit_log GROUP BY action')).rows.map((r) => [r.action, r.n]));
const BAD = '00000000-0000-4000-8000-000000000000';
const reason = 'Audit test: one entry each';

describe('every action, one entry', () => {
  it('each of the audited actions writes exactly one entry when it works and none when it fails', async () => {
    const at = await server.freezeClock();
    const card = await verifiedCard(server, FREE);
    expect((await server.as(FREE).post('/payment/vault/create', { ...CONSENT, planId: 1, cardToken: card })).status).toBe(200);
    const record = (await newRecords(server, FREE))[0]!;
    const freeSub = (await latestSubscription(server, FREE)).id;
    const premiumSub = (await latestSubscription(server, PREMIUM)).id;
    const mailId = (await server.db.query<{ id: string }>(`SELECT max(m.id)::text AS id FROM mail_log m JOIN users u ON u.id = m.user_id WHERE u.email = $1`, [FREE])).rows[0]!.id;
    const expiresOn = new Date(at.getTime() + 30 * 86_400_000).toISOString().slice(0, 10);
    const batchBody = { partner: 'PLDT', count: 2, days: 7, planId: 1, expiresOn, perAccount: true, useLimit: null, reason };
    let batchId = '';
    let code = '';
    // [action, a call that fails (nothing written), a call that works]
    const cases: Array<[string, () => Promise<{ status: number }>, () => Promise<{ status: number }>]> = [
      ['payment.reverse', () => admin.post(`/payments/${BAD}/reverse`, { amount: '99.00', reason, requestKey: randomUUID() }), () => admin.post(`/payments/${record.id}/reverse`, { amount: '99.00', reason, requestKey: randomUUID() })],
      ['subscription.dunning', () => admin.post(`/subscriptions/${BAD}/dunning`, { stopped: true, reason }), () => admin.post(`/subscriptions/${premiumSub}/dunning`, { stopped: true, reason })],
      ['subscription.extend', () => admin.post(`/subscriptions/${premiumSub}/extend`, { days: 400, reason }), () => admin.post(`/subscriptions/${premiumSub}/extend`, { days: 3, reason })],
      ['subscription.retry', () => admin.post(`/subscriptions/${freeSub}/retry`, { reason }), async () => {
        // A PAST_DUE renewal to retry: premium's period ended, its card declined once.
        await setCard(server, 'APPROVE');
        const end = (await latestSubscription(server, PREMIUM)).end_date;
        await server.db.query(`UPDATE subscriptions SET status = 'PAST_DUE', next_attempt_at = $2 WHERE id = $1`, [premiumSub, new Date(end.getTime() + 86_400_000)]);
        await server.setClock(new Date(end.getTime() + 60_000));
        return admin.post(`/subscriptions/${premiumSub}/retry`, { reason });
      }],
      ['subscription.cancel', () => admin.post(`/subscriptions/${BAD}/cancel`, { when: 'now', reason }), () => admin.post(`/subscriptions/${freeSub}/cancel`, { when: 'period_end', reason })],
      ['record.resolve', () => admin.post(`/records/${BAD}/resolve`, { reason }), () => admin.post(`/records/${record.id}/resolve`, { reason })],
      ['mail.resend', () => admin.post('/mails/0/resend', { reason }), () => admin.post(`/mails/${mailId}/resend`, { reason })],
      ['voucher_batch.create', () => admin.post('/voucher-batches', { ...batchBody, planId: 3 }), async () => {
        const made = await admin.post('/voucher-batches', batchBody);
        batchId = made.json.data.id;
        code = (await admin.get(`/voucher-batches/${batchId}`)).json.data.codes[0].code;
        return made;
      }],
      ['voucher.disable', () => admin.post('/vouchers/SB-NONE-NONE-NONE/disable', { reason }), () => admin.post(`/vouchers/${code}/disable`, { reason })],
      ['voucher_batch.disable', () => admin.post(`/voucher-batches/${BAD}/disable`, { reason }), () => admin.post(`/voucher-batches/${batchId}/disable`, { reason })],
      ['operator.grant', () => admin.post('/operators', { email: 'nobody-here@example.com', role: 'support', reason }), () => admin.post('/operators', { email: 'voucher@example.com', role: 'support', reason })],
      ['operator.sessions.revoke', () => admin.post(`/operators/${BAD}/sessions/revoke`, { reason }), () => admin.post(`/operators/${other.userId}/sessions/revoke`, { reason })],
    ];
    expect(cases.map(([action]) => action).sort()).toEqual([...AUDIT_ACTIONS].sort());
    for (const [action, fails, works] of cases) {
      const before = await counts();
      const failed = await fails();
      expect(`${action} failing: ${failed.status}`).toMatch(/: 4\d\d$/);
      expect(await counts(), `${action} failing wrote nothing`).toEqual(before);
      const done = await works();
      expect(`${action} working: ${done.status}`).toBe(`${action} working: 200`);
      const after = await counts();
      expect(`${action}: ${(after[action] ?? 0) - (before[action] ?? 0)}`).toBe(`${action}: 1`);
      expect(Object.values(after).reduce((a, b) => a + b, 0) - Object.values(before).reduce((a, b) => a + b, 0), action).toBe(1);
    }
  });
});

describe('the entry is in the action\'s transaction', () => {
  it('when the audit write fails, the action is undone', async () => {
    const id = (await latestSubscription(server, PREMIUM)).id;
    const before = (await latestSubscription(server, PREMIUM)).end_date.toISOString();
    await server.db.exec(`CREATE FUNCTION audit_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit down'; END; $$;
      CREATE TRIGGER audit_test_refuse BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_test_refuse();`);
    try {
      const extended = await admin.post(`/subscriptions/${id}/extend`, { days: 5, reason });
      expect(extended.status).toBe(500);
      expect(extended.json).toEqual({ success: false, message: 'Something went wrong', data: null });
      const batches = (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM voucher_batches')).rows[0]!.n;
      expect((await admin.post('/voucher-batches', { partner: 'Globe', count: 3, days: 7, planId: 1, expiresOn: '2099-01-01', perAccount: true, useLimit: null, reason })).status).toBe(500);
      expect((await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM voucher_batches')).rows[0]!.n).toBe(batches);
    } finally {
      await server.db.exec('DROP TRIGGER audit_test_refuse ON audit_log; DROP FUNCTION audit_test_refuse();');
    }
    expect((await latestSubscription(server, PREMIUM)).end_date.toISOString()).toBe(before);
  });
});
