/**
 * Issue 9 on the reference server: change plan (charge now with the current method, remaining time
 * carried, checkout answered with a link, voucher and current plan refused, a declined charge changes
 * nothing), its preview, and change payment method, on the local sandbox with the real Maya client.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addBillingPeriod } from '../../../server/billing/periods';
import { planChangeNumbers } from '../../../server/billing/planChange';
import { DAY_MS, SERVER_START_TIMEOUT_MS, startBillingServer, type BillingServer } from '../support/billing-helpers';
import { CONSENT } from '../support/consent';

let server: BillingServer;
beforeAll(async () => {
  server = await startBillingServer();
}, SERVER_START_TIMEOUT_MS);
beforeEach(async () => {
  await server.reset();
  await server.db.exec(`DELETE FROM wallet_links; UPDATE sandbox_cards SET behaviour = 'APPROVE' WHERE card_token_id = 'seed-card-premium';`);
});

const PREMIUM = 'premium@example.com';
const CANCELED = 'canceled@example.com';
const VOUCHER = 'voucher@example.com';
const FREE = 'free@example.com';
const HOUR_MS = 3_600_000;

const statusOf = async (email: string) => (await server.as(email).get('/subscription/status')).json.data;
const paymentsOf = async (email: string) =>
  (await server.as(email).get('/payment/history')).json.data as Array<{ status: string; paymentMethod: string; totalAmount: string; planName: string; subscriptionId: string | null }>;
const preview = (email: string, planId: number | string) => server.as(email).get(`/subscription/update-plan/preview?planId=${planId}`);
const updatePlan = async (email: string, planId: number) =>
  server.as(email).post('/subscription/update-plan', { ...CONSENT, subscriptionId: (await statusOf(email)).subscriptionId, planId });
const updateMethod = async (email: string, paymentMethod: string, paymentMethodDetails?: string) =>
  server.as(email).post('/subscription/update-payment-method', { ...CONSENT,
    subscriptionId: (await statusOf(email)).subscriptionId, paymentMethod, ...(paymentMethodDetails === undefined ? {} : { paymentMethodDetails }),
  });

/** Puts the viewer's current subscription on `planId` from `start` to `end` (the seed dates it from the real clock). */
async function placeSubscription(email: string, planId: number, start: Date, end: Date) {
  const { subscriptionId } = await statusOf(email);
  await server.db.query('UPDATE subscriptions SET plan_id = $2, start_date = $3, end_date = $4 WHERE id = $1', [subscriptionId, planId, start, end]);
  return subscriptionId as string;
}

/** A person on a hosted page presses a button; the browser follows the return address to the API. */
async function payOnHostedPage(url: string, action: 'approve' | 'decline' | 'cancel') {
  const pressed = await server.app.request(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `action=${action}` });
  expect(pressed.status).toBe(303);
  const back = await server.app.request(pressed.headers.get('Location')!);
  return back.headers.get('Location');
}

describe('carried days: the arithmetic', () => {
  // Manila is UTC+8 with no daylight saving time; these instants fall on different days in UTC.
  const manila = (text: string) => new Date(`${text}+08:00`);
  const monthly = { billingCycle: 'month' as const, duration: '1' };
  const yearly = { billingCycle: 'year' as const, duration: '1' };

  it('adds a calendar month in Asia/Manila from the 31st (UTC would still be the 30th), then the remaining days', () => {
    const at = manila('2027-01-31T07:00:00');
    const numbers = planChangeNumbers(at, new Date(at.getTime() + 10 * DAY_MS), monthly);
    expect(numbers.carriedDays).toBe(10);
    // 31 January + 1 month = 28 February (Manila), + 10 days = 10 March; a UTC month would give 11 March.
    expect(numbers.newEndDate.toISOString()).toBe(manila('2027-03-10T07:00:00').toISOString());
  });

  it('adds a Manila calendar year from 29 February of a leap year', () => {
    const at = manila('2028-02-29T07:00:00');
    const numbers = planChangeNumbers(at, manila('2028-03-05T07:00:00'), yearly);
    expect(numbers.carriedDays).toBe(5);
    expect(numbers.newEndDate.toISOString()).toBe(manila('2029-03-05T07:00:00').toISOString());
  });

  it('carries the time to the millisecond and rounds only the days people read', () => {
    const at = manila('2027-06-30T23:30:00');
    const end = new Date(at.getTime() + 19 * DAY_MS + 15 * HOUR_MS);
    const numbers = planChangeNumbers(at, end, monthly);
    expect(numbers.carriedDays).toBe(20);
    expect(numbers.newEndDate.getTime()).toBe(addBillingPeriod(at, 'month', 1).getTime() + 19 * DAY_MS + 15 * HOUR_MS);
    expect(planChangeNumbers(at, new Date(at.getTime() + 9 * HOUR_MS), monthly).carriedDays).toBe(0);
  });

  it('carries nothing from a subscription that has ended', () => {
    const at = manila('2027-01-15T00:00:00');
    const numbers = planChangeNumbers(at, manila('2027-01-14T00:00:00'), monthly);
    expect(numbers).toMatchObject({ carriedMs: 0, carriedDays: 0 });
    expect(numbers.newEndDate.toISOString()).toBe(manila('2027-02-15T00:00:00').toISOString());
  });
});

describe('change plan', () => {
  it('preview and change agree: premium@ monthly → yearly is charged Php 990 now on the saved card, the 20 days left are added', async () => {
    const at = await server.freezeClock();
    const before = await statusOf(PREMIUM);
    const left = new Date(before.endDate).getTime() - at.getTime();
    const expectedEnd = new Date(addBillingPeriod(at, 'year', 1).getTime() + left).toISOString();

    const shown = await preview(PREMIUM, 2);
    expect(shown.status, shown.json.message).toBe(200);
    expect(shown.json.data).toEqual({ amountDue: '990.00', currency: 'PHP', carriedDays: 20, newEndDate: expectedEnd });

    const changed = await updatePlan(PREMIUM, 2);
    expect(changed.status, changed.json.message).toBe(200);
    expect(changed.json.data).toEqual({ paymentMethod: 'MAYA_VAULT', paymentLink: null });
    expect(changed.json.message).toBe('Your plan has been changed to Yearly. The remaining days of your previous plan were added.');

    const after = await statusOf(PREMIUM);
    expect(after).toMatchObject({
      planId: 2, planName: 'Yearly', status: 'ACTIVE', paymentMethod: 'MAYA_VAULT', endDate: expectedEnd,
      paymentMethodDetails: { maskedCardNumber: '**** **** **** 1381' },
    });
    expect(new Date(after.startDate).getTime()).toBe(at.getTime());
    const history = (await server.as(PREMIUM).get('/subscription/history')).json.data;
    expect(history[0]).toMatchObject({ plan: 'Yearly', status: 'ACTIVE', autoRenew: true });
    expect(history[1]).toMatchObject({ id: before.subscriptionId, plan: 'Monthly', status: 'EXPIRED', endDate: at.toISOString() });
    const [charge] = await paymentsOf(PREMIUM);
    expect(charge).toMatchObject({ status: 'PAYMENT_SUCCESS', paymentMethod: 'MAYA_VAULT', totalAmount: '990.00', planName: 'Yearly', subscriptionId: after.subscriptionId });
  });

  it('across a Manila month end on the server: yearly → monthly ending 31 January 07:00 (30 January in UTC) is scheduled; its month ends 28 February', async () => {
    // A move down waits for the end of the paid year (product.md#scheduled-downgrade; scheduled-downgrade.test.ts).
    await placeSubscription(PREMIUM, 2, new Date('2026-01-31T07:00:00+08:00'), new Date('2027-01-31T07:00:00+08:00'));
    await server.setClock('2027-01-20T07:00:00+08:00');
    expect((await preview(PREMIUM, 1)).json.data).toEqual({
      amountDue: '0.00', currency: 'PHP', carriedDays: 0, changesOn: new Date('2027-01-31T07:00:00+08:00').toISOString(),
      newEndDate: new Date('2027-02-28T07:00:00+08:00').toISOString(),
    });
    expect((await updatePlan(PREMIUM, 1)).status).toBe(200);
    expect(await statusOf(PREMIUM)).toMatchObject({ planId: 2, endDate: new Date('2027-01-31T07:00:00+08:00').toISOString(), scheduledChange: { planName: 'Monthly' } });
  });

  it('refuses the current plan, a voucher subscription, a FREE viewer, another plan type and someone else’s subscription', async () => {
    const same = await updatePlan(PREMIUM, 1);
    expect(same.status).toBe(409);
    expect(same.json.message).toBe('This is already your current plan. Please select another plan.');
    expect((await preview(PREMIUM, 1)).status).toBe(409);

    const voucher = await updatePlan(VOUCHER, 2);
    expect(voucher.status).toBe(400);
    expect(voucher.json.message).toBe('Voucher subscriptions cannot change plans. Your voucher subscription will remain active until it expires.');
    expect((await preview(VOUCHER, 2)).json.message).toBe(voucher.json.message);

    expect((await preview(FREE, 2)).status).toBe(404);
    expect((await updatePlan(PREMIUM, 3)).status).toBe(400); // the FREE plan
    expect((await updatePlan(PREMIUM, 4)).status).toBe(400); // a voucher plan
    expect((await updatePlan(PREMIUM, 99)).status).toBe(404);
    const foreign = await server.as(PREMIUM).post('/subscription/update-plan', { ...CONSENT, subscriptionId: (await statusOf(CANCELED)).subscriptionId, planId: 2 });
    expect(foreign.status).toBe(404);
    expect((await preview(PREMIUM, 'abc')).status).toBe(400);
    expect((await preview(PREMIUM, '')).status).toBe(400);
    expect((await statusOf(PREMIUM)).planId).toBe(1);
    expect((await paymentsOf(PREMIUM)).filter((p) => p.status === 'PENDING')).toEqual([]);
  });

  it('a declined charge leaves the plan as it was and records the failed payment', async () => {
    const before = await statusOf(PREMIUM);
    await server.db.query(`UPDATE sandbox_cards SET behaviour = 'DECLINE' WHERE card_token_id = 'seed-card-premium'`);
    const declined = await updatePlan(PREMIUM, 2);
    expect(declined.status).toBe(402);
    expect(declined.json.message).toBe('Your payment was declined. Please try another card or payment method.');
    expect(await statusOf(PREMIUM)).toEqual(before);
    expect((await paymentsOf(PREMIUM))[0]).toMatchObject({ status: 'PAYMENT_FAILED', totalAmount: '990.00' });
  });

  it('a checkout subscription is answered with a payment link; the plan changes only once that payment succeeds', async () => {
    const at = await server.freezeClock();
    const before = await statusOf(CANCELED);
    const changed = await updatePlan(CANCELED, 2);
    expect(changed.status, changed.json.message).toBe(200);
    expect(changed.json.data.paymentMethod).toBe('MAYA_CHECKOUT');
    expect(changed.json.data.paymentLink).toMatch(/\/sandbox\/maya\/pages\/checkout\//);
    expect(await statusOf(CANCELED)).toEqual(before);
    // Asked again: the open checkout is superseded by a new one (an abandoned page never locks the viewer out).
    const again = await updatePlan(CANCELED, 2);
    expect(again.status, again.json.message).toBe(200);

    // The first page paid anyway: the change still stands, so it applies.
    expect(await payOnHostedPage(changed.json.data.paymentLink, 'approve')).toBe('http://localhost/payment?status=success');
    const after = await statusOf(CANCELED);
    const left = new Date(before.endDate).getTime() - at.getTime();
    expect(after).toMatchObject({ planId: 2, status: 'ACTIVE', paymentMethod: 'MAYA_CHECKOUT' });
    expect(after.endDate).toBe(new Date(addBillingPeriod(at, 'year', 1).getTime() + left).toISOString());
    // A repeated return or webhook applies nothing twice.
    expect((await server.db.query(`SELECT count(*)::int AS n FROM subscriptions WHERE previous_plan_id = 1 AND plan_id = 2`)).rows).toEqual([{ n: 1 }]);
    // The second page paid too: it would pay a change already made, so it is given back, not stacked.
    expect(await payOnHostedPage(again.json.data.paymentLink, 'approve')).toBe('http://localhost/payment?status=failed&plan=yearly&payment-method=checkout');
    expect((await server.db.query(`SELECT count(*)::int AS n FROM subscriptions WHERE previous_plan_id = 1 AND plan_id = 2`)).rows).toEqual([{ n: 1 }]);
    expect((await paymentsOf(CANCELED))[0]).toMatchObject({ status: 'VOIDED', totalAmount: '990.00' });
    expect(await statusOf(CANCELED)).toEqual(after);
  });

  it('an abandoned checkout leaves the plan as it was', async () => {
    const before = await statusOf(CANCELED);
    const changed = await updatePlan(CANCELED, 2);
    expect(await payOnHostedPage(changed.json.data.paymentLink, 'cancel')).toBe('http://localhost/payment?status=canceled');
    expect(await statusOf(CANCELED)).toEqual(before);
  });
});

describe('change payment method', () => {
  const returns = {
    success: 'http://localhost/subscription/change-payment-method?wallet-method=1&wallet-link-status=success',
    failure: 'http://localhost/subscription/change-payment-method?wallet-method=1&wallet-link-status=failed',
    cancel: 'http://localhost/subscription/change-payment-method?wallet-method=1&wallet-link-status=canceled',
  };
  async function linkWallet(email: string) {
    const started = await server.as(email).post('/payment/wallet/link', { redirectUrl: returns });
    const pressed = await server.app.request(started.json.data.redirectUrl, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'action=approve' });
    expect(pressed.headers.get('Location')).toBe(returns.success);
    return started.json.data.linkId as string;
  }

  it('premium@: card → wallet → checkout → card; each takes effect for the next cycle (end date and plan kept)', async () => {
    const before = await statusOf(PREMIUM);
    const notLinked = await updateMethod(PREMIUM, 'MAYA_WALLET', JSON.stringify({ mayaWalletId: 'not-mine' }));
    expect(notLinked.status).toBe(400);
    expect(notLinked.json.message).toBe('Please connect your Maya wallet to continue');

    const linkId = await linkWallet(PREMIUM);
    const wallet = await updateMethod(PREMIUM, 'MAYA_WALLET', JSON.stringify({ mayaWalletId: linkId }));
    expect(wallet.status, wallet.json.message).toBe(200);
    expect(wallet.json.message).toBe('Your payment method has been updated. It takes effect in your next billing cycle.');
    expect(await statusOf(PREMIUM)).toMatchObject({ paymentMethod: 'MAYA_WALLET', paymentMethodDetails: { description: 'Maya Wallet' }, endDate: before.endDate, planId: 1 });

    // A plan change now charges the wallet.
    const changed = await updatePlan(PREMIUM, 2);
    expect(changed.json.data).toEqual({ paymentMethod: 'MAYA_WALLET', paymentLink: null });
    expect((await paymentsOf(PREMIUM))[0]).toMatchObject({ status: 'PAYMENT_SUCCESS', paymentMethod: 'MAYA_WALLET', totalAmount: '990.00' });

    expect((await updateMethod(PREMIUM, 'MAYA_CHECKOUT')).status).toBe(200);
    expect(await statusOf(PREMIUM)).toMatchObject({ paymentMethod: 'MAYA_CHECKOUT', planId: 2 });
    expect((await server.as(PREMIUM).get('/subscription/history')).json.data[0]).toMatchObject({ autoRenew: false });

    expect((await updateMethod(PREMIUM, 'MAYA_VAULT')).status).toBe(200);
    expect(await statusOf(PREMIUM)).toMatchObject({ paymentMethod: 'MAYA_VAULT', paymentMethodDetails: { maskedCardNumber: '**** **** **** 1381' } });
    expect((await server.as(PREMIUM).get('/subscription/history')).json.data[0]).toMatchObject({ autoRenew: true });
  });

  it('refuses a voucher subscription, a viewer without a card, bad details and someone else’s subscription', async () => {
    const voucher = await updateMethod(VOUCHER, 'MAYA_CHECKOUT');
    expect(voucher.status).toBe(400);
    expect(voucher.json.message).toBe('Voucher subscriptions cannot change payment methods. Your voucher subscription will remain active until it expires.');
    expect((await statusOf(VOUCHER)).paymentMethod).toBe('VOUCHER');

    const noCard = await updateMethod(CANCELED, 'MAYA_VAULT');
    expect(noCard.json.message).toBe('Please add a card first.');
    expect((await updateMethod(PREMIUM, 'MAYA_WALLET', 'not json')).json.message).toBe('paymentMethodDetails must be a JSON object.');
    expect((await updateMethod(PREMIUM, 'VOUCHER')).status).toBe(400);
    const foreign = await server.as(PREMIUM).post('/subscription/update-payment-method', { ...CONSENT, subscriptionId: (await statusOf(CANCELED)).subscriptionId, paymentMethod: 'MAYA_CHECKOUT' });
    expect(foreign.status).toBe(404);
    expect((await statusOf(PREMIUM)).paymentMethod).toBe('MAYA_VAULT');
  });

  it('a canceled subscription keeps its status and does not start renewing', async () => {
    expect((await updateMethod(CANCELED, 'MAYA_CHECKOUT')).status).toBe(200);
    const linkId = await linkWallet(CANCELED);
    expect((await updateMethod(CANCELED, 'MAYA_WALLET', JSON.stringify({ mayaWalletId: linkId }))).status).toBe(200);
    expect(await statusOf(CANCELED)).toMatchObject({ status: 'CANCELED', paymentMethod: 'MAYA_WALLET' });
    expect((await server.as(CANCELED).get('/subscription/history')).json.data[0]).toMatchObject({ autoRenew: false });
  });
});
