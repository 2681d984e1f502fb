import * as z from 'zod/mini';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { paymentRecordSchema, receiptSchema } from '../../../src/api/schemas';
import { recordPayment } from '../../../server/billing/payments';
import { SERVER_START_TIMEOUT_MS, startBillingServer, type BillingServer } from '../support/billing-helpers';

let server: BillingServer;
beforeAll(async () => {
  server = await startBillingServer();
}, SERVER_START_TIMEOUT_MS);
beforeEach(async () => {
  await server.reset();
});

const paymentsOf = async (email: string) => {
  const { status, json } = await server.as(email).get('/payment/history');
  expect(status, json.message).toBe(200);
  return z.array(z.strictObject(paymentRecordSchema.shape)).parse(json.data);
};

describe('payment history (ours: GET /api/v1/mobile/payment/history)', () => {
  it('lists the premium account’s card payments newest first: three paid, one declined and retried', async () => {
    const payments = await paymentsOf('premium@example.com');
    expect(payments.map((p) => [p.status, p.retryCount])).toEqual([
      ['PAYMENT_SUCCESS', 1],
      ['PAYMENT_FAILED', 0],
      ['PAYMENT_SUCCESS', 0],
      ['PAYMENT_SUCCESS', 0],
    ]);
    for (const p of payments) {
      expect(p).toMatchObject({ paymentMethod: 'MAYA_VAULT', planName: 'Monthly', amount: '99.00', discountedAmount: '0.00', totalAmount: '99.00', checkoutId: null });
      expect(p.referenceId).toMatch(/^SB-[0-9A-F]{12}$/);
      expect(JSON.stringify(p.gatewayResponse)).not.toMatch(/4123|1381/);
    }
    const created = payments.map((p) => new Date(p.createdAt).getTime());
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    expect(new Set(payments.map((p) => p.referenceId)).size).toBe(4);
    expect(payments[0]!.lastRetryDate).not.toBeNull();
  });

  it('lists the canceled account’s checkout payments, the abandoned one as expired', async () => {
    const payments = await paymentsOf('canceled@example.com');
    expect(payments.map((p) => p.status)).toEqual(['PAYMENT_SUCCESS', 'PAYMENT_SUCCESS', 'PAYMENT_EXPIRED']);
    expect(payments.every((p) => p.paymentMethod === 'MAYA_CHECKOUT' && p.checkoutId)).toBe(true);
    expect(payments[2]!.subscriptionId).toBeNull();
  });

  it('has one old payment for the free account and none for the voucher account', async () => {
    expect((await paymentsOf('free@example.com')).map((p) => p.status)).toEqual(['PAYMENT_SUCCESS']);
    expect(await paymentsOf('voucher@example.com')).toEqual([]);
  });

  it('shows only the viewer’s own payments', async () => {
    const premium = new Set((await paymentsOf('premium@example.com')).map((p) => p.id));
    for (const email of ['free@example.com', 'canceled@example.com']) {
      for (const p of await paymentsOf(email)) expect(premium.has(p.id), email).toBe(false);
    }
  });

  it('puts a payment recorded at the same fixed instant first, and computes the total from the discount', async () => {
    const at = await server.freezeClock();
    const user = (await server.db.query<{ id: string }>(`SELECT id FROM users WHERE email = 'voucher@example.com'`)).rows[0]!;
    for (const status of ['PAYMENT_FAILED', 'PENDING'] as const) {
      await server.db.transaction((tx) =>
        recordPayment(tx, { userId: user.id, planId: 2, status, amount: '990.00', discountedAmount: '198.00', paymentMethod: 'MAYA_WALLET', at }),
      );
    }
    const payments = await paymentsOf('voucher@example.com');
    expect(payments.map((p) => [p.status, p.totalAmount, p.planName, p.createdAt])).toEqual([
      ['PENDING', '792.00', 'Yearly', at.toISOString()],
      ['PAYMENT_FAILED', '792.00', 'Yearly', at.toISOString()],
    ]);
  });
});

describe('receipts (ours, issue 19: GET /api/v1/mobile/payment/receipts/:id)', () => {
  it('gives the viewer the receipt of a successful payment: merchant, who paid, plan, period, method, reference, date, amount', async () => {
    const payments = await paymentsOf('premium@example.com');
    const paid = payments.find((p) => p.status === 'PAYMENT_SUCCESS')!;
    const { status, json } = await server.as('premium@example.com').get(`/payment/receipts/${paid.id}`);
    expect(status, json.message).toBe(200);
    const receipt = z.strictObject(receiptSchema.shape).parse(json.data);
    expect(receipt).toMatchObject({
      id: paid.id, merchant: 'Sine Bisaya', referenceId: paid.referenceId, amount: '99.00', currency: 'PHP',
      planName: 'Monthly', paymentMethod: 'MAYA_VAULT', customerEmail: 'premium@example.com', paidAt: paid.createdAt,
    });
    expect(receipt.periodStart).not.toBeNull();
    // The card that paid, not just 'Card' (review finding 19); a purchase, not a renewal.
    expect(receipt).toMatchObject({ card: { type: 'Visa', last4: '1381' }, renewal: false });
    expect(Date.parse(receipt.periodEnd!)).toBeGreaterThan(Date.parse(receipt.periodStart!));
  });

  it('answers another viewer’s payment, an unpaid one, an unknown or malformed id alike (404), and a guest 401', async () => {
    const payments = await paymentsOf('premium@example.com');
    const paid = payments.find((p) => p.status === 'PAYMENT_SUCCESS')!;
    const declined = payments.find((p) => p.status === 'PAYMENT_FAILED')!;
    const answers = await Promise.all([
      server.as('free@example.com').get(`/payment/receipts/${paid.id}`),
      server.as('premium@example.com').get(`/payment/receipts/${declined.id}`),
      server.as('premium@example.com').get('/payment/receipts/00000000-0000-4000-8000-000000000000'),
      server.as('premium@example.com').get('/payment/receipts/not-a-uuid'),
    ]);
    for (const answer of answers) expect([answer.status, answer.json.message]).toEqual([404, 'We could not find a receipt for this payment.']);
    expect((await server.app.request(`/api/v1/mobile/payment/receipts/${paid.id}`)).status).toBe(401);
  });
});
