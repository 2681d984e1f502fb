/**
 * A move down at the end of the paid period (docs/product.md#scheduled-downgrade; review
 * new-viewer-walk finding 3), and a voucher on a paid plan (finding 4), on the real server (HTTP API,
 * PGlite or PostgreSQL) and its local Maya sandbox: a cheaper plan chosen while paid time runs is not
 * charged now; the renewal bills the next period on it at its price, exactly once; "Keep Yearly" undoes
 * it until then; schedule, undo and the renewal sent at once end consistent. After every scenario the
 * money invariants hold (support/money-invariants.ts: what Maya charged minus what was reversed equals
 * the periods granted).
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addBillingPeriod } from '../../../server/billing/periods';
import { renewalReference, renewSubscription, type RenewalDeps } from '../../../server/billing/renewals';
import { SERVER_START_TIMEOUT_MS, type BillingServer } from '../support/billing-helpers';
import { CHECKS_PER_CALL, checkMoneyInvariants, type MoneyQuery } from '../support/money-invariants';
import {
  at, attemptsFor, expectMoneyInvariant, keptCharges, latestSubscription, MINUTE, onHostedPage, PREMIUM, resetSeams, setCard, startSeamsServer,
} from '../support/seams-harness';
import { CONSENT } from '../support/consent';

let server: BillingServer;
let deps: RenewalDeps;
let query: MoneyQuery;

beforeAll(async () => {
  ({ server, deps } = await startSeamsServer());
  query = (sql, params) => server.db.query(sql, params);
}, SERVER_START_TIMEOUT_MS);
beforeEach(() => resetSeams(server));

const MONTHLY = 1;
const YEARLY = 2;

const statusOf = async () => (await server.as(PREMIUM).get('/subscription/status')).json.data;
const preview = (planId: number) => server.as(PREMIUM).get(`/subscription/update-plan/preview?planId=${planId}`);
const changePlan = async (planId: number, subscriptionId?: string) =>
  server.as(PREMIUM).post('/subscription/update-plan', { ...CONSENT, subscriptionId: subscriptionId ?? (await statusOf()).subscriptionId, planId });
const undo = async (subscriptionId?: string) =>
  server.as(PREMIUM).post('/subscription/update-plan/undo', { subscriptionId: subscriptionId ?? (await statusOf()).subscriptionId });
const scheduledIn = async (id: string) =>
  (await server.db.query<{ scheduled_plan_id: number | null }>('SELECT scheduled_plan_id FROM subscriptions WHERE id = $1', [id])).rows[0]!.scheduled_plan_id;

/** Both money checks: the seams' own and the four invariants, with nothing left settling. */
async function moneyHolds() {
  await expectMoneyInvariant(server);
  expect(await checkMoneyInvariants(query, { settlingMs: 0 })).toBe(CHECKS_PER_CALL);
}

/** premium@ moves up Monthly → Yearly on the seeded card (charged ₱990 now, days carried): the Yearly subscription. */
async function onYearly() {
  await server.freezeClock();
  const up = await changePlan(YEARLY);
  expect(up.status, up.json.message).toBe(200);
  const yearly = await statusOf();
  expect(yearly).toMatchObject({ planId: YEARLY, status: 'ACTIVE' });
  expect(await keptCharges(server)).toEqual(['990.00']);
  return { id: yearly.subscriptionId as string, end: new Date(yearly.endDate as string) };
}

/** The period after `end` as the renewal must grant it, on `planId`'s calendar. */
const nextEnd = (end: Date, planId: number) => addBillingPeriod(end, planId === MONTHLY ? 'month' : 'year', 1).toISOString();

describe('a move down waits for the end of the paid period', () => {
  it('Yearly → Monthly: nothing charged now, shown as scheduled, then renewed on Monthly at ₱99 exactly once', async () => {
    const yearly = await onYearly();

    const shown = await preview(MONTHLY);
    expect(shown.status, shown.json.message).toBe(200);
    expect(shown.json.data).toEqual({ amountDue: '0.00', currency: 'PHP', carriedDays: 0, changesOn: yearly.end.toISOString(), newEndDate: nextEnd(yearly.end, MONTHLY) });

    const scheduled = await changePlan(MONTHLY);
    expect(scheduled.status, scheduled.json.message).toBe(200);
    expect(scheduled.json.data).toEqual({ paymentMethod: 'MAYA_VAULT', paymentLink: null });
    expect(scheduled.json.message).toMatch(/^Your plan changes to Monthly on .+\. Nothing is charged now\.$/);
    expect(await keptCharges(server)).toEqual(['990.00']);
    expect(await statusOf()).toMatchObject({
      planId: YEARLY, status: 'ACTIVE', endDate: yearly.end.toISOString(),
      scheduledChange: { planName: 'Monthly', planAmount: '99.00', date: yearly.end.toISOString() },
    });
    // In Bisaya both plans are named in Bisaya (product.md#plan-texts): the scheduled one too.
    const inBisaya = await server.call('GET', '/api/v1/mobile/subscription/status', { headers: { Cookie: 'lang=ceb' }, token: await server.tokenOf(PREMIUM) });
    expect(inBisaya.json.data).toMatchObject({ planName: 'Tinuig', scheduledChange: { planName: 'Binulan' } });
    // Chosen again: still one scheduled change, still nothing charged.
    expect((await changePlan(MONTHLY)).status).toBe(200);
    expect(await keptCharges(server)).toEqual(['990.00']);
    await moneyHolds();

    await server.setClock(at(yearly.end, MINUTE));
    expect(await renewSubscription(deps, yearly.id)).toBe('renewed');
    expect(await renewSubscription(deps, yearly.id)).toBe('skipped');
    expect(await attemptsFor(server, renewalReference(yearly.id, yearly.end))).toEqual(['PAYMENT_SUCCESS']);
    expect(await keptCharges(server)).toEqual(['990.00', '99.00']);
    const monthly = await statusOf();
    expect(monthly).toMatchObject({ planId: MONTHLY, planName: 'Monthly', status: 'ACTIVE', startDate: yearly.end.toISOString(), endDate: nextEnd(yearly.end, MONTHLY) });
    expect(monthly.scheduledChange).toBeUndefined();
    await moneyHolds();

    // The month after renews on Monthly again, at ₱99.
    const monthEnd = new Date(monthly.endDate as string);
    await server.setClock(at(monthEnd, MINUTE));
    expect(await renewSubscription(deps, monthly.subscriptionId)).toBe('renewed');
    expect(await keptCharges(server)).toEqual(['990.00', '99.00', '99.00']);
    expect(await statusOf()).toMatchObject({ planId: MONTHLY, endDate: nextEnd(monthEnd, MONTHLY) });
    await moneyHolds();
  });

  it('undone ("Keep Yearly"): renewed on Yearly at ₱990; a second undo finds nothing to undo', async () => {
    const yearly = await onYearly();
    expect((await changePlan(MONTHLY)).status).toBe(200);
    const undone = await undo();
    expect(undone.status, undone.json.message).toBe(200);
    expect(undone.json.message).toMatch(/^You keep the Yearly plan\. It renews on .+\.$/);
    expect((await statusOf()).scheduledChange).toBeUndefined();
    const again = await undo();
    expect(again.status).toBe(409);
    expect(again.json.message).toBe('No plan change is scheduled for this subscription.');

    await server.setClock(at(yearly.end, MINUTE));
    expect(await renewSubscription(deps, yearly.id)).toBe('renewed');
    expect(await keptCharges(server)).toEqual(['990.00', '990.00']);
    expect(await statusOf()).toMatchObject({ planId: YEARLY, startDate: yearly.end.toISOString(), endDate: nextEnd(yearly.end, YEARLY) });
    await moneyHolds();
  });

  it('undo is refused once the paid period is over (the renewal bills the cheaper plan), for someone else and without an id', async () => {
    const yearly = await onYearly();
    expect((await changePlan(MONTHLY)).status).toBe(200);
    expect((await server.as('canceled@example.com').post('/subscription/update-plan/undo', { subscriptionId: yearly.id })).status).toBe(404);
    expect((await server.as(PREMIUM).post('/subscription/update-plan/undo', {})).status).toBe(400);
    await server.setClock(at(yearly.end, MINUTE));
    expect((await undo(yearly.id)).status).toBe(409);
    expect(await scheduledIn(yearly.id)).toBe(MONTHLY);
    expect(await renewSubscription(deps, yearly.id)).toBe('renewed');
    expect(await statusOf()).toMatchObject({ planId: MONTHLY });
    await moneyHolds();
  });

  it('schedule and undo sent at once, then the renewal twice at once with an undo: consistent, one charge at the plan granted', async () => {
    const yearly = await onYearly();
    const answers = await Promise.all([changePlan(MONTHLY, yearly.id), undo(yearly.id), changePlan(MONTHLY, yearly.id), undo(yearly.id), changePlan(MONTHLY, yearly.id)]);
    for (const answer of answers) expect([200, 409], answer.json.message).toContain(answer.status);
    expect(await keptCharges(server)).toEqual(['990.00']);
    // What the status says is what the row holds.
    const scheduled = await scheduledIn(yearly.id);
    const shown = await statusOf();
    expect(shown.scheduledChange?.planName ?? null).toBe(scheduled === MONTHLY ? 'Monthly' : null);
    await moneyHolds();

    await server.setClock(at(yearly.end, MINUTE));
    const [first, second, late] = await Promise.all([renewSubscription(deps, yearly.id), renewSubscription(deps, yearly.id), undo(yearly.id)]);
    expect([first, second].sort()).toEqual(['renewed', 'skipped']);
    expect(late.status).toBe(409);
    const granted = scheduled ?? YEARLY;
    const price = granted === MONTHLY ? '99.00' : '990.00';
    expect(await keptCharges(server)).toEqual(['990.00', price]);
    expect(await statusOf()).toMatchObject({ planId: granted, startDate: yearly.end.toISOString(), endDate: nextEnd(yearly.end, granted) });
    const record = (await server.db.query<{ plan_id: number; amount: string }>(
      `SELECT plan_id, total_amount::text AS amount FROM payment_records WHERE reference_id = $1`, [renewalReference(yearly.id, yearly.end)],
    )).rows;
    expect(record).toEqual([{ plan_id: granted, amount: price }]);
    await moneyHolds();
  });

  it('a move up while a move down is scheduled is charged now and clears it', async () => {
    await server.db.query(
      `INSERT INTO plans (id, slug, name, description, type, price, currency, duration, billing_cycle, sort_order, features, popular)
       VALUES (60, 'family', 'Family', 'A test plan dearer than Yearly', 'PREMIUM', 1490.00, 'PHP', 1, 'year', 5, '[]', false)`,
    );
    const yearly = await onYearly();
    expect((await changePlan(MONTHLY)).status).toBe(200);
    const up = await changePlan(60);
    expect(up.status, up.json.message).toBe(200);
    expect(await keptCharges(server)).toEqual(['990.00', '1490.00']);
    const family = await statusOf();
    expect(family).toMatchObject({ planId: 60, status: 'ACTIVE' });
    expect(family.scheduledChange).toBeUndefined();
    expect(await scheduledIn(family.subscriptionId)).toBeNull();

    await server.setClock(at(new Date(family.endDate as string), MINUTE));
    expect(await renewSubscription(deps, family.subscriptionId)).toBe('renewed');
    expect(await keptCharges(server)).toEqual(['990.00', '1490.00', '1490.00']);
    expect((await latestSubscription(server, PREMIUM)).id).not.toBe(yearly.id);
    await moneyHolds();
  });

  it('a cancel clears it; a canceled subscription refuses a move down (it does not renew), reactivated it can schedule again', async () => {
    const yearly = await onYearly();
    expect((await changePlan(MONTHLY)).status).toBe(200);
    expect((await server.as(PREMIUM).post('/subscription/cancel', { subscriptionId: yearly.id })).status).toBe(200);
    expect(await scheduledIn(yearly.id)).toBeNull();
    const canceled = await statusOf();
    expect(canceled).toMatchObject({ status: 'CANCELED' });
    expect(canceled.scheduledChange).toBeUndefined();
    const refused = await changePlan(MONTHLY);
    expect(refused.status).toBe(409);
    expect(refused.json.message).toBe(
      'Your subscription is canceled and will not renew, so it cannot move to Monthly at the end of its period. Reactivate it first, then change your plan.',
    );
    expect((await preview(MONTHLY)).json.message).toBe(refused.json.message);
    expect(await keptCharges(server)).toEqual(['990.00']);

    expect((await server.as(PREMIUM).post('/subscription/resubscribe', { ...CONSENT, subscriptionId: yearly.id })).status).toBe(200);
    expect((await statusOf()).scheduledChange).toBeUndefined();
    expect((await changePlan(MONTHLY)).status).toBe(200);
    expect((await statusOf()).scheduledChange).toMatchObject({ planName: 'Monthly' });
    await moneyHolds();
  });

  it('PAST_DUE: a move down carries no time and is charged now, as before', async () => {
    const yearly = await onYearly();
    await setCard(server, 'DECLINE');
    await server.setClock(at(yearly.end, MINUTE));
    expect(await renewSubscription(deps, yearly.id)).toBe('failed');
    expect((await statusOf()).status).toBe('PAST_DUE');
    expect((await preview(MONTHLY)).json.data).toMatchObject({ amountDue: '99.00', carriedDays: 0 });
    expect((await preview(MONTHLY)).json.data.changesOn).toBeUndefined();
    await setCard(server, 'APPROVE');
    const changed = await changePlan(MONTHLY);
    expect(changed.status, changed.json.message).toBe(200);
    expect(changed.json.message).toBe('Your plan has been changed to Monthly. The remaining days of your previous plan were added.');
    expect(await keptCharges(server)).toEqual(['990.00', '99.00']);
    expect(await statusOf()).toMatchObject({ planId: MONTHLY, status: 'ACTIVE' });
    await moneyHolds();
  });

  it('a checkout subscription: Renew now pays the next period on the scheduled plan, at its price', async () => {
    const yearly = await onYearly();
    expect((await server.as(PREMIUM).post('/subscription/update-payment-method', { ...CONSENT, subscriptionId: yearly.id, paymentMethod: 'MAYA_CHECKOUT' })).status).toBe(200);
    expect((await changePlan(MONTHLY)).status).toBe(200);
    expect((await statusOf()).scheduledChange).toMatchObject({ planName: 'Monthly', planAmount: '99.00' });
    await server.setClock(at(yearly.end, -2 * 24 * 60 * MINUTE));
    const opened = await server.as(PREMIUM).post('/payment/checkout/renew', { subscriptionId: yearly.id });
    expect(opened.status, opened.json.message).toBe(200);
    await onHostedPage(server, opened.json.data.paymentLink as string, 'approve');
    expect(await keptCharges(server)).toEqual(['990.00', '99.00']);
    const next = (await server.db.query<{ plan_id: number; start_date: Date; end_date: Date }>(
      'SELECT plan_id, start_date, end_date FROM subscriptions WHERE previous_plan_id = $1 AND start_date = $2', [YEARLY, yearly.end],
    )).rows;
    expect(next).toEqual([{ plan_id: MONTHLY, start_date: yearly.end, end_date: new Date(nextEnd(yearly.end, MONTHLY)) }]);
    await moneyHolds();
  });
});

describe('a voucher on a paid plan (finding 4)', () => {
  it('adds its days to a renewing card plan, which renews on its card after them at its own price; a scheduled move down waits for them too', async () => {
    const yearly = await onYearly();
    expect((await changePlan(MONTHLY)).status).toBe(200);
    const redeemed = await server.as(PREMIUM).post('/subscription-voucher/redeem', { code: 'BISAYA30' });
    expect(redeemed.status, redeemed.json.message).toBe(200);
    const extendedEnd = new Date(yearly.end.getTime() + 30 * 24 * 60 * MINUTE);
    expect(await statusOf()).toMatchObject({
      subscriptionId: yearly.id, planId: YEARLY, paymentMethod: 'MAYA_VAULT', endDate: extendedEnd.toISOString(),
      scheduledChange: { planName: 'Monthly', date: extendedEnd.toISOString() },
    });
    // The history prices nothing for the voucher: no row of it, the paid plan runs on.
    const history = (await server.as(PREMIUM).get('/subscription/history')).json.data as Array<{ plan: string; price: string }>;
    expect(history.map((h) => h.plan)).not.toContain('Voucher 30 Days');

    await server.setClock(at(yearly.end, MINUTE));
    expect(await renewSubscription(deps, yearly.id)).toBe('skipped'); // the voucher's days run
    await server.setClock(at(extendedEnd, MINUTE));
    expect(await renewSubscription(deps, yearly.id)).toBe('renewed');
    expect(await keptCharges(server)).toEqual(['990.00', '99.00']);
    expect(await statusOf()).toMatchObject({ planId: MONTHLY, paymentMethod: 'MAYA_VAULT', startDate: extendedEnd.toISOString() });
    await moneyHolds();
  });

  it('a voucher that replaces a plan (checkout) shows in the history at ₱0, not at its face value', async () => {
    const yearly = await onYearly();
    expect((await server.as(PREMIUM).post('/subscription/update-payment-method', { ...CONSENT, subscriptionId: yearly.id, paymentMethod: 'MAYA_CHECKOUT' })).status).toBe(200);
    expect((await server.as(PREMIUM).post('/subscription-voucher/redeem', { code: 'BISAYA30' })).status).toBe(200);
    const [voucher] = (await server.as(PREMIUM).get('/subscription/history')).json.data as Array<{ plan: string; price: string }>;
    expect(voucher).toMatchObject({ plan: 'Voucher 30 Days', price: '0.00' });
    await moneyHolds();
  });
});
