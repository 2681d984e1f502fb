import * as z from 'zod/mini';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscriptionHistoryItemSchema, subscriptionStatusDetailsSchema, voucherSubscriptionSchema } from '../../../src/api/schemas';
import { VOUCHER_MESSAGES } from '../../../server/billing/vouchers';
import { DAY_MS, SERVER_START_TIMEOUT_MS, startBillingServer, V1, type BillingServer } from '../support/billing-helpers';

let server: BillingServer;
beforeAll(async () => {
  server = await startBillingServer();
}, SERVER_START_TIMEOUT_MS);
beforeEach(async () => {
  await server.reset();
  await server.db.exec(`DELETE FROM auth_throttle WHERE key LIKE 'voucher:%'`);
});

const redeem = (email: string, code: unknown) => server.as(email).post('/subscription-voucher/redeem', { code });
const statusOf = async (email: string) => z.strictObject(subscriptionStatusDetailsSchema.shape).parse((await server.as(email).get('/subscription/status')).json.data);
const historyOf = async (email: string) =>
  z.array(z.strictObject(subscriptionHistoryItemSchema.shape)).parse((await server.as(email).get('/subscription/history')).json.data);

describe('voucher guessing', () => {
  it('is slowed like sign-in: after a few wrong codes the account waits (429, Retry-After), even for the right code', async () => {
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await redeem('free@example.com', `GUESS${i}`));
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([400, 400, 400, 400, 400]);
    const refused = answers.find((a) => a.status === 429);
    expect(refused?.json.message).toMatch(/^Too many voucher attempts\. Please try again in \d+ seconds?\.$/);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    // The right code is refused too while the account waits: guessing on does not pay.
    const right = await redeem('free@example.com', 'BISAYA30');
    expect(right.status).toBe(429);
    expect((await statusOf('free@example.com')).planType).toBe('FREE');
    // Another account is not slowed by it.
    expect((await redeem('canceled@example.com', 'BISAYA30')).status).toBe(200);
  });

  it('forty wrong codes in parallel from one account: most are refused with 429', async () => {
    await server.tokenOf('premium@example.com'); // signed in once, before the burst
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => redeem('premium@example.com', `PARALLEL${i}`)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 400 || s === 429), JSON.stringify(answers.filter((a) => a.status !== 400 && a.status !== 429).map((a) => [a.status, a.json?.message]))).toBe(true);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(6);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(34);
  });
});

describe('voucher redeem', () => {
  it('subscribes a FREE viewer for the voucher’s days and answers with the voucher subscription of spec §3', async () => {
    const at = await server.freezeClock();
    const { status, json } = await redeem('free@example.com', '  bisaya30 ');
    expect(status, json.message).toBe(200);
    expect(json.message).toBe('Voucher redeemed successfully');
    const subscription = z.strictObject(voucherSubscriptionSchema.shape).parse(json.data);
    expect(subscription).toMatchObject({
      status: 'ACTIVE', paymentMethod: 'VOUCHER', autoRenew: false, isTrial: false, previousPlanId: null,
      startDate: at.toISOString(), endDate: new Date(at.getTime() + 30 * DAY_MS).toISOString(),
      details: { voucherCode: 'BISAYA30', amount: '99.00', subscriptionDays: 30, voucherCycle: 'voucher', originalVoucherTerms: { cycle: 'month', price: '99.00', duration: '1' } },
      user: { email: 'free@example.com', firstName: 'Maria', lastName: 'Santos' },
      subscriptionPlan: { type: 'VOUCHER', billingCycle: 'voucher', name: 'Voucher 30 Days', price: '99.00', currency: 'PHP', duration: '30' },
    });

    expect(await statusOf('free@example.com')).toMatchObject({
      subscriptionId: subscription.id, planType: 'PREMIUM', status: 'ACTIVE', paymentMethod: 'VOUCHER',
      paymentMethodDetails: { description: 'Voucher', voucherCode: 'BISAYA30' }, voucherCode: 'BISAYA30', isVoucherSubscription: true,
      endDate: subscription.endDate,
    });
    expect((await historyOf('free@example.com'))[0]).toMatchObject({ id: subscription.id, status: 'ACTIVE', plan: 'Voucher 30 Days', planType: 'PREMIUM' });
    expect((await server.signIn('free@example.com')).json.data.user.subscription).toMatchObject({ planType: 'PREMIUM', endDate: subscription.endDate });
  });

  it('lets each account use BISAYA30 once', async () => {
    expect((await redeem('free@example.com', 'BISAYA30')).status).toBe(200);
    const again = await redeem('free@example.com', 'BISAYA30');
    expect([again.status, again.json.success, again.json.message]).toEqual([409, false, VOUCHER_MESSAGES.usedByYou]);
    const seededUser = await redeem('voucher@example.com', 'bisaya30');
    expect([seededUser.status, seededUser.json.message]).toEqual([409, VOUCHER_MESSAGES.usedByYou]);
    expect((await redeem('canceled@example.com', 'BISAYA30')).status).toBe(200);
  });

  it('lets only one account ever use SUGBO365', async () => {
    const first = await redeem('free@example.com', 'SUGBO365');
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({ details: { subscriptionDays: 365, originalVoucherTerms: { cycle: 'year', price: '990.00' } } });
    const other = await redeem('premium@example.com', 'SUGBO365');
    // Used up by someone else reads exactly like a code that does not exist.
    const unknown = await redeem('premium@example.com', 'NOSUCHCODE');
    expect([other.status, other.json.message]).toEqual([400, VOUCHER_MESSAGES.unknown]);
    expect([unknown.status, unknown.json.message]).toEqual([other.status, other.json.message]);
    expect(await statusOf('premium@example.com')).toMatchObject({ paymentMethod: 'MAYA_VAULT', status: 'ACTIVE' });
  });

  it('refuses an unknown, an empty, an inactive and an expired code with a clear message', async () => {
    const unknown = await redeem('free@example.com', 'NOPE1234');
    expect([unknown.status, unknown.json.message]).toEqual([400, VOUCHER_MESSAGES.unknown]);
    for (const code of ['', '   ', undefined]) {
      const empty = await redeem('free@example.com', code);
      expect([empty.status, empty.json.message], String(code)).toEqual([400, 'Voucher code is required']);
    }
    expect((await redeem('free@example.com', 'X'.repeat(33))).status).toBe(400);

    await server.db.query(`UPDATE vouchers SET active = false WHERE code = 'SUGBO365'`);
    const inactive = await redeem('free@example.com', 'SUGBO365');
    expect([inactive.status, inactive.json.message]).toEqual([400, VOUCHER_MESSAGES.inactive]);

    const at = await server.freezeClock();
    await server.db.query(`UPDATE vouchers SET valid_until = $1 WHERE code = 'BISAYA30'`, [new Date(at.getTime() + DAY_MS)]);
    await server.setClock(new Date(at.getTime() + 2 * DAY_MS));
    const expired = await redeem('free@example.com', 'BISAYA30');
    expect([expired.status, expired.json.message]).toEqual([400, VOUCHER_MESSAGES.expired]);
    expect(await statusOf('free@example.com')).toMatchObject({ planType: 'FREE' });
  });

  it('on top of a renewing card plan adds the days to its end date; the plan renews on its card after them (design: money at the seams)', async () => {
    const at = await server.freezeClock();
    const paid = await statusOf('premium@example.com');
    const { status, json } = await redeem('premium@example.com', 'BISAYA30');
    expect(status, json.message).toBe(200);
    const end = new Date(new Date(paid.endDate!).getTime() + 30 * DAY_MS).toISOString();
    expect(json.data).toMatchObject({ id: paid.subscriptionId, startDate: at.toISOString(), endDate: end, previousPlanId: 1 });

    // The same subscription, on its card, auto-renewing, its next billing date 30 days later.
    expect(await statusOf('premium@example.com')).toMatchObject({ subscriptionId: paid.subscriptionId, paymentMethod: 'MAYA_VAULT', status: 'ACTIVE', endDate: end });
    const history = await historyOf('premium@example.com');
    expect(history[0]).toMatchObject({ id: paid.subscriptionId, status: 'ACTIVE', endDate: end, autoRenew: true });
    const live = await server.db.query(`SELECT 1 FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.email = 'premium@example.com' AND s.status IN ('ACTIVE', 'PAST_DUE', 'CANCELED')`);
    expect(live.rows).toHaveLength(1);
  });

  it('on top of a canceled plan still in its period adds the days to its end date', async () => {
    const canceled = await statusOf('canceled@example.com');
    const { json } = await redeem('canceled@example.com', 'SUGBO365');
    expect(json.data.endDate).toBe(new Date(new Date(canceled.endDate!).getTime() + 365 * DAY_MS).toISOString());
  });

  it('expires at its end date: PREMIUM the second before, FREE from then on, EXPIRED in history', async () => {
    await server.freezeClock();
    const { json } = await redeem('free@example.com', 'BISAYA30');
    const end = new Date(json.data.endDate as string);
    await server.setClock(new Date(end.getTime() - 1000));
    expect(await statusOf('free@example.com')).toMatchObject({ planType: 'PREMIUM', paymentMethod: 'VOUCHER' });
    await server.setClock(end);
    expect(await statusOf('free@example.com')).toMatchObject({ planType: 'FREE', subscriptionId: null, paymentMethod: null });
    expect((await historyOf('free@example.com'))[0]).toMatchObject({ id: json.data.id, status: 'EXPIRED' });
  });

  it('applies a double redeem sent at once only once', async () => {
    const token = await server.tokenOf('free@example.com');
    const results = await Promise.all(
      [1, 2, 3].map(() => server.call('POST', `${V1}/subscription-voucher/redeem`, { token, body: { code: 'BISAYA30' } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const subs = await server.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.email = 'free@example.com' AND s.payment_method = 'VOUCHER'`,
    );
    expect(subs.rows[0]!.count).toBe(1);
  });

  it('gives a single-use code to exactly one of two accounts racing for it', async () => {
    const results = await Promise.all([
      redeem('free@example.com', 'SUGBO365'),
      redeem('canceled@example.com', 'SUGBO365'),
      redeem('premium@example.com', 'SUGBO365'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    const rows = await server.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM voucher_redemptions WHERE code = 'SUGBO365'`);
    expect(rows.rows[0]!.count).toBe(1);
  });
});
