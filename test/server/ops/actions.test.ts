/**
 * Issue 35: the money and state actions. A refund is taken once, pressed twice or by two operators at
 * once; void the same Manila day, refund after (whole or part) within 180 days; every action writes
 * exactly one audit entry in its transaction, and none when it fails; the audit log refuses UPDATE and
 * DELETE; renewals honour a dunning stop; the money invariants (goodwill refunds counted as the
 * product decides, docs/product.md#back-office) still hold.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OPS_MESSAGES } from '../../../src/api/ops/schemas';
import { dueWork, renewSubscription } from '../../../server/billing/renewals';
import { SERVER_START_TIMEOUT_MS } from '../support/billing-helpers';
import { checkMoneyInvariants } from '../support/money-invariants';
import { startOpsServer, type OpsServer, type TestOperator } from '../support/ops-helpers';
import { faultyGateway, FREE, latestSubscription, newRecords, PREMIUM, resetSeams, setCard, snapshotPaymentMethods, verifiedCard } from '../support/seams-harness';
import { CONSENT } from '../support/consent';

let server: OpsServer;
let finance: TestOperator;
let finance2: TestOperator;
let support: TestOperator;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  server = await startOpsServer();
  await snapshotPaymentMethods(server);
  finance = await server.operator('finance');
  finance2 = await server.operator('finance');
  support = await server.operator('support');
}, SERVER_START_TIMEOUT_MS);
beforeEach(async () => {
  await resetSeams(server);
  await server.db.exec('TRUNCATE ops_requests');
});
afterAll(async () => {
  await server?.db.close();
});

const invariants = () => checkMoneyInvariants((sql, params) => server.db.query(sql, params), { settlingMs: 0 });
const auditCount = async (action?: string) =>
  (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE ($1::text IS NULL OR action = $1)', [action ?? null])).rows[0]!.n;

async function buyMonthlyByCard(email = FREE) {
  const card = await verifiedCard(server, email);
  const bought = await server.as(email).post('/payment/vault/create', { ...CONSENT, planId: 1, cardToken: card });
  expect(bought.status, bought.json.message).toBe(200);
  const record = (await newRecords(server, email))[0]!;
  expect(record.status).toBe('PAYMENT_SUCCESS');
  return record;
}

const sandboxOf = async (reference: string) =>
  (await server.db.query<{ status: string; refunded: string }>('SELECT status, refunded_amount::text AS refunded FROM sandbox_payments WHERE request_reference_number = $1', [reference])).rows;

describe('reverse a payment', () => {
  it('voids the same day, once, though pressed twice and by two operators at once', async () => {
    await server.freezeClock();
    const record = await buyMonthlyByCard();
    const userId = (await server.db.query<{ user_id: string }>('SELECT user_id FROM payment_records WHERE id = $1', [record.id])).rows[0]!.user_id;
    const timeline = await finance.get(`/viewers/${userId}`);
    const payment = timeline.json.data.payments.find((p: { id: string }) => p.id === record.id);
    expect(payment.reversible).toEqual({ kind: 'void', maxAmount: '99.00', why: null });
    const before = await auditCount('payment.reverse');
    const key = randomUUID();
    const body = { amount: '99.00', reason: 'Viewer asked to cancel and refund on the first day', requestKey: key };
    // The same confirmation pressed twice at once, and a second operator at the same moment.
    const [first, again, other] = await Promise.all([
      finance.post(`/payments/${record.id}/reverse`, body),
      finance.post(`/payments/${record.id}/reverse`, body),
      finance2.post(`/payments/${record.id}/reverse`, { ...body, requestKey: randomUUID() }),
    ]);
    // Whoever takes the payment first reverses it (on PostgreSQL either may): the same confirmation
    // answers alike both times; everyone else is refused.
    expect(again.status).toBe(first.status);
    const won = [first, again, other].filter((x) => x.status === 200);
    expect(won.length).toBe(first.status === 200 ? 2 : 1);
    for (const answer of won) expect(answer.json.data).toEqual({ kind: 'void', amount: '99.00', outcome: 'SUCCEEDED' });
    expect([first, again, other].filter((x) => x.status !== 200).map((x) => x.status)).toEqual(Array(3 - won.length).fill(409));
    // Pressed once more later: the same answer as before, nothing more done.
    const later = await finance.post(`/payments/${record.id}/reverse`, body);
    expect(later.status).toBe(first.status);
    expect(await sandboxOf(record.reference_id)).toEqual([{ status: 'VOIDED', refunded: '99.00' }]);
    const reversals = await server.db.query('SELECT 1 FROM gateway_attempts WHERE record_id = $1 AND reverses IS NOT NULL AND outcome = $2', [record.id, 'SUCCEEDED']);
    expect(reversals.rows).toHaveLength(1);
    expect(await auditCount('payment.reverse')).toBe(before + 1);
    // The viewer's payments show it; the period stays (goodwill); a credit memo names the invoice.
    const history = await server.as(FREE).get('/payment/history');
    expect(history.json.data.find((p: { id: string }) => p.id === record.id).status).toBe('VOIDED');
    expect((await latestSubscription(server, FREE)).status).toBe('ACTIVE');
    const memo = await server.db.query<{ total: string }>(`SELECT total::text AS total FROM tax_documents WHERE payment_record_id = $1 AND kind = 'CREDIT_MEMO'`, [record.id]);
    expect(memo.rows).toEqual([{ total: '99.00' }]);
    expect(await invariants()).toBe(5);
    // Nothing left to give back.
    const after = await finance.get(`/viewers/${userId}`);
    expect(after.json.data.payments.find((p: { id: string }) => p.id === record.id).reversible.kind).toBe('none');
    expect(after.json.data.audit[0]).toMatchObject({ action: 'payment.reverse', actorRole: 'finance', targetId: record.id });
  });

  it('refunds in parts after the day, up to what was charged; each part its credit memo; the last part makes it REFUNDED', async () => {
    const bought = await server.freezeClock();
    const record = await buyMonthlyByCard();
    await server.setClock(new Date(bought.getTime() + 2 * DAY));
    const tooMuch = await finance.post(`/payments/${record.id}/reverse`, { amount: '99.01', reason: 'Charged too much', requestKey: randomUUID() });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.json.message).toBe(OPS_MESSAGES.tooMuch);
    const part = await finance.post(`/payments/${record.id}/reverse`, { amount: '49.50', reason: 'Half a month of trouble with the app', requestKey: randomUUID() });
    expect(part.status, part.json.message).toBe(200);
    expect(part.json.data).toEqual({ kind: 'refund', amount: '49.50', outcome: 'SUCCEEDED' });
    expect(await sandboxOf(record.reference_id)).toEqual([{ status: 'PAYMENT_SUCCESS', refunded: '49.50' }]);
    expect((await server.db.query<{ status: string }>('SELECT status FROM payment_records WHERE id = $1', [record.id])).rows[0]!.status).toBe('PAYMENT_SUCCESS');
    expect(await invariants()).toBe(5);
    // What is left: 49.50; more is refused, a second part within it is taken.
    const userId = (await server.db.query<{ user_id: string }>('SELECT user_id FROM payment_records WHERE id = $1', [record.id])).rows[0]!.user_id;
    const timeline = (await finance.get(`/viewers/${userId}`)).json.data;
    expect(timeline.payments.find((p: { id: string }) => p.id === record.id).reversible).toMatchObject({ kind: 'refund', maxAmount: '49.50' });
    expect((await finance.post(`/payments/${record.id}/reverse`, { amount: '49.51', reason: 'A little more', requestKey: randomUUID() })).json.message).toBe(OPS_MESSAGES.tooMuch);
    const second = await finance.post(`/payments/${record.id}/reverse`, { amount: '20.00', reason: 'And some more goodwill', requestKey: randomUUID() });
    expect(second.status, second.json.message).toBe(200);
    expect(await sandboxOf(record.reference_id)).toEqual([{ status: 'PAYMENT_SUCCESS', refunded: '69.50' }]);
    const last = await finance.post(`/payments/${record.id}/reverse`, { amount: '29.50', reason: 'Refund the rest', requestKey: randomUUID() });
    expect(last.status, last.json.message).toBe(200);
    expect(await sandboxOf(record.reference_id)).toEqual([{ status: 'REFUNDED', refunded: '99.00' }]);
    expect((await server.db.query<{ status: string }>('SELECT status FROM payment_records WHERE id = $1', [record.id])).rows[0]!.status).toBe('REFUNDED');
    const memos = await server.db.query<{ total: string; vat: string }>(
      `SELECT total::text AS total, vat::text AS vat FROM tax_documents WHERE payment_record_id = $1 AND kind = 'CREDIT_MEMO' ORDER BY serial`, [record.id],
    );
    expect(memos.rows).toEqual([{ total: '49.50', vat: '5.30' }, { total: '20.00', vat: '2.14' }, { total: '29.50', vat: '3.16' }]);
    expect((await finance.post(`/payments/${record.id}/reverse`, { amount: '1.00', reason: 'Nothing is left', requestKey: randomUUID() })).status).toBe(409);
    expect(await invariants()).toBe(5);
  });

  it("refuses beyond Maya's 180 days, with the words the console shows, and writes nothing", async () => {
    const bought = await server.freezeClock();
    const record = await buyMonthlyByCard();
    await server.setClock(new Date(bought.getTime() + 181 * DAY));
    const before = await auditCount();
    const late = await finance.post(`/payments/${record.id}/reverse`, { amount: '99.00', reason: 'Asked far too late', requestKey: randomUUID() });
    expect(late.status).toBe(409);
    expect(late.json.message).toBe("Maya refunds a payment only within 180 days. Refund it by hand from Maya's manager.");
    expect(await auditCount()).toBe(before);
    expect(await sandboxOf(record.reference_id)).toEqual([{ status: 'PAYMENT_SUCCESS', refunded: '0.00' }]);
  });

  it('a void is whole: part of a payment on its day is refused', async () => {
    await server.freezeClock();
    const record = await buyMonthlyByCard();
    const part = await finance.post(`/payments/${record.id}/reverse`, { amount: '10.00', reason: 'Only a part, please', requestKey: randomUUID() });
    expect(part.status).toBe(400);
    expect(part.json.message).toBe(OPS_MESSAGES.voidFullOnly);
  });

  it('Maya down: a clean 502, nothing given back, no audit entry, and the same confirmation can try again', async () => {
    await server.freezeClock();
    const record = await buyMonthlyByCard();
    const before = await auditCount();
    const key = randomUUID();
    await server.db.exec('ALTER TABLE sandbox_payments RENAME TO sandbox_payments_offline');
    let down;
    try {
      down = await finance.post(`/payments/${record.id}/reverse`, { amount: '99.00', reason: 'Charged twice', requestKey: key });
    } finally {
      await server.db.exec('ALTER TABLE sandbox_payments_offline RENAME TO sandbox_payments');
    }
    expect(down.status).toBe(502);
    expect(down.json).toEqual({ success: false, message: 'Maya could not be reached. Nothing was changed; please try again.', data: null });
    expect(await auditCount()).toBe(before);
    const retried = await finance.post(`/payments/${record.id}/reverse`, { amount: '99.00', reason: 'Charged twice', requestKey: key });
    expect(retried.status, retried.json.message).toBe(200);
    expect(await auditCount()).toBe(before + 1);
    expect(await invariants()).toBe(5);
  });
});

describe('subscription actions', () => {
  const premiumSubscription = async () => (await latestSubscription(server, PREMIUM)).id as string;

  it('extend: support up to 7 days, finance up to 366; one audit entry each, none when refused', async () => {
    await server.freezeClock();
    const id = await premiumSubscription();
    const end = (await latestSubscription(server, PREMIUM)).end_date as Date;
    const before = await auditCount();
    const refused = await support.post(`/subscriptions/${id}/extend`, { days: 8, reason: 'Outage last week' });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toBe(OPS_MESSAGES.extendTooLong);
    expect(await auditCount()).toBe(before);
    const seven = await support.post(`/subscriptions/${id}/extend`, { days: 7, reason: 'Outage last week' });
    expect(seven.status, seven.json.message).toBe(200);
    expect(seven.json.data.endDate).toBe(new Date(end.getTime() + 7 * DAY).toISOString());
    const more = await finance.post(`/subscriptions/${id}/extend`, { days: 30, reason: 'Partner promotion' });
    expect(more.json.data.endDate).toBe(new Date(end.getTime() + 37 * DAY).toISOString());
    expect(await auditCount('subscription.extend')).toBeGreaterThanOrEqual(2);
    expect(await auditCount()).toBe(before + 2);
    const noReason = await support.post(`/subscriptions/${id}/extend`, { days: 1, reason: 'x' });
    expect(noReason.status).toBe(400);
    expect(noReason.json.message).toBe(OPS_MESSAGES.reasonRequired);
    expect(await auditCount()).toBe(before + 2);
  });

  it('cancel at period end keeps access; cancel now ends it; a second cancel is refused without an entry', async () => {
    await server.freezeClock();
    const id = await premiumSubscription();
    const before = await auditCount();
    const atEnd = await support.post(`/subscriptions/${id}/cancel`, { when: 'period_end', reason: 'Viewer asked by email' });
    expect(atEnd.status, atEnd.json.message).toBe(200);
    expect(atEnd.json.data.subscription).toMatchObject({ status: 'CANCELED', cancelReason: 'Canceled by support' });
    const now = await support.post(`/subscriptions/${id}/cancel`, { when: 'now', reason: 'Viewer asked to stop at once' });
    expect(now.json.data.subscription).toMatchObject({ status: 'EXPIRED', cancelReason: 'Canceled now by support' });
    const again = await support.post(`/subscriptions/${id}/cancel`, { when: 'now', reason: 'Pressed again' });
    expect(again.status).toBe(409);
    expect(await auditCount()).toBe(before + 2);
    expect(await invariants()).toBe(5);
  });

  it('dunning stopped: the engine charges no retry (renewals.ts honours it); resumed, it does; an operator retry charges once', async () => {
    const { deps } = faultyGateway(server);
    const id = await premiumSubscription();
    const end = (await latestSubscription(server, PREMIUM)).end_date as Date;
    await setCard(server, 'DECLINE');
    await server.setClock(new Date(end.getTime() + 60_000));
    expect(await renewSubscription(deps, id)).toBe('failed');
    const pastDue = await latestSubscription(server, PREMIUM);
    expect(pastDue.status).toBe('PAST_DUE');
    const stop = await support.post(`/subscriptions/${id}/dunning`, { stopped: true, reason: 'Viewer is changing banks' });
    expect(stop.status, stop.json.message).toBe(200);
    expect(stop.json.data.subscription).toMatchObject({ dunningStopped: true, nextRetryAt: null });
    await server.setClock(new Date(end.getTime() + 2 * DAY));
    expect((await dueWork(server.db, new Date(end.getTime() + 2 * DAY))).renew).not.toContain(id);
    expect(await renewSubscription(deps, id)).toBe('skipped');
    const queue = await support.get('/queues');
    expect(queue.json.data.pastDue.find((r: { subscriptionId: string }) => r.subscriptionId === id)).toMatchObject({ dunningStopped: true, attempts: 1 });
    // An operator's retry while stopped: the card now approves; one charge for the period.
    await setCard(server, 'APPROVE');
    const retry = await support.post(`/subscriptions/${id}/retry`, { reason: 'Viewer says the card works now' });
    expect(retry.status, retry.json.message).toBe(200);
    expect(retry.json.data.outcome).toBe('CHARGED');
    const twice = await support.post(`/subscriptions/${id}/retry`, { reason: 'Pressed again' });
    expect(twice.status).toBe(409);
    const charged = await server.db.query(`SELECT 1 FROM sandbox_payments WHERE status = 'PAYMENT_SUCCESS'`);
    expect(charged.rows).toHaveLength(1);
    expect(await invariants()).toBe(5);
  });

  it('resume: the retries come back on schedule', async () => {
    const { deps } = faultyGateway(server);
    const id = await premiumSubscription();
    const end = (await latestSubscription(server, PREMIUM)).end_date as Date;
    await setCard(server, 'DECLINE');
    await server.setClock(new Date(end.getTime() + 60_000));
    expect(await renewSubscription(deps, id)).toBe('failed');
    await support.post(`/subscriptions/${id}/dunning`, { stopped: true, reason: 'Hold the retries' });
    await support.post(`/subscriptions/${id}/dunning`, { stopped: false, reason: 'Go on with the retries' });
    await server.setClock(new Date(end.getTime() + 2 * DAY));
    expect((await dueWork(server.db, new Date(end.getTime() + 2 * DAY))).renew).toContain(id);
    expect(await auditCount('subscription.dunning')).toBeGreaterThanOrEqual(2);
  });
});

describe('records and mails', () => {
  it('resolve runs the reconciler on a record; resend mails the same text to the current address', async () => {
    await server.freezeClock();
    const record = await buyMonthlyByCard();
    const resolved = await support.post(`/records/${record.id}/resolve`, { reason: 'Viewer says it shows pending' });
    expect(resolved.status, resolved.json.message).toBe(200);
    expect(resolved.json.data).toEqual({ decision: 'UNCHANGED', status: 'PAYMENT_SUCCESS' });
    const userId = (await server.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [FREE])).rows[0]!.id;
    const timeline = await support.get(`/viewers/${userId}`);
    const mail = timeline.json.data.mails[0];
    expect(mail.subject).toMatch(/Sine Bisaya/);
    const before = await auditCount('mail.resend');
    const resent = await support.post(`/mails/${mail.id}/resend`, { reason: 'Viewer did not get the invoice' });
    expect(resent.status, resent.json.message).toBe(200);
    expect(resent.json.data.to).toBe(FREE);
    const sent = await server.db.query<{ subject: string }>('SELECT subject FROM mailbox WHERE to_email = $1 ORDER BY id DESC LIMIT 1', [FREE]);
    expect(sent.rows[0]!.subject).toBe(mail.subject);
    expect(await auditCount('mail.resend')).toBe(before + 1);
    expect((await support.post('/mails/999999999/resend', { reason: 'No such mail' })).status).toBe(404);
    expect(await auditCount('mail.resend')).toBe(before + 1);
  });
});

describe('the audit log', () => {
  it('refuses UPDATE and DELETE', async () => {
    await support.post(`/subscriptions/${(await latestSubscription(server, PREMIUM)).id}/extend`, { days: 1, reason: 'A day for the trouble' });
    const id = (await server.db.query<{ id: string }>('SELECT max(id)::text AS id FROM audit_log')).rows[0]!.id;
    await expect(server.db.query(`UPDATE audit_log SET reason = 'edited' WHERE id = $1`, [id])).rejects.toThrow(/append-only/);
    await expect(server.db.query('DELETE FROM audit_log WHERE id = $1', [id])).rejects.toThrow(/append-only/);
    expect((await server.db.query<{ reason: string }>('SELECT reason FROM audit_log WHERE id = $1', [id])).rows[0]!.reason).toBe('A day for the trouble');
  });

  it('is searchable, newest first, 50 a page', async () => {
    const id = (await latestSubscription(server, PREMIUM)).id;
    for (let i = 0; i < 3; i++) await support.post(`/subscriptions/${id}/extend`, { days: 1, reason: `Goodwill day ${i} for the outage` });
    const found = await support.get('/audit?q=goodwill%20day');
    expect(found.json.data.entries.map((e: { reason: string }) => e.reason)).toEqual(['Goodwill day 2 for the outage', 'Goodwill day 1 for the outage', 'Goodwill day 0 for the outage']);
    const page = await support.get('/audit');
    expect(page.json.data.entries.length).toBeLessThanOrEqual(50);
    if (page.json.data.nextCursor) {
      const next = await support.get(`/audit?cursor=${page.json.data.nextCursor}`);
      expect(Number(next.json.data.entries[0].id)).toBeLessThan(Number(page.json.data.entries.at(-1).id));
    }
  });
});
