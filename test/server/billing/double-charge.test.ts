/**
 * Money is never taken twice (issue 17): at most one payment in flight per viewer whatever the plan or
 * method, and a success that would pay for time already paid is voided or refunded and recorded,
 * never stacked. The probes of the issue: ten parallel card purchases for two plans, and a checkout
 * left open while buying another plan.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reverseAttempt } from '../../../server/billing/reversals';
import type { Gateway, MayaPayment } from '../../../server/gateway/maya';
import { SERVER_START_TIMEOUT_MS, startBillingServer, type BillingServer } from '../support/billing-helpers';
import { CONSENT } from '../support/consent';

let server: BillingServer;
beforeAll(async () => {
  server = await startBillingServer();
}, SERVER_START_TIMEOUT_MS);
beforeEach(async () => {
  await server.reset();
  await server.db.exec('DELETE FROM saved_cards WHERE customer_id IS NOT NULL; DELETE FROM wallet_links; DELETE FROM maya_customers;');
});

const FREE = 'free@example.com';
const form = (body: string) => ({ method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body });

async function verifiedCard(number = '5123456789012346') {
  const saved = await server.as(FREE).post('/payment/vault/cards', { number, expMonth: '12', expYear: '2099', cvc: '123', isDefault: true });
  expect(saved.status, saved.json.message).toBe(200);
  const pressed = await server.app.request(saved.json.data.verificationUrl, form('action=approve'));
  await server.app.request(pressed.headers.get('Location')!);
  return saved.json.data.cardTokenId as string;
}

const successes = async (email: string) =>
  (await server.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM sandbox_payments p JOIN payment_records r ON r.reference_id = p.request_reference_number
     JOIN users u ON u.id = r.user_id WHERE u.email = $1 AND p.status = 'PAYMENT_SUCCESS'`,
    [email],
  )).rows[0]!.n;
const liveSubscriptions = async (email: string) =>
  (await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.email = $1 AND s.status = 'ACTIVE' AND s.end_date > $2`, [
    email, await server.clock(),
  ])).rows[0]!.n;
const recordsOf = async (email: string) => (await server.as(email).get('/payment/history')).json.data as Array<{ status: string; paymentMethod: string }>;

describe('one payment in flight per viewer', () => {
  it('ten parallel card purchases, five per plan: one charge, one subscription', async () => {
    const cardToken = await verifiedCard();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => server.as(FREE).post('/payment/vault/create', { ...CONSENT, planId: (i % 2) + 1, cardToken })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    expect(await successes(FREE)).toBe(1);
    expect(await liveSubscriptions(FREE)).toBe(1);
  });

  it('a card purchase supersedes a checkout left open; the checkout paid anyway is given back: one charge kept', async () => {
    const cardToken = await verifiedCard();
    const checkout = await server.as(FREE).post('/payment/checkout/create', { planId: 1 });
    const card = await server.as(FREE).post('/payment/vault/create', { ...CONSENT, planId: 2, cardToken });
    expect(card.status, card.json.message).toBe(200);
    await server.app.request(checkout.json.data.paymentLink, form('action=approve'));
    expect(await successes(FREE)).toBe(1);
    expect(await liveSubscriptions(FREE)).toBe(1);
    expect((await server.as(FREE).get('/subscription/status')).json.data).toMatchObject({ planId: 2, paymentMethod: 'MAYA_VAULT' });
    expect((await recordsOf(FREE)).map((r) => r.status).slice(0, 2).sort()).toEqual(['PAYMENT_SUCCESS', 'VOIDED']);
  });
});

describe('a success that pays for nothing is given back', () => {
  it('paid while the viewer already has a paid period (a voucher redeemed meanwhile): voided, recorded, not stacked', async () => {
    await server.freezeClock();
    const checkout = await server.as(FREE).post('/payment/checkout/create', { planId: 2 });
    expect((await server.as(FREE).post('/subscription-voucher/redeem', { code: 'SUGBO365' })).status).toBe(200);
    const before = (await server.as(FREE).get('/subscription/status')).json.data;
    await server.app.request(checkout.json.data.paymentLink, form('action=approve'));
    const after = (await server.as(FREE).get('/subscription/status')).json.data;
    expect(after).toMatchObject({ subscriptionId: before.subscriptionId, endDate: before.endDate, paymentMethod: 'VOUCHER' });
    expect((await recordsOf(FREE))[0]).toMatchObject({ status: 'VOIDED', paymentMethod: 'MAYA_CHECKOUT' });
    const atMaya = await server.db.query<{ status: string }>(`SELECT status FROM sandbox_payments WHERE kind = 'CHECKOUT' ORDER BY created_at DESC LIMIT 1`);
    expect(atMaya.rows[0]!.status).toBe('VOIDED');
  });

  it('paid after the attempt was written off, with nothing else paid: the period it bought is given (never money without a period)', async () => {
    const checkout = await server.as(FREE).post('/payment/checkout/create', { planId: 1 });
    await server.db.query(`UPDATE payment_records SET status = 'PAYMENT_EXPIRED' WHERE status = 'PENDING'`);
    await server.app.request(checkout.json.data.paymentLink, form('action=approve'));
    expect((await server.as(FREE).get('/subscription/status')).json.data.planType).toBe('PREMIUM');
    expect((await recordsOf(FREE))[0]).toMatchObject({ status: 'PAYMENT_SUCCESS' });
    expect(await successes(FREE)).toBe(1);
    expect(await liveSubscriptions(FREE)).toBe(1);
  });

  it('refunds when Maya no longer allows a void, and does it once whoever asks', async () => {
    const user = (await server.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [FREE])).rows[0]!.id;
    const at = await server.clock();
    await server.db.query(
      `INSERT INTO payment_records (user_id, plan_id, reference_id, status, amount, total_amount, payment_method, created_at, updated_at)
       VALUES ($1, 1, 'SB-DUPLICATE-1', 'REVERSAL_DUE', 99, 99, 'MAYA_VAULT', $2, $2)`,
      [user, at],
    );
    const calls: string[] = [];
    const paid: MayaPayment = {
      id: 'pay-1', isPaid: true, status: 'PAYMENT_SUCCESS', amount: 99, currency: 'PHP', requestReferenceNumber: 'SB-DUPLICATE-1', canVoid: false, canRefund: true,
      createdAt: at.toISOString(), updatedAt: at.toISOString(),
    };
    const gateway = {
      getPaymentsByReference: async () => [paid],
      voidPayment: async () => {
        calls.push('void');
        return { status: 'SUCCESS' };
      },
      refundPayment: async (_id: string, body: { totalAmount: { amount: number } }) => {
        calls.push(`refund ${body.totalAmount.amount}`);
        return { status: 'SUCCESS' };
      },
    } as unknown as Gateway;
    const record = (await server.db.query<{ id: string }>(`SELECT id FROM payment_records WHERE reference_id = 'SB-DUPLICATE-1'`)).rows[0]!.id;
    // The ledger's charge that pays nothing, marked to be given back.
    const charge = (
      await server.db.query<{ id: string }>(
        `INSERT INTO gateway_attempts (record_id, kind, reference_id, maya_id, amount, outcome, reversal_due, created_at)
         VALUES ($1, 'CARD', 'SB-DUPLICATE-1', 'pay-1', 99, 'SUCCEEDED', true, $2) RETURNING id`,
        [record, at],
      )
    ).rows[0]!.id;
    const results = await Promise.all([1, 2, 3].map(() => reverseAttempt({ db: server.db, gateway, log: () => {} }, charge)));
    expect(results.filter((r) => r === 'reversed')).toHaveLength(1);
    expect(calls).toEqual(['refund 99']);
    expect((await server.db.query<{ status: string }>('SELECT status FROM payment_records WHERE id = $1', [record])).rows[0]!.status).toBe('REFUNDED');
    // The refund is itself in the ledger, naming the charge it gives back.
    expect((await server.db.query<{ kind: string; outcome: string }>('SELECT kind, outcome FROM gateway_attempts WHERE reverses = $1', [charge])).rows).toEqual([{ kind: 'REFUND', outcome: 'SUCCEEDED' }]);
  });
});

describe('cards are usable once verified', () => {
  it('an unverified card is neither charged nor the default; verification makes it the default as asked', async () => {
    const saved = await server.as(FREE).post('/payment/vault/cards', { number: '5123456789012346', expMonth: '12', expYear: '2099', cvc: '123', isDefault: true });
    const cardToken = saved.json.data.cardTokenId as string;
    expect((await server.as(FREE).get('/payment/vault/cards/default')).json.data).toBeNull();
    const early = await server.as(FREE).post('/payment/vault/create', { ...CONSENT, planId: 1, cardToken });
    expect(early.status).toBe(400);
    expect(early.json.message).toBe('Please confirm this card with your bank first.');
    // The return address alone proves nothing: Maya is asked, and the card is still PRE_VERIFICATION there.
    const reference = (await server.db.query<{ verification_ref: string }>('SELECT verification_ref FROM saved_cards WHERE card_token_id = $1', [cardToken])).rows[0]!.verification_ref;
    const forged = await server.app.request(`/api/v1/mobile/payment/cards/return/${reference}?outcome=success`);
    expect(forged.headers.get('Location')).toBe('http://localhost/subscription/change-payment-method?card=failed');
    expect((await server.as(FREE).get('/payment/vault/cards/default')).json.data).toBeNull();
    await server.app.request(saved.json.data.verificationUrl, form('action=approve'));
    const back = await server.app.request(`/api/v1/mobile/payment/cards/return/${reference}?outcome=success`);
    // The card confirmed is named, so the page carries on with it (saves it) without a second press.
    expect(back.headers.get('Location')).toBe(`http://localhost/subscription/change-payment-method?card=verified&card-id=${encodeURIComponent(cardToken)}`);
    expect((await server.as(FREE).get('/payment/vault/cards/default')).json.data).toMatchObject({ cardTokenId: cardToken, state: 'VERIFIED', default: true });
  });

  it('a card saved without “default” never becomes the default', async () => {
    const saved = await server.as(FREE).post('/payment/vault/cards', { number: '5123456789012346', expMonth: '12', expYear: '2099', cvc: '123', isDefault: false });
    await server.app.request(saved.json.data.verificationUrl, form('action=approve'));
    const reference = (await server.db.query<{ verification_ref: string }>('SELECT verification_ref FROM saved_cards WHERE card_token_id = $1', [saved.json.data.cardTokenId])).rows[0]!.verification_ref;
    await server.app.request(`/api/v1/mobile/payment/cards/return/${reference}?outcome=success`);
    expect((await server.as(FREE).get('/payment/vault/cards/default')).json.data).toBeNull();
  });
});
