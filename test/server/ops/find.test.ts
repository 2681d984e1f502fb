/**
 * Issue 35: finding a viewer (email, name, payment reference, Maya payment id, card last 4, voucher
 * code) and their timeline (subscriptions, payments with every attempt and what Maya says, mails,
 * webhooks verified or not, sessions, audit entries); the queues.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_PATH } from '../../../server/gateway/config';
import { SERVER_START_TIMEOUT_MS } from '../support/billing-helpers';
import { startOpsServer, type OpsServer, type TestOperator } from '../support/ops-helpers';
import { deliverWebhook, FREE, newRecords, PREMIUM, resetSeams, snapshotPaymentMethods, verifiedCard } from '../support/seams-harness';
import { CONSENT } from '../support/consent';

let server: OpsServer;
let support: TestOperator;

beforeAll(async () => {
  server = await startOpsServer();
  await snapshotPaymentMethods(server);
  support = await server.operator('support');
}, SERVER_START_TIMEOUT_MS);
beforeEach(async () => {
  await resetSeams(server);
});
afterAll(async () => {
  await server?.db.close();
});

const search = async (q: string) => (await support.get(`/search?q=${encodeURIComponent(q)}`)).json.data.results as Array<{ email: string; matchedBy: string; status: string }>;

describe('find a viewer', () => {
  it('by email, name, card last 4 and voucher code', async () => {
    expect((await search('premium@'))[0]).toMatchObject({ email: PREMIUM, matchedBy: 'email', status: 'ACTIVE' });
    expect((await search('dela cruz'))[0]).toMatchObject({ email: PREMIUM, matchedBy: 'name' });
    expect((await search('1381')).map((r) => [r.email, r.matchedBy])).toContainEqual([PREMIUM, 'cardLast4']);
    expect((await search('bisaya30'))[0]).toMatchObject({ email: 'voucher@example.com', matchedBy: 'voucher' });
    expect(await search('nobody-like-this')).toEqual([]);
    const short = await support.get('/search?q=a');
    expect(short.status).toBe(400);
  });

  it("by payment reference and Maya's payment id; the timeline shows the payment, its attempts and what Maya says", async () => {
    const card = await verifiedCard(server, FREE);
    expect((await server.as(FREE).post('/payment/vault/create', { ...CONSENT, planId: 1, cardToken: card })).status).toBe(200);
    const record = (await newRecords(server, FREE))[0]!;
    const byRef = await search(record.reference_id.toLowerCase());
    expect(byRef[0]).toMatchObject({ email: FREE, matchedBy: 'reference' });
    const mayaId = (await server.db.query<{ maya_id: string }>('SELECT maya_id FROM gateway_attempts WHERE record_id = $1', [record.id])).rows[0]!.maya_id;
    expect((await search(mayaId))[0]).toMatchObject({ email: FREE, matchedBy: 'mayaPaymentId' });

    const userId = (await server.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [FREE])).rows[0]!.id;
    const timeline = (await support.get(`/viewers/${userId}`)).json.data;
    expect(timeline.viewer).toMatchObject({ email: FREE, name: 'Maria Santos', language: 'en' });
    expect(timeline.subscriptions[0]).toMatchObject({ planName: 'Monthly', status: 'ACTIVE', paymentMethod: 'MAYA_VAULT', dunningStopped: false });
    const payment = timeline.payments.find((p: { id: string }) => p.id === record.id);
    expect(payment).toMatchObject({ referenceNumber: record.reference_id, amount: '99.00', status: 'PAYMENT_SUCCESS', method: 'MAYA_VAULT' });
    expect(payment.invoice.number).toMatch(/^SB-INV-\d{8}$/);
    expect(payment.attempts).toHaveLength(1);
    expect(payment.attempts[0]).toMatchObject({ kind: 'CARD', outcome: 'SUCCEEDED', mayaId, amount: '99.00' });
    expect(timeline.mails.length).toBeGreaterThan(0);
    expect(timeline.sessions.length).toBeGreaterThan(0);
    const maya = await support.get(`/attempts/${payment.attempts[0].id}/maya`);
    expect(maya.status).toBe(200);
    expect(maya.json.data).toMatchObject({ status: 'PAYMENT_SUCCESS', amount: '99.00' });

    // A verified webhook for it is on the timeline; an unverified one goes to the queue, naming nobody.
    const sandboxId = (await server.db.query<{ id: string }>('SELECT id FROM sandbox_payments WHERE request_reference_number = $1', [record.reference_id])).rows[0]!.id;
    expect((await deliverWebhook(server, sandboxId)).status).toBe(200);
    const forged = JSON.stringify({ id: sandboxId, status: 'PAYMENT_SUCCESS', requestReferenceNumber: record.reference_id });
    const refused = await server.app.request(WEBHOOK_PATH, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Maya-Webhook-Signature': 'nonce=ab,v1=cd', 'X-Maya-Webhook-Timestamp': String(Date.now()) }, body: forged });
    expect(refused.status).toBe(401);
    const after = (await support.get(`/viewers/${userId}`)).json.data;
    expect(after.webhooks).toHaveLength(1);
    expect(after.webhooks[0]).toMatchObject({ verified: true, status: 'PAYMENT_SUCCESS', paymentId: sandboxId, why: null });
    const queues = (await support.get('/queues')).json.data;
    expect(queues.unverifiedWebhooks[0]).toMatchObject({ userId: null, email: null, reason: 'Invalid webhook signature', mayaPaymentId: sandboxId });
    // Never the body's signature.
    const stored = await server.db.query('SELECT * FROM webhook_events');
    expect(JSON.stringify(stored.rows)).not.toContain('nonce=ab');
  });

  it("says why a payment can or cannot be given back in the operator's language", async () => {
    const userId = (await server.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [PREMIUM])).rows[0]!.id;
    const whys = async (language: string) =>
      ((await server.call('GET', `/api/v1/ops/viewers/${userId}`, { token: support.opsToken, headers: { 'Accept-Language': language } })).json.data.payments as Array<{ reversible: { why: string | null } }>)
        .map((p) => p.reversible.why);
    // The seeded payments were paid before the ledger.
    expect(await whys('en')).toContain("Paid before the ledger: refund it from Maya's manager.");
    expect(await whys('ceb')).toContain('Nabayran sa wala pa ang ledger: i-refund kini gikan sa manager sa Maya.');
  });

  it('an unknown viewer or attempt is a 404 in the envelope', async () => {
    expect((await support.get('/viewers/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await support.get('/viewers/not-a-uuid')).json).toEqual({ success: false, message: 'Not found.', data: null });
    expect((await support.get('/attempts/00000000-0000-4000-8000-000000000000/maya')).status).toBe(404);
  });
});

describe('queues', () => {
  it('lists past-due subscriptions, stuck attempts and reversals due, each naming the viewer', async () => {
    const premium = (await server.db.query<{ id: string; user_id: string }>(
      `SELECT s.id, s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.email = $1 AND s.status = 'ACTIVE'`, [PREMIUM],
    )).rows[0]!;
    await server.db.query(`UPDATE subscriptions SET status = 'PAST_DUE', next_attempt_at = end_date + interval '1 day', renewal_failure = 'Your card was declined' WHERE id = $1`, [premium.id]);
    const record = (await server.db.query<{ id: string; reference_id: string }>(`SELECT id, reference_id FROM payment_records WHERE user_id = $1 LIMIT 1`, [premium.user_id])).rows[0]!;
    await server.db.query(
      `INSERT INTO gateway_attempts (record_id, kind, reference_id, amount, outcome, created_at, made_at) VALUES ($1, 'CARD', $2, 99, 'UNKNOWN', now(), now() - interval '10 minutes')`,
      [record.id, record.reference_id],
    );
    await server.db.query(
      `INSERT INTO gateway_attempts (record_id, kind, reference_id, maya_id, amount, outcome, reversal_due, created_at) VALUES ($1, 'CARD', $2, 'maya-x', 99, 'SUCCEEDED', true, now())`,
      [record.id, record.reference_id],
    );
    const queues = (await support.get('/queues')).json.data;
    expect(queues.pastDue).toContainEqual(expect.objectContaining({ userId: premium.user_id, email: PREMIUM, subscriptionId: premium.id, reason: 'Your card was declined', dunningStopped: false }));
    expect(queues.stuck).toContainEqual(expect.objectContaining({ email: PREMIUM, recordId: record.id, outcome: 'UNKNOWN', ageMinutes: 10 }));
    expect(queues.reversals).toContainEqual(expect.objectContaining({ email: PREMIUM, recordId: record.id, state: 'due', amount: '99.00' }));
  });
});
