/**
 * Money at the seams (issue 32), the reconciler's part: what no viewer, engine run or webhook ever looks
 * at again must be resolved by a job. Written before the fix: on 1821c17 this file fails to load.
 *
 * ASSUMED API (does not exist at 1821c17):
 *   import { reconcile, settleFromWebhook } from '../../../server/billing/reconciler';
 *   reconcile(deps: RenewalDeps & { now?: Date }): Promise<unknown>
 * One pass of the reconciler job at the billing clock (`now`, else the server clock): resolves open
 * gateway attempts by reading Maya by reference number, expires PENDING records Maya holds nothing for
 * (after the hour the viewer is promised), and reverses (void the same Manila day, refund after) every
 * success that does not pay exactly one period, recording the reversal.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { settleFromWebhook } from '../../../server/billing/reconciler';
import { buyWithCard } from '../../../server/billing/purchase';
import { renewalReference, renewSubscription, type RenewalDeps } from '../../../server/billing/renewals';
import { SERVER_START_TIMEOUT_MS, type BillingServer } from '../support/billing-helpers';
import {
  attemptsFor, BY_REFERENCE, CARD_PAYMENT, expectMoneyInvariant, FREE, faultyGateway, keptCharges, latestSubscription, newRecords, PAYMENT_BY_ID,
  PREMIUM, SEED_CARD, userId, verifiedCard,
  resetSeams, startSeamsServer,
  at, HOUR, MINUTE, reconcileAt as reconcileAtFor,
} from '../support/seams-harness';
import { CONSENT, CONSENTED } from '../support/consent';

let server: BillingServer;
let deps: RenewalDeps;

beforeAll(async () => {
  ({ server, deps } = await startSeamsServer());
}, SERVER_START_TIMEOUT_MS);
beforeEach(() => resetSeams(server));

const statusOf = async (email: string) => (await server.as(email).get('/subscription/status')).json.data;
const reconcileAt = (when: Date) => reconcileAtFor(server, deps, when);

describe('the reconciler resolves what nobody else looks at again', () => {
  it('a purchase charged at Maya whose answer and webhook were both lost is applied', async () => {
    const card = await verifiedCard(server, FREE);
    const start = await server.freezeClock();
    const lost = faultyGateway(server)
      .on({ method: 'POST', path: CARD_PAYMENT, forward: true, fault: 'timeout', times: 1 })
      .on({ method: 'GET', path: BY_REFERENCE, fault: 'timeout' })
      .on({ method: 'GET', path: PAYMENT_BY_ID, fault: 'timeout' });
    await buyWithCard(lost.deps, await userId(server, FREE), 1, card, CONSENTED).catch(() => null);
    expect(await keptCharges(server)).toEqual(['99.00']);

    await reconcileAt(at(start, 2 * MINUTE));
    expect((await newRecords(server, FREE))[0]).toMatchObject({ status: 'PAYMENT_SUCCESS' });
    expect(await statusOf(FREE)).toMatchObject({ planType: 'PREMIUM', status: 'ACTIVE' });
    await expectMoneyInvariant(server);
  });

  it('a renewal left PENDING by an outage, whose subscription left the queue, is expired once Maya shows nothing for it', async () => {
    const sub = await latestSubscription(server, PREMIUM);
    await server.setClock(at(sub.end_date, MINUTE));
    const down = faultyGateway(server).on({ method: 'POST', path: CARD_PAYMENT, fault: 'timeout' });
    expect(await renewSubscription(down.deps, sub.id)).toBe('pending');
    const switched = await server.as(PREMIUM).post('/subscription/update-payment-method', { ...CONSENT, subscriptionId: sub.id, paymentMethod: 'MAYA_CHECKOUT' });
    expect(switched.status, switched.json.message).toBe(200);

    await reconcileAt(at(sub.end_date, 2 * HOUR));
    const record = (await newRecords(server, PREMIUM)).find((r) => r.reference_id === renewalReference(sub.id, sub.end_date));
    expect(record?.status).not.toBe('PENDING');
    const bought = await server.as(PREMIUM).post('/payment/vault/create', { ...CONSENT, planId: 1, cardToken: SEED_CARD });
    expect(bought.status, bought.json.message).toBe(200);
    await expectMoneyInvariant(server);
  });

  it('a purchase whose process died before Maya was reached is expired', async () => {
    const card = await verifiedCard(server, FREE);
    const start = await server.freezeClock();
    let reached!: () => void;
    const atMaya = new Promise<void>((resolve) => (reached = resolve));
    const dying = faultyGateway(server).on({ method: 'POST', path: CARD_PAYMENT, fault: 'hang', times: 1, before: async () => reached() });
    void buyWithCard(dying.deps, await userId(server, FREE), 1, card, CONSENTED).catch(() => {});
    await atMaya;

    await reconcileAt(at(start, 2 * HOUR));
    expect((await newRecords(server, FREE)).map((r) => r.status)).not.toContain('PENDING');
    await expectMoneyInvariant(server);
  });

  it('a second success for a period already paid, whose webhook was lost, is voided and recorded', async () => {
    const sub = await latestSubscription(server, PREMIUM);
    const reference = renewalReference(sub.id, sub.end_date);
    await server.setClock(at(sub.end_date, MINUTE));
    expect(await renewSubscription(deps, sub.id)).toBe('renewed');
    const customer = (await server.db.query<{ customer_id: string }>('SELECT customer_id FROM saved_cards WHERE card_token_id = $1', [SEED_CARD])).rows[0]!.customer_id;
    await deps.gateway.payWithCard(customer, SEED_CARD, {
      totalAmount: { amount: 99, currency: 'PHP' }, requestReferenceNumber: reference,
      redirectUrl: { success: 'http://localhost/subscription', failure: 'http://localhost/subscription', cancel: 'http://localhost/subscription' },
    });

    // A paid record is read at Maya again ten minutes after it was paid (still voidable that day).
    await reconcileAt(at(sub.end_date, 11 * MINUTE));
    expect((await attemptsFor(server, reference)).sort()).toEqual(['PAYMENT_SUCCESS', 'VOIDED']);
    await expectMoneyInvariant(server);
  });

  it('a reversal that failed when it was due is made by the next pass', async () => {
    await server.freezeClock();
    const checkout = await server.as(FREE).post('/payment/checkout/create', { planId: 2 });
    expect((await server.as(FREE).post('/subscription-voucher/redeem', { code: 'SUGBO365' })).status).toBe(200);
    await server.app.request(checkout.json.data.paymentLink, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'action=approve' });
    // Its webhook is handled while Maya refuses voids and refunds: the record stays REVERSAL_DUE.
    const refusing = faultyGateway(server)
      .on({ method: 'POST', path: /\/voids$/, fault: 500 })
      .on({ method: 'POST', path: /\/refunds$/, fault: 500 });
    const payment = (await server.db.query<{ id: string; request_reference_number: string }>(`SELECT id, request_reference_number FROM sandbox_payments WHERE kind = 'CHECKOUT'`)).rows[0]!;
    expect(payment.id).toBeTruthy();
    expect(await settleFromWebhook(refusing.deps, payment.request_reference_number)).toBe('REVERSAL_DUE');

    await reconcileAt(at(await server.clock(), 5 * MINUTE));
    expect((await newRecords(server, FREE))[0]).toMatchObject({ status: 'VOIDED' });
    await expectMoneyInvariant(server);
  });

  it('a record left open before the ledger existed (no attempt) is adopted and settled: expired when Maya holds nothing for it', async () => {
    const start = await server.freezeClock();
    const user = await userId(server, FREE);
    await server.db.query(
      `INSERT INTO payment_records (user_id, plan_id, reference_id, status, amount, total_amount, payment_method, created_at, updated_at, recheck_at)
       VALUES ($1, 1, 'SB-LEGACY-1', 'PENDING', 99, 99, 'MAYA_VAULT', $2, $2, now())`,
      [user, at(start, -HOUR)],
    );
    await reconcileAt(at(start, 5 * MINUTE));
    expect((await newRecords(server, FREE)).find((r) => r.reference_id === 'SB-LEGACY-1')).toMatchObject({ status: 'PAYMENT_EXPIRED' });
    const bought = await server.as(FREE).post('/payment/checkout/create', { planId: 1 });
    expect(bought.status, bought.json.message).toBe(200);
  });
});
