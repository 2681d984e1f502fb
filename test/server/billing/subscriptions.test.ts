import * as z from 'zod/mini';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  planSchema,
  subscriptionHistoryItemSchema,
  subscriptionStatusDetailsSchema,
} from '../../../src/api/schemas';
import { paymentHistory } from '../../../server/billing/payments';
import { SUBSCRIPTION_MESSAGES, subscriptionHistory, subscriptionStatus } from '../../../server/billing/subscriptions';
import type { Db } from '../../../server/platform/db';
import { DAY_MS, SERVER_START_TIMEOUT_MS, startBillingServer, V1, type BillingServer } from '../support/billing-helpers';
import { CONSENT } from '../support/consent';

const PREMIUM = 'premium@example.com';
const CANCELED = 'canceled@example.com';
const FREE = 'free@example.com';
const VOUCHER = 'voucher@example.com';

let server: BillingServer;
beforeAll(async () => {
  server = await startBillingServer();
}, SERVER_START_TIMEOUT_MS);
beforeEach(async () => {
  await server.reset();
});

const statusOf = async (email: string) => {
  const { status, json } = await server.as(email).get('/subscription/status');
  expect(status, json.message).toBe(200);
  return z.strictObject(subscriptionStatusDetailsSchema.shape).parse(json.data);
};
const historyOf = async (email: string) => {
  const { status, json } = await server.as(email).get('/subscription/history');
  expect(status, json.message).toBe(200);
  return z.array(z.strictObject(subscriptionHistoryItemSchema.shape)).parse(json.data);
};
const userSubscriptionOf = async (email: string) => (await server.signIn(email)).json.data.user.subscription;

describe('issue 19 answers', () => {
  it('a period that has ended never says it renews automatically', async () => {
    const history = await historyOf(PREMIUM);
    const ended = history.filter((item: { status: string }) => item.status === 'EXPIRED');
    expect(ended.length).toBeGreaterThan(0);
    expect(ended.every((item: { autoRenew: boolean }) => item.autoRenew === false)).toBe(true);
    expect(history.find((item: { status: string }) => item.status === 'ACTIVE')).toMatchObject({ autoRenew: true });
  });

  it('saving the method a subscription already renews on says nothing changed and writes nothing', async () => {
    const status = await statusOf(PREMIUM);
    const before = (await server.db.query<{ updated_at: Date }>('SELECT updated_at FROM subscriptions WHERE id = $1', [status.subscriptionId])).rows[0]!;
    const same = await server.as(PREMIUM).post('/subscription/update-payment-method', { ...CONSENT,
      subscriptionId: status.subscriptionId, paymentMethod: 'MAYA_VAULT', paymentMethodDetails: JSON.stringify({ cardTokenId: 'seed-card-premium' }),
    });
    expect([same.status, same.json.message]).toEqual([200, 'This is already your payment method. Nothing was changed.']);
    const after = (await server.db.query<{ updated_at: Date }>('SELECT updated_at FROM subscriptions WHERE id = $1', [status.subscriptionId])).rows[0]!;
    expect(after.updated_at).toEqual(before.updated_at);
    const checkout = await server.as(PREMIUM).post('/subscription/update-payment-method', { ...CONSENT, subscriptionId: status.subscriptionId, paymentMethod: 'MAYA_CHECKOUT' });
    expect(checkout.json.message).toBe('Your payment method has been updated. It takes effect in your next billing cycle.');
  });
});

describe('card brands', () => {
  it('names Maya\'s card types as the wizard does (Mastercard, JCB), never "Master-card" or "Jcb"', async () => {
    const names: string[] = [];
    try {
      for (const type of ['master-card', 'jcb', 'visa']) {
        await server.db.query(`UPDATE saved_cards SET card_type = $1 WHERE card_token_id = 'seed-card-premium'`, [type]);
        names.push(String((await statusOf(PREMIUM)).paymentMethodDetails?.description));
      }
    } finally {
      await server.db.query(`UPDATE saved_cards SET card_type = 'visa' WHERE card_token_id = 'seed-card-premium'`);
    }
    expect(names).toEqual(['Mastercard', 'JCB', 'Visa']);
  });
});

describe('authentication', () => {
  it('refuses every subscription and payment call without a token, or with a bad one, with 401', async () => {
    const calls: Array<[string, string]> = [
      ['GET', '/subscription/status'],
      ['GET', '/subscription/history'],
      ['POST', '/subscription/cancel'],
      ['POST', '/subscription/resubscribe'],
      ['POST', '/subscription-voucher/redeem'],
      ['GET', '/payment/history'],
    ];
    for (const [method, path] of calls) {
      for (const token of [undefined, 'not-a-token']) {
        const { status, json } = await server.call(method, `${V1}${path}`, { token, body: method === 'POST' ? {} : undefined });
        expect(status, `${method} ${path}`).toBe(401);
        expect(json).toEqual({ success: false, message: 'Your session has expired. Please log in again.', data: null });
      }
    }
  });
});

describe('status (spec §3 current subscription status)', () => {
  it('is FREE with no subscription id, method or details when nothing is current', async () => {
    const status = await statusOf(FREE);
    expect(status).toMatchObject({
      planId: 3, planName: 'Free', planType: 'FREE', status: 'ACTIVE', endDate: null,
      subscriptionId: null, paymentMethod: null, paymentMethodDetails: null, planCurrency: 'PHP', planAmount: '0.00',
    });
  });

  it('shows the saved card of a card subscription as its type and masked number', async () => {
    const status = await statusOf(PREMIUM);
    expect(status).toMatchObject({
      planId: 1, planName: 'Monthly', planType: 'PREMIUM', status: 'ACTIVE', planAmount: '99.00', planCurrency: 'PHP',
      planDuration: '1', planBillingCycle: 'month', paymentMethod: 'MAYA_VAULT',
      paymentMethodDetails: { description: 'Visa', maskedCardNumber: '**** **** **** 1381' },
    });
    expect(status.subscriptionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(status.endDate!).getTime()).toBeGreaterThan((await server.clock()).getTime());
    expect(status.isVoucherSubscription).toBeUndefined();
  });

  it('shows a canceled checkout subscription as CANCELED with its end date still ahead', async () => {
    const status = await statusOf(CANCELED);
    expect(status).toMatchObject({ planType: 'PREMIUM', status: 'CANCELED', paymentMethod: 'MAYA_CHECKOUT', paymentMethodDetails: { description: 'Maya Checkout' } });
    expect(new Date(status.endDate!).getTime()).toBeGreaterThan((await server.clock()).getTime());
  });

  it('shows a voucher subscription with its code, amount, days and original terms', async () => {
    const status = await statusOf(VOUCHER);
    expect(status).toMatchObject({
      planType: 'PREMIUM', status: 'ACTIVE', planBillingCycle: 'voucher', planDuration: '30', planAmount: '99.00',
      paymentMethod: 'VOUCHER', paymentMethodDetails: { description: 'Voucher', voucherCode: 'BISAYA30' },
      isVoucherSubscription: true, voucherCode: 'BISAYA30', voucherAmount: '99.00', subscriptionDays: 30,
      originalVoucherTerms: { cycle: 'month', price: '99.00', duration: '1' },
    });
  });

  it('describes a wallet subscription as Maya Wallet', async () => {
    const at = await server.freezeClock();
    // One live subscription per viewer (subscriptions_one_live): the old ended checkout row is closed first.
    await server.db.query(`UPDATE subscriptions SET status = 'EXPIRED' WHERE user_id = (SELECT id FROM users WHERE email = $1)`, [FREE]);
    await server.db.query(
      `INSERT INTO subscriptions (user_id, plan_id, status, start_date, end_date, payment_method, payment_details)
       SELECT id, 2, 'ACTIVE', $1, $2, 'MAYA_WALLET', '{"mayaWalletId":"link-1"}' FROM users WHERE email = $3`,
      [at, new Date(at.getTime() + 365 * DAY_MS), FREE],
    );
    expect(await statusOf(FREE)).toMatchObject({
      planName: 'Yearly', planType: 'PREMIUM', planBillingCycle: 'year', paymentMethod: 'MAYA_WALLET', paymentMethodDetails: { description: 'Maya Wallet' },
    });
  });

  it('shows the current subscription on the user of sign-in, as the status call does', async () => {
    for (const email of [FREE, PREMIUM, CANCELED, VOUCHER]) {
      const status = await statusOf(email);
      const subscription = await userSubscriptionOf(email);
      expect(subscription, email).toMatchObject({ planId: status.planId, planType: status.planType, status: status.status, endDate: status.endDate });
    }
  });
});

describe('history', () => {
  it('lists every subscription newest first, ended ones as EXPIRED', async () => {
    const premium = await historyOf(PREMIUM);
    expect(premium.map((h) => h.status)).toEqual(['ACTIVE', 'EXPIRED', 'EXPIRED']);
    expect(premium.every((h) => h.plan === 'Monthly' && h.planType === 'PREMIUM' && h.price === '99.00' && h.currency === 'PHP')).toBe(true);
    const starts = premium.map((h) => new Date(h.startDate).getTime());
    expect([...starts].sort((a, b) => b - a)).toEqual(starts);

    expect((await historyOf(CANCELED)).map((h) => [h.status, h.autoRenew])).toEqual([['CANCELED', false], ['EXPIRED', false]]);
    expect((await historyOf(FREE)).map((h) => h.status)).toEqual(['EXPIRED']);
    // A voucher's period cost nothing: ₱0, not the voucher's face value (product.md#voucher-price).
    expect(await historyOf(VOUCHER)).toMatchObject([{ plan: 'Voucher 30 Days', planType: 'PREMIUM', status: 'ACTIVE', price: '0.00', autoRenew: false }]);
  });

  it('shows only the viewer’s own subscriptions', async () => {
    const premiumIds = new Set((await historyOf(PREMIUM)).map((h) => h.id));
    for (const item of await historyOf(CANCELED)) expect(premiumIds.has(item.id)).toBe(false);
  });
});

describe('plans', () => {
  it('lists the active PREMIUM plans in their order, and nothing else', async () => {
    const { status, json } = await server.call('GET', `${V1}/subscription/plans?type=PREMIUM&isActive=true`);
    expect(status).toBe(200);
    const plans = z.array(z.strictObject(planSchema.shape)).parse(json.data);
    expect(plans.map((p) => [p.id, p.slug, p.price, p.billingCycle, p.duration, p.popular])).toEqual([
      [1, 'monthly', '99.00', 'month', '1', false],
      [2, 'yearly', '990.00', 'year', '1', true],
    ]);
  });

  it('leaves out an inactive plan when asked for active ones', async () => {
    await server.db.query('UPDATE plans SET is_active = false WHERE id = 2');
    const { json } = await server.call('GET', `${V1}/subscription/plans?type=PREMIUM&isActive=true`);
    expect(json.data.map((p: { id: number }) => p.id)).toEqual([1]);
  });

  it('finds one plan by id or by slug, and answers 404 for an unknown one', async () => {
    const byId = await server.call('GET', `${V1}/subscription/plans/2`);
    const bySlug = await server.call('GET', `${V1}/subscription/plans/yearly`);
    expect(z.strictObject(planSchema.shape).parse(byId.json.data)).toEqual(bySlug.json.data);
    expect(bySlug.json.data).toMatchObject({ id: 2, name: 'Yearly', popular: true });
    for (const key of ['99', 'weekly', '..%2F..%2Fetc']) {
      const { status, json } = await server.call('GET', `${V1}/subscription/plans/${key}`);
      expect(status, key).toBe(404);
      expect(json.message, key).toBe('Plan not found');
    }
  });

  it('refuses an unknown plan type with 400', async () => {
    const { status, json } = await server.call('GET', `${V1}/subscription/plans?type=GOLD`);
    expect(status).toBe(400);
    expect(json.message).toBe('type must be FREE, PREMIUM or VOUCHER');
  });
});

describe('cancel', () => {
  it('cancels at period end: CANCELED, auto-renew off, end date kept, canceled date set, still PREMIUM', async () => {
    const at = await server.freezeClock();
    const before = await statusOf(PREMIUM);
    const { status, json } = await server.as(PREMIUM).post('/subscription/cancel', { subscriptionId: before.subscriptionId });
    expect(status, json.message).toBe(200);
    expect(json.success).toBe(true);
    expect(json.message).toMatch(/^Your subscription has been canceled\. You keep Premium access until \d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} (am|pm)\. Fees already paid are not refunded\.$/);

    const after = await statusOf(PREMIUM);
    expect(after).toMatchObject({ status: 'CANCELED', planType: 'PREMIUM', endDate: before.endDate, subscriptionId: before.subscriptionId });
    expect((await historyOf(PREMIUM))[0]).toMatchObject({ status: 'CANCELED', autoRenew: false, endDate: before.endDate });
    const row = await server.db.query<{ canceled_date: Date }>('SELECT canceled_date FROM subscriptions WHERE id = $1', [before.subscriptionId]);
    expect(row.rows[0]!.canceled_date.toISOString()).toBe(at.toISOString());
    expect(await userSubscriptionOf(PREMIUM)).toMatchObject({ status: 'CANCELED', planType: 'PREMIUM' });
  });

  it('keeps PREMIUM until the end date, then falls back to FREE (status, user, history)', async () => {
    const { subscriptionId, endDate } = await statusOf(PREMIUM);
    await server.as(PREMIUM).post('/subscription/cancel', { subscriptionId });
    const end = new Date(endDate!);

    await server.setClock(new Date(end.getTime() - 1000));
    expect(await statusOf(PREMIUM)).toMatchObject({ planType: 'PREMIUM', status: 'CANCELED' });

    await server.setClock(end);
    expect(await statusOf(PREMIUM)).toMatchObject({ planId: 3, planType: 'FREE', status: 'ACTIVE', subscriptionId: null, paymentMethod: null });
    expect(await userSubscriptionOf(PREMIUM)).toMatchObject({ planId: 3, planType: 'FREE', endDate: null });
    expect((await historyOf(PREMIUM))[0]).toMatchObject({ id: subscriptionId, status: 'EXPIRED' });
  });

  it('refuses a second cancel, and a cancel after the end date, with a clear message', async () => {
    const { subscriptionId, endDate } = await statusOf(PREMIUM);
    expect((await server.as(PREMIUM).post('/subscription/cancel', { subscriptionId })).status).toBe(200);
    const again = await server.as(PREMIUM).post('/subscription/cancel', { subscriptionId });
    expect([again.status, again.json.success, again.json.message]).toEqual([409, false, SUBSCRIPTION_MESSAGES.alreadyCanceled]);

    const { subscriptionId: canceledId } = await statusOf(CANCELED);
    await server.db.query(`UPDATE subscriptions SET status = 'ACTIVE' WHERE id = $1`, [canceledId]);
    await server.setClock(new Date(new Date(endDate!).getTime() + 60 * DAY_MS));
    const late = await server.as(CANCELED).post('/subscription/cancel', { subscriptionId: canceledId });
    expect([late.status, late.json.message]).toEqual([409, SUBSCRIPTION_MESSAGES.ended]);
  });

  it('refuses another viewer’s subscription exactly like an unknown one, and changes nothing', async () => {
    const { subscriptionId } = await statusOf(PREMIUM);
    for (const id of [subscriptionId, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', "x' OR '1'='1"]) {
      for (const path of ['/subscription/cancel', '/subscription/resubscribe']) {
        const { status, json } = await server.as(CANCELED).post(path, { subscriptionId: id });
        expect([status, json.message], `${path} ${id}`).toEqual([404, SUBSCRIPTION_MESSAGES.notFound]);
      }
    }
    expect(await statusOf(PREMIUM)).toMatchObject({ status: 'ACTIVE' });
  });

  it('validates the body', async () => {
    for (const body of [{}, { subscriptionId: '' }, { subscriptionId: 42 }]) {
      const { status } = await server.as(PREMIUM).post('/subscription/cancel', body);
      expect(status, JSON.stringify(body)).toBe(400);
    }
  });

  it('applies two cancels sent at once only once', async () => {
    const { subscriptionId } = await statusOf(PREMIUM);
    const token = await server.tokenOf(PREMIUM);
    const results = await Promise.all(
      [1, 2, 3].map(() => server.call('POST', `${V1}/subscription/cancel`, { token, body: { subscriptionId } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const rows = await server.db.query<{ status: string; updated_at: Date; canceled_date: Date }>(
      'SELECT status, updated_at, canceled_date FROM subscriptions WHERE id = $1',
      [subscriptionId],
    );
    expect(rows.rows[0]!.status).toBe('CANCELED');
  });
});

describe('resubscribe', () => {
  it('makes a canceled subscription ACTIVE again before its end date (auto-renew only for a card or wallet)', async () => {
    const before = await statusOf(CANCELED);
    const { status, json } = await server.as(CANCELED).post('/subscription/resubscribe', { ...CONSENT, subscriptionId: before.subscriptionId });
    expect(status, json.message).toBe(200);
    // canceled@ pays by checkout: no next billing date, it is renewed by hand (newcomer's review).
    expect(json.message).toMatch(/^Your subscription is active again until \d{2}\/\d{2}\/\d{4} .+\. Maya Checkout does not renew by itself: press Renew now from 3 days before\.$/);
    expect(await statusOf(CANCELED)).toMatchObject({ status: 'ACTIVE', endDate: before.endDate, subscriptionId: before.subscriptionId });
    // A checkout subscription does not renew by itself: reactivated, it is ACTIVE without auto-renew.
    expect((await historyOf(CANCELED))[0]).toMatchObject({ status: 'ACTIVE', autoRenew: false });
    const row = await server.db.query<{ canceled_date: Date | null }>('SELECT canceled_date FROM subscriptions WHERE id = $1', [before.subscriptionId]);
    expect(row.rows[0]!.canceled_date).toBeNull();
    expect(await userSubscriptionOf(CANCELED)).toMatchObject({ status: 'ACTIVE' });
  });

  it('cancel then reactivate round-trips for the premium account', async () => {
    const { subscriptionId } = await statusOf(PREMIUM);
    expect((await server.as(PREMIUM).post('/subscription/cancel', { subscriptionId })).status).toBe(200);
    expect((await server.as(PREMIUM).post('/subscription/resubscribe', { ...CONSENT, subscriptionId })).status).toBe(200);
    expect(await statusOf(PREMIUM)).toMatchObject({ status: 'ACTIVE', paymentMethod: 'MAYA_VAULT' });
    expect((await historyOf(PREMIUM))[0]!.autoRenew).toBe(true);
  });

  it('refuses after the end date with a clear message, and the viewer stays FREE', async () => {
    const { subscriptionId, endDate } = await statusOf(CANCELED);
    await server.setClock(new Date(new Date(endDate!).getTime() + DAY_MS));
    const { status, json } = await server.as(CANCELED).post('/subscription/resubscribe', { ...CONSENT, subscriptionId });
    expect(status).toBe(409);
    expect(json.success).toBe(false);
    expect(json.message).toMatch(/^This subscription ended on \d{2}\/\d{2}\/\d{4} .* and can no longer be reactivated\. Please subscribe again\.$/);
    expect(await statusOf(CANCELED)).toMatchObject({ planType: 'FREE', subscriptionId: null });
  });

  it('refuses an ACTIVE subscription', async () => {
    const { subscriptionId } = await statusOf(PREMIUM);
    const { status, json } = await server.as(PREMIUM).post('/subscription/resubscribe', { ...CONSENT, subscriptionId });
    expect([status, json.message]).toEqual([409, SUBSCRIPTION_MESSAGES.alreadyActive]);
  });

  it('applies two reactivations sent at once only once', async () => {
    const { subscriptionId } = await statusOf(CANCELED);
    const token = await server.tokenOf(CANCELED);
    const results = await Promise.all(
      [1, 2].map(() => server.call('POST', `${V1}/subscription/resubscribe`, { token, body: { ...CONSENT, subscriptionId } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('keeps a reactivated voucher subscription without auto-renew', async () => {
    const { subscriptionId } = await statusOf(VOUCHER);
    expect((await server.as(VOUCHER).post('/subscription/cancel', { subscriptionId })).status).toBe(200);
    const { status, json } = await server.as(VOUCHER).post('/subscription/resubscribe', { ...CONSENT, subscriptionId });
    expect(status).toBe(200);
    expect(json.message).toMatch(/^Your voucher subscription is active again until /);
    expect((await historyOf(VOUCHER))[0]).toMatchObject({ status: 'ACTIVE', autoRenew: false });
  });
});

describe('the card and voucher a subscription shows (migration 010, issue 21)', () => {
  /** Subscriptions whose copied card and voucher columns differ from what the joins read now. */
  const differing = async () =>
    (await server.db.query<{ id: string }>(`
      SELECT s.id FROM subscriptions s
      LEFT JOIN vouchers v ON s.payment_method = 'VOUCHER' AND v.code = s.payment_details->>'voucherCode'
      LEFT JOIN plans tp ON tp.id = v.terms_plan_id
      LEFT JOIN saved_cards c ON s.payment_method = 'MAYA_VAULT' AND c.card_token_id = s.payment_details->>'cardTokenId' AND c.user_id = s.user_id
      WHERE (s.card_type, s.card_last4, s.voucher_days, s.voucher_amount, s.terms_cycle, s.terms_price, s.terms_duration)
        IS DISTINCT FROM (c.card_type, c.last4, v.days, v.amount, tp.billing_cycle, tp.price, tp.duration)`)).rows;
  const shown = async () =>
    (await server.db.query<{ cards: number; vouchers: number }>(
      'SELECT count(card_last4)::int AS cards, count(terms_price)::int AS vouchers FROM subscriptions',
    )).rows[0]!;

  it('copies them when the subscription is written, and again when a card, voucher or terms plan is corrected', async () => {
    expect(await shown()).toMatchObject({ cards: expect.any(Number), vouchers: 1 });
    expect((await shown()).cards).toBeGreaterThan(0);
    expect(await differing()).toEqual([]);

    expect((await server.as(FREE).post('/subscription-voucher/redeem', { code: 'SUGBO365' })).status).toBe(200);
    expect((await shown()).vouchers).toBe(2);
    expect(await differing()).toEqual([]);

    try {
      await server.db.query(`UPDATE saved_cards SET last4 = '4242' WHERE card_token_id = 'seed-card-premium'`);
      await server.db.query(`UPDATE vouchers SET amount = 95, days = 31 WHERE code = 'BISAYA30'`);
      await server.db.query('UPDATE plans SET price = 109 WHERE id = 1');
      expect(await differing()).toEqual([]);
      expect(await statusOf(PREMIUM)).toMatchObject({ paymentMethodDetails: { maskedCardNumber: '**** **** **** 4242' } });
      expect(await statusOf(VOUCHER)).toMatchObject({ voucherAmount: '95.00', subscriptionDays: 31, originalVoucherTerms: { price: '109.00' } });
    } finally {
      await server.db.query(`UPDATE saved_cards SET last4 = '1381' WHERE card_token_id = 'seed-card-premium'`);
      await server.db.query('UPDATE plans SET price = 99 WHERE id = 1');
    }
    expect(await differing()).toEqual([]);
  });

  it('follows a card removed and added again, and a change of payment method', async () => {
    const card = (await server.db.query<Record<string, unknown>>(`SELECT * FROM saved_cards WHERE card_token_id = 'seed-card-premium'`)).rows[0]!;
    try {
      await server.db.query(`DELETE FROM saved_cards WHERE card_token_id = 'seed-card-premium'`);
      expect(await differing()).toEqual([]);
      expect((await statusOf(PREMIUM)).paymentMethodDetails).toEqual({ description: 'Card' });
      await server.db.query(
        `INSERT INTO saved_cards (card_token_id, user_id, card_type, first6, last4, created_at, updated_at) VALUES ($1, $2, 'master-card', '512345', '9999', $3, $3)`,
        [card.card_token_id, card.user_id, card.created_at],
      );
      expect(await differing()).toEqual([]);
      expect((await statusOf(PREMIUM)).paymentMethodDetails).toEqual({ description: 'Mastercard', maskedCardNumber: '**** **** **** 9999' });
    } finally {
      await server.db.query(`DELETE FROM saved_cards WHERE card_token_id = 'seed-card-premium'`);
      const columns = Object.keys(card);
      await server.db.query(
        `INSERT INTO saved_cards (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
        columns.map((column) => card[column]),
      );
    }
    expect(await differing()).toEqual([]);
    const { subscriptionId } = await statusOf(PREMIUM);
    const changed = await server.as(PREMIUM).post('/subscription/update-payment-method', { ...CONSENT, subscriptionId, paymentMethod: 'MAYA_CHECKOUT' });
    expect(changed.status, changed.json.message).toBe(200);
    expect(await differing()).toEqual([]);
    expect((await statusOf(PREMIUM)).paymentMethodDetails).toEqual({ description: 'Maya Checkout' });
  });
});

describe('the plan a viewer’s reads show (issue 21: on PGlite from the remembered plans)', () => {
  /** What the status, the subscription history and the payment history show of the premium viewer's plans. */
  const shown = async () => {
    const status = await statusOf(PREMIUM);
    const { json } = await server.as(PREMIUM).get('/payment/history');
    return {
      status: [status.planId, status.planName, status.planAmount],
      history: (await historyOf(PREMIUM)).map((item) => [item.plan, item.price]),
      payments: (json.data as Array<{ planName: string | null }>).map((payment) => payment.planName),
    };
  };

  it('shows a plan written a moment ago in all three reads, and nothing of a write rolled back', async () => {
    const before = await shown();
    const [planId, name, price] = before.status as [number, string, string];
    const renamed = (value: unknown) => (value === name ? 'Premium Plus' : value === price ? '129.00' : value);
    try {
      await server.db.query(`UPDATE plans SET name = 'Premium Plus', price = 129 WHERE id = $1`, [planId]);
      const after = await shown();
      expect(after.status).toEqual([planId, 'Premium Plus', '129.00']);
      expect(after.history).toEqual(before.history.map((item) => (item[0] === name ? item.map(renamed) : item)));
      expect(after.payments).toEqual(before.payments.map(renamed));
      expect(after.payments).toContain('Premium Plus');
      await expect(server.db.transaction(async (tx) => {
        await tx.query(`UPDATE plans SET name = 'Never shown' WHERE id = $1`, [planId]);
        throw new Error('rolled back');
      })).rejects.toThrow('rolled back');
      expect(await shown()).toEqual(after);
    } finally {
      await server.db.query('UPDATE plans SET name = $2, price = $3 WHERE id = $1', [planId, name, price]);
    }
    expect(await shown()).toEqual(before);
  });

  it('reads again with the join when a row’s plan is not among the remembered plans, and shows a payment without a plan as without a name', async () => {
    const userId = (await server.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [PREMIUM])).rows[0]!.id;
    await server.db.query(
      `INSERT INTO payment_records (user_id, reference_id, status, amount, discounted_amount, total_amount, payment_method, created_at, updated_at)
       VALUES ($1, 'NO-PLAN-1', 'FAILED', 10, 0, 10, 'MAYA_CHECKOUT', now(), now())`,
      [userId],
    );
    const reads = async (db: Db) => ({
      status: await subscriptionStatus(db, userId),
      history: (await subscriptionHistory(db, userId))!.json,
      payments: (await paymentHistory({ db, gateway: undefined as never, log: () => {} }, userId))!.json, // nothing open: the gateway is not asked
    });
    const expected = await reads(server.db);
    expect(expected.status).toMatchObject({ planType: 'PREMIUM' });
    expect((JSON.parse(expected.payments) as Array<{ referenceId: string; planName: string | null }>).find((p) => p.referenceId === 'NO-PLAN-1')!.planName).toBeNull();
    // The same database, its remembered plans answering none (as if every plan were made after the read);
    // on PostgreSQL, which remembers nothing, the reads join the plans anyway.
    const remember = server.db.remember?.bind(server.db);
    const forgetful: Db = {
      ...server.db,
      query: server.db.query.bind(server.db),
      ...(remember ? { remember: <T,>(table: string, sql: string) => (table === 'plans' ? Promise.resolve({ rows: [] as T[] }) : remember<T>(table, sql)) } : {}),
    };
    expect(await reads(forgetful)).toEqual(expected);
  });

  it('shows a plan made a moment ago, once a subscription is on it', async () => {
    await shown();
    const { subscriptionId } = await statusOf(PREMIUM);
    await server.db.query(
      `INSERT INTO plans (id, slug, name, description, type, price, currency, duration, billing_cycle, sort_order, features, popular)
       VALUES (77, 'premium-quarterly', 'Premium Quarterly', 'Three months', 'PREMIUM', 279, 'PHP', 3, 'month', 9, '[]', false)`,
    );
    await server.db.query('UPDATE subscriptions SET plan_id = 77 WHERE id = $1', [subscriptionId]);
    expect(await statusOf(PREMIUM)).toMatchObject({ subscriptionId, planId: 77, planName: 'Premium Quarterly', planAmount: '279.00', planDuration: '3' });
    expect((await historyOf(PREMIUM)).find((item) => item.id === subscriptionId)).toMatchObject({ plan: 'Premium Quarterly', price: '279.00' });
  });
});
