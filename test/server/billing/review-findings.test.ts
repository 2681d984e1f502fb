/**
 * Review of issue 32 ("money exactly once at every seam"): each test shows one defect found by reading
 * server/billing at 1f1f44e. They drive the real server (PGlite) and its sandbox as seams.test.ts does
 * and assert what docs/product.md#money-seams decides; each failed when written.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { payRenewal } from '../../../server/billing/renewNow';
import { renewalReference, renewSubscription, type RenewalDeps } from '../../../server/billing/renewals';
import { DAY_MS, SERVER_START_TIMEOUT_MS, type BillingServer } from '../support/billing-helpers';
import {
  attemptsFor, BY_REFERENCE, CANCELED, CARD_PAYMENT, deliverWebhook, expectMoneyInvariant, FREE, faultyGateway, keptCharges, latestSubscription,
  newRecords, onHostedPage, PREMIUM, resetSeams, SEED_CARD, setCard, startSeamsServer, userId, verifiedCard,
  at, HOUR, MINUTE, reconcileAt as reconcileAtFor,
} from '../support/seams-harness';
import { addBillingPeriod } from '../../../server/billing/periods';
import { buyWithCard } from '../../../server/billing/purchase';
import { CONSENT, CONSENTED } from '../support/consent';

let server: BillingServer;
let deps: RenewalDeps;
const CREATE_CHECKOUT = /^\/checkout\/v1\/checkouts$/;

beforeAll(async () => {
  ({ server, deps } = await startSeamsServer());
}, SERVER_START_TIMEOUT_MS);
beforeEach(() => resetSeams(server));

const statusOf = async (email: string) => (await server.as(email).get('/subscription/status')).json.data;
const reconcileAt = (when: Date) => reconcileAtFor(server, deps, when);

/* ------------------------------------------------------------------------------------------------ */

describe('F1: a renewal the bank asked to confirm (3-D Secure), confirmed afterwards', () => {
  it('pays its period when confirmed late ("a late success of it still pays the period", renewals.ts)', async () => {
    const sub = await latestSubscription(server, PREMIUM);
    const reference = renewalReference(sub.id, sub.end_date);
    await setCard(server, 'THREE_DS');
    await server.setClock(at(sub.end_date, MINUTE));
    expect(await renewSubscription(deps, sub.id)).toBe('failed'); // soft decline "Your bank asked to confirm the payment"
    const record = (await newRecords(server, PREMIUM)).find((r) => r.reference_id === reference)!;
    const link = (await server.db.query<{ payment_link: string }>('SELECT payment_link FROM payment_records WHERE id = $1', [record.id])).rows[0]!.payment_link;
    expect(link).toContain('/pages/3ds/');

    // The viewer confirms with the bank five minutes later; Maya takes the money and sends its webhook.
    await server.setClock(at(sub.end_date, 6 * MINUTE));
    await onHostedPage(server, link, 'approve');
    const paid = (await server.db.query<{ id: string }>(`SELECT id FROM sandbox_payments WHERE status = 'PAYMENT_SUCCESS'`)).rows[0]!;
    expect((await deliverWebhook(server, paid.id)).status).toBe(200);
    await reconcileAt(at(sub.end_date, 20 * MINUTE));
    expect(await keptCharges(server)).toEqual(['99.00']);
    expect((await newRecords(server, PREMIUM)).find((r) => r.reference_id === reference)?.status, 'the confirmed payment pays the period').toBe('PAYMENT_SUCCESS');
    await expectMoneyInvariant(server);
  });

  it('is never charged a second time by the day-1 retry', async () => {
    const sub = await latestSubscription(server, PREMIUM);
    const reference = renewalReference(sub.id, sub.end_date);
    await setCard(server, 'THREE_DS');
    await server.setClock(at(sub.end_date, MINUTE));
    expect(await renewSubscription(deps, sub.id)).toBe('failed');
    const link = (await server.db.query<{ payment_link: string }>('SELECT payment_link FROM payment_records WHERE reference_id = $1', [reference])).rows[0]!.payment_link;
    await server.setClock(at(sub.end_date, 6 * MINUTE));
    await onHostedPage(server, link, 'approve');
    await setCard(server, 'APPROVE');

    await server.setClock(at(sub.end_date, DAY_MS + MINUTE));
    await renewSubscription(deps, sub.id);
    expect(await keptCharges(server), 'one period, one charge kept at Maya').toEqual(['99.00']);
  });
});

/* ------------------------------------------------------------------------------------------------ */

describe('F2: a voucher redeemed while a renewal more than 7 days late is being charged, and declined', () => {
  it('keeps the voucher days: the declined attempt does not end the subscription the voucher extended', async () => {
    const sub = await latestSubscription(server, PREMIUM);
    await setCard(server, 'DECLINE');
    await server.setClock(at(sub.end_date, 7 * DAY_MS + HOUR)); // within the 8-day grace: still charged once
    const voucherDuringCharge = faultyGateway(server).on({
      method: 'POST', path: CARD_PAYMENT, times: 1,
      before: async () => {
        const redeemed = await server.as(PREMIUM).post('/subscription-voucher/redeem', { code: 'SUGBO365' });
        expect(redeemed.status, redeemed.json.message).toBe(200);
      },
    });
    await renewSubscription(voucherDuringCharge.deps, sub.id);
    expect(await statusOf(PREMIUM), 'the viewer keeps the 365 days just redeemed').toMatchObject({ planType: 'PREMIUM', status: 'ACTIVE' });
    await expectMoneyInvariant(server);
  });
});

/* ------------------------------------------------------------------------------------------------ */

describe('F3: a Renew now whose process died before Maya answered the checkout', () => {
  it('(checkout subscription) is resolved by the reconciler, and Renew now works again', async () => {
    const sub = await latestSubscription(server, CANCELED);
    expect((await server.as(CANCELED).post('/subscription/resubscribe', { ...CONSENT, subscriptionId: sub.id })).status).toBe(200);
    const start = at(sub.end_date, -3 * DAY_MS + MINUTE);
    await server.setClock(start);
    let reached!: () => void;
    const atMaya = new Promise<void>((resolve) => (reached = resolve));
    const dying = faultyGateway(server).on({ method: 'POST', path: CREATE_CHECKOUT, fault: 'hang', times: 1, before: async () => reached() });
    void payRenewal(dying.deps, await userId(server, CANCELED), sub.id).catch(() => {});
    await atMaya;

    await reconcileAt(at(start, 2 * HOUR));
    expect((await newRecords(server, CANCELED)).map((r) => r.status), 'no record left PENDING for good').not.toContain('PENDING');
    // Renew now opens a new checkout for the period (the same record, PENDING again with its new page).
    const renew = await server.as(CANCELED).post('/payment/checkout/renew', { subscriptionId: sub.id });
    expect(renew.status, renew.json.message).toBe(200);
  });

  it('(PAST_DUE card subscription) does not stop the engine retrying it until it ends', async () => {
    const sub = await latestSubscription(server, PREMIUM);
    await setCard(server, 'DECLINE');
    await server.setClock(at(sub.end_date, MINUTE));
    expect(await renewSubscription(deps, sub.id)).toBe('failed');
    let reached!: () => void;
    const atMaya = new Promise<void>((resolve) => (reached = resolve));
    // Renew now on a PAST_DUE card subscription charges the card (product.md#pay-now): that charge dies mid-way.
    const dying = faultyGateway(server).on({ method: 'POST', path: CARD_PAYMENT, fault: 'hang', times: 1, before: async () => reached() });
    void payRenewal(dying.deps, await userId(server, PREMIUM), sub.id).catch(() => {});
    await atMaya;

    await reconcileAt(at(sub.end_date, 2 * HOUR));
    await setCard(server, 'APPROVE');
    await server.setClock(at(sub.end_date, DAY_MS + MINUTE));
    expect(await renewSubscription(deps, sub.id), 'the day-1 retry is made').toBe('renewed');
    await expectMoneyInvariant(server);
  });
});

/* ------------------------------------------------------------------------------------------------ */

describe('F4: a renewal given back because the viewer canceled while it was charged, then reactivated', () => {
  it('is charged at once after the reactivation (product.md#dunning-seams), not left PAST_DUE uncharged until it lapses', async () => {
    const sub = await latestSubscription(server, PREMIUM);
    await server.setClock(at(sub.end_date, MINUTE));
    const cancelDuringCharge = faultyGateway(server).on({
      method: 'POST', path: CARD_PAYMENT, times: 1,
      before: async () => {
        const canceled = await server.as(PREMIUM).post('/subscription/cancel', { subscriptionId: sub.id });
        expect(canceled.status, canceled.json.message).toBe(200);
      },
    });
    await renewSubscription(cancelDuringCharge.deps, sub.id); // the success pays for nothing: voided
    expect(await keptCharges(server)).toEqual([]);

    const back = await server.as(PREMIUM).post('/subscription/resubscribe', { ...CONSENT, subscriptionId: sub.id });
    expect(back.status, back.json.message).toBe(200);
    expect((await latestSubscription(server, PREMIUM)).status).toBe('PAST_DUE');
    expect(await renewSubscription(deps, sub.id), 'a reactivation is charged at once').toBe('renewed');
    expect(await keptCharges(server)).toEqual(['99.00']);
    await expectMoneyInvariant(server);
  });
});

/* ------------------------------------------------------------------------------------------------ */

describe("F5: a paid record's ten-minute look (a late duplicate, still voidable) survives the payment's own webhook", () => {
  it('a second success for a period already paid is voided at the ten-minute look, also when the first success webhook arrived', async () => {
    const sub = await latestSubscription(server, PREMIUM);
    const reference = renewalReference(sub.id, sub.end_date);
    await server.setClock(at(sub.end_date, MINUTE));
    expect(await renewSubscription(deps, sub.id)).toBe('renewed');
    // Maya sends its webhook for the success, as it always does.
    const first = (await server.db.query<{ id: string }>(`SELECT id FROM sandbox_payments WHERE status = 'PAYMENT_SUCCESS'`)).rows[0]!;
    expect((await deliverWebhook(server, first.id)).status).toBe(200);
    // A duplicate under the same reference (no idempotency key at Maya), whose webhook is lost.
    const customer = (await server.db.query<{ customer_id: string }>('SELECT customer_id FROM saved_cards WHERE card_token_id = $1', [SEED_CARD])).rows[0]!.customer_id;
    await deps.gateway.payWithCard(customer, SEED_CARD, {
      totalAmount: { amount: 99, currency: 'PHP' }, requestReferenceNumber: reference,
      redirectUrl: { success: 'http://localhost/subscription', failure: 'http://localhost/subscription', cancel: 'http://localhost/subscription' },
    });

    await reconcileAt(at(sub.end_date, 11 * MINUTE));
    expect((await attemptsFor(server, reference)).sort(), 'voided the same day, not refunded a day later').toEqual(['PAYMENT_SUCCESS', 'VOIDED']);
    await expectMoneyInvariant(server);
  });
});

/* ------------------------------------------------------------------------------------------------ */

describe('F6: a receipt is dated when Maya was paid', () => {
  it('a card purchase whose answer was lost, applied by the reconciler half an hour later, is dated at the charge', async () => {
    const card = await verifiedCard(server, FREE);
    const paidAt = await server.freezeClock();
    const lost = faultyGateway(server)
      .on({ method: 'POST', path: CARD_PAYMENT, forward: true, fault: 'timeout', times: 1 })
      .on({ method: 'GET', path: BY_REFERENCE, fault: 'timeout' });
    await buyWithCard(lost.deps, await userId(server, FREE), 1, card, CONSENTED).catch(() => null);
    await reconcileAt(at(paidAt, 30 * MINUTE));
    const record = (await newRecords(server, FREE)).find((r) => r.status === 'PAYMENT_SUCCESS')!;
    const page = await server.as(FREE).get(`/payment/receipts/${record.id}`);
    expect(page.status, page.json.message).toBe(200);
    expect(page.json.data.paidAt, "Maya's charge time").toBe(paidAt.toISOString());
  });
});

/* ------------------------------------------------------------------------------------------------ */

describe('F7: a plan change carries only time still paid (nothing from a PAST_DUE one)', () => {
  it('a PAST_DUE subscription canceled (its end date moved to the end of the grace) carries no grace days into the new plan', async () => {
    await setCard(server, 'DECLINE');
    const sub = await latestSubscription(server, PREMIUM);
    const changedAt = at(sub.end_date, MINUTE);
    await server.setClock(changedAt);
    expect(await renewSubscription(deps, sub.id)).toBe('failed');
    expect((await server.as(PREMIUM).post('/subscription/cancel', { subscriptionId: sub.id })).status).toBe(200);
    await setCard(server, 'APPROVE');
    const changed = await server.as(PREMIUM).post('/subscription/update-plan', { ...CONSENT, subscriptionId: sub.id, planId: 2 });
    expect(changed.status, changed.json.message).toBe(200);
    const now = await latestSubscription(server, PREMIUM);
    expect(now.end_date.toISOString(), 'a year from the change, no unpaid grace days added').toBe(addBillingPeriod(changedAt, 'year', 1).toISOString());
  });
});

// F8 (two payments of one viewer decided at once) needs PostgreSQL's concurrency: test/postgres/payments-race.test.ts.
