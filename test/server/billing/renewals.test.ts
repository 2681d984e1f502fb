/**
 * Renewals (issue 18): card and wallet subscriptions renew at their end date exactly once, failed
 * renewals are retried 1, 3, 5 and 7 days after the end date on one payment record and then end,
 * checkout, canceled and voucher subscriptions are never charged, and the engine runs it all from the
 * job queue as the billing clock makes it due.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startBillingEngine, type BillingEngine } from '../../../server/billing/engine';
import { dueWork, renewalReference, renewSubscription, type RenewalDeps } from '../../../server/billing/renewals';
import { defaultGatewayConfig } from '../../../server/gateway/config';
import { createMayaClient } from '../../../server/gateway/maya';
import { createMailer } from '../../../server/platform/mail';
import { DAY_MS, SERVER_START_TIMEOUT_MS, startBillingServer, type BillingServer } from '../support/billing-helpers';
import { CONSENT } from '../support/consent';

let server: BillingServer;
let deps: RenewalDeps;
const logs: string[] = [];
beforeAll(async () => {
  server = await startBillingServer();
  const gateway = createMayaClient({ ...defaultGatewayConfig(0), fetch: ((input: RequestInfo | URL, init?: RequestInit) => server.app.request(String(input), init)) as typeof fetch });
  deps = { db: server.db, gateway, log: (line) => logs.push(line), publicBaseUrl: 'http://localhost', mailer: createMailer(server.db, '') };
}, SERVER_START_TIMEOUT_MS);
beforeEach(async () => {
  await server.reset();
  // Maya's side forgets earlier tests' charges too (a period's reference is the same in every test).
  await server.db.exec(`DELETE FROM mailbox; DELETE FROM sandbox_payments; DELETE FROM sandbox_webhooks; UPDATE sandbox_cards SET behaviour = 'APPROVE' WHERE card_token_id = 'seed-card-premium'`);
});

const PREMIUM = 'premium@example.com';
const status = async (email: string) => (await server.as(email).get('/subscription/status')).json.data;
const premiumSub = async () =>
  (await server.db.query<{ id: string; end_date: Date; status: string; next_attempt_at: Date | null }>(
    `SELECT s.id, s.end_date, s.status, s.next_attempt_at FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.email = $1 ORDER BY s.start_date DESC LIMIT 1`,
    [PREMIUM],
  )).rows[0]!;
const chargesFor = async (reference: string) =>
  (await server.db.query<{ status: string }>('SELECT status FROM sandbox_payments WHERE request_reference_number = $1', [reference])).rows.map((r) => r.status);
const mailTo = async (email: string) => (await server.db.query<{ subject: string; body: string }>('SELECT subject, body FROM mailbox WHERE to_email = $1 ORDER BY id', [email])).rows;
const record = async (reference: string) =>
  (await server.db.query<{ status: string; retry_count: number; last_retry_date: Date | null }>('SELECT status, retry_count, last_retry_date FROM payment_records WHERE reference_id = $1', [reference])).rows;

describe('a card subscription at its end date', () => {
  it('renews exactly at the old end date, one charge, one receipt, PREMIUM throughout', async () => {
    const sub = await premiumSub();
    await server.setClock(new Date(sub.end_date.getTime() + 60_000));
    // Due, and still PREMIUM while the renewal is being charged.
    expect((await dueWork(server.db, await server.clock())).renew).toContain(sub.id);
    expect(await status(PREMIUM)).toMatchObject({ planType: 'PREMIUM', subscriptionId: sub.id });
    expect(await renewSubscription(deps, sub.id)).toBe('renewed');
    const now = await status(PREMIUM);
    expect(now).toMatchObject({ planType: 'PREMIUM', status: 'ACTIVE', paymentMethod: 'MAYA_VAULT' });
    expect(new Date(now.startDate).getTime()).toBe(sub.end_date.getTime()); // no gap, no overlap
    expect(new Date(now.endDate).getTime()).toBeGreaterThan(sub.end_date.getTime() + 27 * DAY_MS);
    const reference = renewalReference(sub.id, sub.end_date);
    expect(await chargesFor(reference)).toEqual(['PAYMENT_SUCCESS']);
    expect(await record(reference)).toEqual([expect.objectContaining({ status: 'PAYMENT_SUCCESS', retry_count: 0 })]);
    const history = (await server.as(PREMIUM).get('/subscription/history')).json.data as Array<{ status: string; startDate: string }>;
    expect(history[0]).toMatchObject({ status: 'ACTIVE', startDate: sub.end_date.toISOString() });
    expect(history[1]).toMatchObject({ status: 'EXPIRED' });
    const mails = await mailTo(PREMIUM);
    // The mail is the renewal's invoice's (issue 34): its number, and a link to the invoice page.
    const renewalRecord = (await server.db.query<{ id: string }>('SELECT id FROM payment_records WHERE reference_id = $1', [reference])).rows[0]!;
    const invoice = (await server.as(PREMIUM).get(`/payment/invoices/by-payment/${renewalRecord.id}`)).json.data as { id: string; number: string };
    expect(mails.map((m) => m.subject)).toEqual([`Sine Bisaya: invoice ${invoice.number} for your Monthly renewal`]);
    expect(mails[0]!.body).toContain(reference);
    expect(mails[0]!.body).toContain(`/subscription/invoices/${invoice.id}`);
    // The receipt page of the renewal's payment still opens (old links keep working).
    const receipt = (await server.as(PREMIUM).get(`/payment/receipts/${renewalRecord.id}`)).json.data as Record<string, unknown>;
    expect(receipt).toMatchObject({ referenceId: reference, amount: '99.00', planName: 'Monthly', periodStart: sub.end_date.toISOString() });
    // It names the card charged and says it was a renewal (review finding 19).
    expect(receipt).toMatchObject({ card: { type: 'Visa', last4: '1381' }, renewal: true });
    // Nothing more is due for this period.
    expect(await renewSubscription(deps, sub.id)).toBe('skipped');
  });

  it('ten renewals of one subscription at once charge once', async () => {
    const sub = await premiumSub();
    await server.setClock(new Date(sub.end_date.getTime() + 60_000));
    const results = await Promise.all(Array.from({ length: 10 }, () => renewSubscription(deps, sub.id)));
    expect(results.filter((r) => r === 'renewed')).toHaveLength(1);
    expect(await chargesFor(renewalReference(sub.id, sub.end_date))).toEqual(['PAYMENT_SUCCESS']);
    expect((await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.email = $1 AND s.status = 'ACTIVE'`, [PREMIUM])).rows[0]!.n).toBe(1);
  });

  it('the billing clock moved forward, back and forward again charges each period once', async () => {
    const sub = await premiumSub();
    const reference = renewalReference(sub.id, sub.end_date);
    await server.setClock(new Date(sub.end_date.getTime() + 60_000));
    expect(await renewSubscription(deps, sub.id)).toBe('renewed');
    // Back before the old end date: the paid period is not paid again, and nothing is due.
    await server.setClock(new Date(sub.end_date.getTime() - DAY_MS));
    expect((await dueWork(server.db, await server.clock())).renew).toEqual([]);
    expect(await renewSubscription(deps, sub.id)).toBe('skipped');
    expect(await status(PREMIUM)).toMatchObject({ planType: 'PREMIUM' });
    // Forward again past the old end date: still one charge for that period.
    await server.setClock(new Date(sub.end_date.getTime() + 2 * DAY_MS));
    expect((await dueWork(server.db, await server.clock())).renew).toEqual([]);
    expect(await chargesFor(reference)).toEqual(['PAYMENT_SUCCESS']);
    // Past the new period's end: the next period is its own charge, under its own reference.
    const renewed = await premiumSub();
    expect(renewed.id).not.toBe(sub.id);
    await server.setClock(new Date(renewed.end_date.getTime() + 60_000));
    expect((await dueWork(server.db, await server.clock())).renew).toEqual([renewed.id]);
    expect(await renewSubscription(deps, renewed.id)).toBe('renewed');
    expect(await chargesFor(renewalReference(renewed.id, renewed.end_date))).toEqual(['PAYMENT_SUCCESS']);
    expect(await chargesFor(reference)).toEqual(['PAYMENT_SUCCESS']);
  });

  it('the engine and the payment\'s webhook racing apply the outcome once', async () => {
    const sub = await premiumSub();
    const reference = renewalReference(sub.id, sub.end_date);
    await server.setClock(new Date(sub.end_date.getTime() + 60_000));
    expect(await renewSubscription(deps, sub.id)).toBe('renewed');
    // Maya's webhook for the same payment arrives (again and again, in parallel) after the engine applied it.
    const payment = (await server.db.query<{ id: string }>(`SELECT id FROM sandbox_payments WHERE request_reference_number = $1`, [reference])).rows[0]!;
    const { settleFromWebhook } = await import('../../../server/billing/reconciler');
    expect(payment.id).toBeTruthy();
    await Promise.all(Array.from({ length: 5 }, () => settleFromWebhook(deps, reference)));
    expect(await record(reference)).toEqual([expect.objectContaining({ status: 'PAYMENT_SUCCESS' })]);
    expect((await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.email = $1 AND s.start_date = $2`, [PREMIUM, sub.end_date])).rows[0]!.n).toBe(1);
    expect((await mailTo(PREMIUM)).filter((m) => m.subject.startsWith('Sine Bisaya: invoice'))).toHaveLength(1);
    expect((await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tax_documents d JOIN payment_records r ON r.id = d.payment_record_id WHERE r.reference_id = $1`, [reference])).rows[0]!.n).toBe(1);
  });

  it('a process killed after charging: the next run finds the charge at Maya and does not charge again', async () => {
    const sub = await premiumSub();
    await server.setClock(new Date(sub.end_date.getTime() + 60_000));
    const reference = renewalReference(sub.id, sub.end_date);
    // Maya's webhook for the charge is lost on the way (it goes nowhere), so only asking Maya can find it.
    await server.db.query(`INSERT INTO sandbox_webhooks (name, callback_url, created_at, updated_at) VALUES ('PAYMENT_SUCCESS', 'http://localhost/nowhere', now(), now())`);
    // The process that dies: it claims the period (its record, its lease), Maya charges the card, and
    // the answer never comes back to it.
    const dying: RenewalDeps = {
      ...deps,
      gateway: { ...deps.gateway, payWithCard: async (...args) => { await deps.gateway.payWithCard(...args); return new Promise<never>(() => {}); } },
    };
    void renewSubscription(dying, sub.id);
    await expect.poll(() => chargesFor(reference)).toEqual(['PAYMENT_SUCCESS']);
    // While its lease holds, nobody else charges; once it has run out, the next run asks Maya first.
    expect(await renewSubscription(deps, sub.id)).toBe('skipped');
    await server.db.query(`UPDATE payment_records SET gateway_response = jsonb_set(gateway_response, '{chargeClaimedAt}', '"2000-01-01T00:00:00.000Z"') WHERE reference_id = $1`, [reference]);
    expect(await renewSubscription(deps, sub.id)).toBe('renewed');
    expect(await chargesFor(reference)).toEqual(['PAYMENT_SUCCESS']);
  });

  it('a process killed before its charge reached Maya: once Maya is known to hold nothing, the period is charged, even with the billing clock standing still', async () => {
    const sub = await premiumSub();
    // QA's fixed clock (and the chaos test's) does not tick: a hold measured only by it would never pass.
    await server.setClock(new Date(sub.end_date.getTime() + 60_000));
    const reference = renewalReference(sub.id, sub.end_date);
    // The process that dies: its attempt is in the ledger, its call never leaves.
    const dying: RenewalDeps = { ...deps, gateway: { ...deps.gateway, payWithCard: () => new Promise<never>(() => {}) } };
    void renewSubscription(dying, sub.id);
    const attempts = async () => (await server.db.query<{ outcome: string }>('SELECT outcome FROM gateway_attempts WHERE reference_id = $1 ORDER BY seq', [reference])).rows.map((r) => r.outcome);
    await expect.poll(attempts).toEqual(['OPEN']);
    await server.db.query(`UPDATE payment_records SET gateway_response = jsonb_set(gateway_response, '{chargeClaimedAt}', '"2000-01-01T00:00:00.000Z"') WHERE reference_id = $1`, [reference]);
    // The lease is over, but the dead attempt is still open and Maya holds nothing yet: no charge beside it.
    expect(await renewSubscription(deps, sub.id)).toBe('pending');
    expect(await chargesFor(reference)).toEqual([]);
    // Later (real time), the reconciler finds nothing at Maya for it: never made.
    const { reconcile } = await import('../../../server/billing/reconciler');
    await server.db.query('UPDATE payment_records SET recheck_at = now() WHERE reference_id = $1', [reference]);
    await reconcile(deps, { realNow: new Date(Date.now() + 10 * 60_000) });
    expect((await attempts()).slice(0, 2)).toEqual(['NOT_MADE', 'NOT_MADE']);
    // The hold after the 'pending' run has passed in real time: the next run charges the period once.
    await server.db.query(`UPDATE payment_records SET gateway_response = jsonb_set(gateway_response, '{holdRealUntil}', to_jsonb(now() - interval '1 second')) WHERE reference_id = $1`, [reference]);
    expect(await renewSubscription(deps, sub.id)).toBe('renewed');
    expect(await chargesFor(reference)).toEqual(['PAYMENT_SUCCESS']);
  });
});

describe('a failed renewal', () => {
  it('is PAST_DUE with access kept, retried on days 1, 3, 5 and 7 on one record, then ends', async () => {
    await server.db.exec(`UPDATE sandbox_cards SET behaviour = 'DECLINE' WHERE card_token_id = 'seed-card-premium'`);
    const sub = await premiumSub();
    const reference = renewalReference(sub.id, sub.end_date);
    await server.setClock(new Date(sub.end_date.getTime() + 60_000));
    expect(await renewSubscription(deps, sub.id)).toBe('failed');
    expect(await premiumSub()).toMatchObject({ status: 'PAST_DUE', next_attempt_at: new Date(sub.end_date.getTime() + DAY_MS) });
    expect(await status(PREMIUM)).toMatchObject({ planType: 'PREMIUM', status: 'PAST_DUE' });
    expect((await mailTo(PREMIUM)).at(-1)!.subject).toBe('Sine Bisaya: your payment failed — update your payment method');
    expect((await mailTo(PREMIUM)).at(-1)!.body).toContain('http://localhost/subscription/change-payment-method');
    for (const [day, tries] of [[1, 1], [3, 2], [5, 3]] as const) {
      await server.setClock(new Date(sub.end_date.getTime() + day * DAY_MS + 60_000));
      expect((await dueWork(server.db, await server.clock())).renew).toContain(sub.id);
      expect(await renewSubscription(deps, sub.id)).toBe('failed');
      expect(await record(reference)).toEqual([expect.objectContaining({ status: 'PAYMENT_FAILED', retry_count: tries })]);
      expect(await status(PREMIUM)).toMatchObject({ planType: 'PREMIUM' });
    }
    await server.setClock(new Date(sub.end_date.getTime() + 7 * DAY_MS + 60_000));
    expect(await renewSubscription(deps, sub.id)).toBe('failed');
    expect(await record(reference)).toEqual([expect.objectContaining({ status: 'PAYMENT_FAILED', retry_count: 4 })]);
    expect((await premiumSub()).status).toBe('EXPIRED');
    // product.md#ended-unpaid: the Free answer says when Premium ended, and that its payment failed.
    expect(await status(PREMIUM)).toMatchObject({ planType: 'FREE', premiumEnded: { reason: 'PAYMENT_FAILED', date: (await server.clock()).toISOString() } });
    expect((await mailTo(PREMIUM)).at(-1)!.subject).toBe('Sine Bisaya: your Premium subscription has ended');
    expect(await chargesFor(reference)).toEqual(['PAYMENT_FAILED', 'PAYMENT_FAILED', 'PAYMENT_FAILED', 'PAYMENT_FAILED', 'PAYMENT_FAILED']);
  });

  it('a hard decline (the card is gone at Maya) is not retried automatically; a new card is charged at once', async () => {
    await server.db.exec(`UPDATE saved_cards SET customer_id = NULL WHERE card_token_id = 'seed-card-premium'`);
    try {
      const sub = await premiumSub();
      await server.setClock(new Date(sub.end_date.getTime() + 60_000));
      expect(await renewSubscription(deps, sub.id)).toBe('failed');
      expect(await premiumSub()).toMatchObject({ status: 'PAST_DUE', next_attempt_at: null });
      await server.setClock(new Date(sub.end_date.getTime() + 2 * DAY_MS));
      expect((await dueWork(server.db, await server.clock())).renew).not.toContain(sub.id);
      // The viewer puts the (working) card back: the charge is tried at once, for the period that began at the old end date.
      await server.db.exec(`UPDATE saved_cards SET customer_id = (SELECT customer_id FROM sandbox_cards WHERE card_token_id = 'seed-card-premium') WHERE card_token_id = 'seed-card-premium'`);
      const changed = await server.as(PREMIUM).post('/subscription/update-payment-method', { ...CONSENT, subscriptionId: sub.id, paymentMethod: 'MAYA_VAULT' });
      expect(changed.status, changed.json.message).toBe(200);
      // While PAST_DUE the answer says it is charged now, and when (the app waits for that attempt's outcome).
      expect(changed.json.message).toBe('Your payment method has been updated. We are charging it now for the overdue payment.');
      expect(changed.json.data).toEqual({ chargeAt: (await server.clock()).toISOString() });
      expect((await dueWork(server.db, await server.clock())).renew).toContain(sub.id);
      expect(await renewSubscription(deps, sub.id)).toBe('renewed');
      const now = await status(PREMIUM);
      expect(now).toMatchObject({ planType: 'PREMIUM', status: 'ACTIVE' });
      expect(new Date(now.startDate).getTime()).toBe(sub.end_date.getTime());
    } finally {
      await server.db.exec(`UPDATE saved_cards SET customer_id = (SELECT customer_id FROM sandbox_cards WHERE card_token_id = 'seed-card-premium') WHERE card_token_id = 'seed-card-premium'`);
    }
  });
});

describe('subscriptions that are never charged', () => {
  it('canceled, voucher and checkout subscriptions end at their end date with one notice; checkout is reminded 3 days before', async () => {
    const ends = (await server.db.query<{ email: string; id: string; end_date: Date; payment_method: string }>(
      `SELECT u.email, s.id, s.end_date, s.payment_method FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE s.status IN ('ACTIVE', 'CANCELED') AND s.end_date > now() ORDER BY u.email`,
    )).rows;
    const canceled = ends.find((r) => r.email === 'canceled@example.com')!;
    // canceled@ reactivates: an ACTIVE checkout subscription, reminded from 3 days before its end.
    expect((await server.as('canceled@example.com').post('/subscription/resubscribe', { ...CONSENT, subscriptionId: canceled.id })).status).toBe(200);
    await server.setClock(new Date(canceled.end_date.getTime() - 3 * DAY_MS + 60_000));
    const { remindCheckout, noticeEnd } = await import('../../../server/billing/renewals');
    const due = await dueWork(server.db, await server.clock());
    expect(due.remind).toEqual([canceled.id]);
    expect(await remindCheckout(deps, canceled.id)).toBe(true);
    expect(await remindCheckout(deps, canceled.id)).toBe(false);
    expect((await mailTo('canceled@example.com')).map((m) => m.subject)).toEqual([expect.stringMatching(/^Sine Bisaya: renew your Premium before /)]);
    // Past every end date: nothing of theirs is charged; each gets one end notice.
    const latest = Math.max(...ends.map((r) => r.end_date.getTime()));
    await server.setClock(new Date(latest + 60_000));
    const after = await dueWork(server.db, await server.clock());
    for (const row of ends.filter((r) => r.payment_method !== 'MAYA_VAULT')) {
      expect(after.renew).not.toContain(row.id);
      expect(after.notice).toContain(row.id);
      expect(await noticeEnd(deps, row.id)).toBe(true);
      expect(await noticeEnd(deps, row.id)).toBe(false);
    }
    expect(await status('voucher@example.com')).toMatchObject({ planType: 'FREE' });
    expect(await status('canceled@example.com')).toMatchObject({ planType: 'FREE' });
    expect((await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sandbox_payments`)).rows[0]!.n).toBe(0);
  });
});

describe('what the viewer is told', () => {
  it('a PAST_DUE subscription says why, when it is tried again and until when access lasts', async () => {
    await server.db.exec(`UPDATE sandbox_cards SET behaviour = 'DECLINE' WHERE card_token_id = 'seed-card-premium'`);
    const sub = await premiumSub();
    expect((await status(PREMIUM)).renewal).toBeUndefined();
    await server.setClock(new Date(sub.end_date.getTime() + 60_000));
    expect(await renewSubscription(deps, sub.id)).toBe('failed');
    expect((await status(PREMIUM)).renewal).toEqual({
      state: 'PAST_DUE',
      failure: expect.stringMatching(/declined/i),
      nextAttemptDate: new Date(sub.end_date.getTime() + DAY_MS).toISOString(),
      accessEndDate: new Date(sub.end_date.getTime() + 7 * DAY_MS).toISOString(),
    });
    const payments = (await server.as(PREMIUM).get('/payment/history')).json.data as Array<{ referenceId: string; retryCount: number; status: string }>;
    expect(payments.find((p) => p.referenceId === renewalReference(sub.id, sub.end_date))).toMatchObject({ status: 'PAYMENT_FAILED', retryCount: 0 });
    // Renew now on a PAST_DUE card subscription tries the card again at once (product.md#pay-now): still
    // declining, the viewer is told, and it is counted as a retry (a hosted checkout opened is not one).
    const retried = await server.as(PREMIUM).post('/payment/renewal/pay', { subscriptionId: sub.id });
    expect(retried.status, retried.json.message).toBe(402);
    expect(await record(renewalReference(sub.id, sub.end_date))).toEqual([expect.objectContaining({ status: 'PAYMENT_FAILED', retry_count: 1 })]);
    // The history's Active tab lists it: PAST_DUE is still Premium.
    expect((await server.as(PREMIUM).get('/subscription/history')).json.data[0]).toMatchObject({ id: sub.id, status: 'PAST_DUE' });
  });

  it('"Renew now" pays a checkout subscription\'s next period once, from 3 days before its end, starting at the old end date', async () => {
    const CANCELED = 'canceled@example.com';
    const sub = (await server.db.query<{ id: string; end_date: Date }>(
      `SELECT s.id, s.end_date FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.email = $1 AND s.status = 'CANCELED'`, [CANCELED],
    )).rows[0]!;
    expect((await server.as(CANCELED).post('/subscription/resubscribe', { ...CONSENT, subscriptionId: sub.id })).status).toBe(200);
    expect((await status(CANCELED)).renewal).toBeUndefined();
    const early = await server.as(CANCELED).post('/payment/checkout/renew', { subscriptionId: sub.id });
    expect([early.status, early.json.message]).toEqual([409, 'You can renew from 3 days before your subscription ends.']);

    await server.setClock(new Date(sub.end_date.getTime() - 3 * DAY_MS + 60_000));
    expect((await status(CANCELED)).renewal).toEqual({ state: 'DUE', dueDate: sub.end_date.toISOString() });
    // Pressed several times at once, or again after going back: one checkout for the period.
    const answers = await Promise.all(Array.from({ length: 5 }, () => server.as(CANCELED).post('/payment/checkout/renew', { subscriptionId: sub.id })));
    const links = new Set(answers.filter((a) => a.status === 200).map((a) => a.json.data.paymentLink as string));
    expect(answers.every((a) => a.status === 200 || a.status === 409), JSON.stringify(answers.map((a) => a.json.message))).toBe(true);
    expect(links.size).toBe(1);
    const [link] = [...links];
    expect((await server.as(CANCELED).post('/payment/checkout/renew', { subscriptionId: sub.id })).json.data.paymentLink).toBe(link);
    // Someone else's subscription answers like nothing to renew.
    expect((await server.as(PREMIUM).post('/payment/checkout/renew', { subscriptionId: sub.id })).status).toBe(409);

    await server.app.request(link!, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'action=approve' });
    const after = await status(CANCELED);
    expect(after).toMatchObject({ planType: 'PREMIUM', status: 'ACTIVE', paymentMethod: 'MAYA_CHECKOUT' });
    // product.md#renew-early: the period running now keeps its start; the paid one starts at the old end date.
    const runningStart = (await server.db.query<{ start_date: Date }>('SELECT start_date FROM subscriptions WHERE id = $1', [sub.id])).rows[0]!.start_date;
    expect(after.startDate).toBe(runningStart.toISOString());
    expect(after.nextPeriodStart).toBe(sub.end_date.toISOString());
    // The history: the running period ACTIVE until its end (not Expired), the paid one UPCOMING.
    const history = (await server.as(CANCELED).get('/subscription/history')).json.data as Array<{ id: string; status: string }>;
    expect(history.slice(0, 2).map((item) => [item.id, item.status])).toEqual([[after.subscriptionId, 'UPCOMING'], [sub.id, 'ACTIVE']]);
    expect(after.renewal).toBeUndefined();
    const reference = renewalReference(sub.id, sub.end_date);
    expect(await chargesFor(reference)).toEqual(['PAYMENT_SUCCESS']);
    // Its receipt says it paid the next period; a checkout names no card (review finding 19).
    const paid = (await server.db.query<{ id: string }>('SELECT id FROM payment_records WHERE reference_id = $1', [reference])).rows[0]!;
    expect((await server.as(CANCELED).get(`/payment/receipts/${paid.id}`)).json.data).toMatchObject({ renewal: true, card: null, periodEnd: after.endDate });
    // Paid: pressing it again opens nothing (the new period is far from its end).
    expect((await server.as(CANCELED).post('/payment/checkout/renew', { subscriptionId: sub.id })).status).toBe(409);
    expect((await server.as(CANCELED).post('/payment/checkout/renew', { subscriptionId: after.subscriptionId })).status).toBe(409);
    // The engine neither reminds nor ends the paid period's predecessor.
    expect((await dueWork(server.db, await server.clock())).remind).not.toContain(sub.id);
    await server.setClock(new Date(sub.end_date.getTime() + 60_000));
    expect((await dueWork(server.db, await server.clock())).notice).not.toContain(sub.id);
    expect(await status(CANCELED)).toMatchObject({ planType: 'PREMIUM', subscriptionId: after.subscriptionId });
    // Once it has started, the paid period is the plain current one.
    expect((await status(CANCELED)).nextPeriodStart).toBeUndefined();
    expect(((await server.as(CANCELED).get('/subscription/history')).json.data as Array<{ status: string }>).slice(0, 2).map((item) => item.status)).toEqual(['ACTIVE', 'EXPIRED']);
  });

  it('a card subscription has nothing to renew by hand', async () => {
    const sub = await premiumSub();
    await server.setClock(new Date(sub.end_date.getTime() - DAY_MS));
    const answer = await server.as(PREMIUM).post('/payment/checkout/renew', { subscriptionId: sub.id });
    expect([answer.status, answer.json.message]).toEqual([409, 'This subscription renews automatically; there is nothing to pay now.']);
    expect((await status(PREMIUM)).renewal).toBeUndefined();
  });
});

describe('the engine on the job queue', () => {
  let engine: BillingEngine | undefined;
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
  });

  it('renews premium@ within seconds of the billing clock passing its end date', async () => {
    engine = await startBillingEngine(deps, { sweepMs: 200, concurrency: 4 });
    const sub = await premiumSub();
    await server.setClock(new Date(sub.end_date.getTime() + 60_000));
    const reference = renewalReference(sub.id, sub.end_date);
    const deadline = Date.now() + 15_000;
    while ((await record(reference))[0]?.status !== 'PAYMENT_SUCCESS' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await record(reference)).toEqual([expect.objectContaining({ status: 'PAYMENT_SUCCESS' })]);
    expect(await chargesFor(reference)).toEqual(['PAYMENT_SUCCESS']);
    expect(new Date((await status(PREMIUM)).startDate).getTime()).toBe(sub.end_date.getTime());
  });
});
