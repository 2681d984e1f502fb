/**
 * Pay now while PAST_DUE (issue 37, walk findings 2 and 8; product.md#pay-now): Renew now on a PAST_DUE
 * card or wallet subscription charges that method with the viewer in front, and a card whose bank asks
 * to confirm every payment is confirmed on the bank's page: the step a renewal made while nobody was
 * there could not take. Real server (HTTP API, PGlite) and its Maya sandbox; after every scenario the
 * money invariant holds (what Maya kept = what our records say was paid; one live subscription).
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renewalReference, renewSubscription, type RenewalDeps } from '../../../server/billing/renewals';
import { translate } from '../../../server/platform/translate';
import { SERVER_START_TIMEOUT_MS, type BillingServer } from '../support/billing-helpers';
import {
  at, attemptsFor, expectMoneyInvariant, keptCharges, latestSubscription, linkedWallet, mailTo, MINUTE, newRecords, onHostedPage, PREMIUM,
  resetSeams, setCard, startSeamsServer,
} from '../support/seams-harness';

let server: BillingServer;
let deps: RenewalDeps;

beforeAll(async () => {
  ({ server, deps } = await startSeamsServer());
}, SERVER_START_TIMEOUT_MS);
beforeEach(() => resetSeams(server));

const pay = (subscriptionId: string) => server.as(PREMIUM).post('/payment/renewal/pay', { subscriptionId });
const statusOf = async () => (await server.as(PREMIUM).get('/subscription/status')).json.data;

/** premium@'s monthly card renewal fails at its end date in the way `behaviour` makes it: PAST_DUE. */
async function pastDue(behaviour: 'DECLINE' | 'THREE_DS') {
  await setCard(server, behaviour);
  const sub = await latestSubscription(server, PREMIUM);
  await server.setClock(at(sub.end_date, MINUTE));
  expect(await renewSubscription(deps, sub.id)).toBe('failed');
  expect((await latestSubscription(server, PREMIUM)).status).toBe('PAST_DUE');
  return { ...sub, reference: renewalReference(sub.id, sub.end_date) };
}

describe('pay now on the subscription\'s own card or wallet', () => {
  it('a declined card, topped up: Renew now pays the overdue period at once, once, on the card', async () => {
    const sub = await pastDue('DECLINE');
    await setCard(server, 'APPROVE');
    const answer = await pay(sub.id);
    expect(answer.status, answer.json.message).toBe(200);
    expect(answer.json.data).toEqual({ paid: true });
    expect(await statusOf()).toMatchObject({ status: 'ACTIVE', paymentMethod: 'MAYA_VAULT' });
    expect(await keptCharges(server)).toEqual(['99.00']);
    // The period is paid on the card: the record says so, and pressing again charges nothing.
    expect((await newRecords(server, PREMIUM))[0]).toMatchObject({ reference_id: sub.reference, status: 'PAYMENT_SUCCESS', payment_method: 'MAYA_VAULT' });
    expect((await pay(sub.id)).status).toBe(409);
    await expectMoneyInvariant(server);
  });

  it('a card still declining: the viewer is told at once; after 3 tries in a Manila day, no more charges that day', async () => {
    const sub = await pastDue('DECLINE'); // the engine's attempt is the first of the day
    const first = await pay(sub.id);
    expect(first.status).toBe(402);
    expect((await pay(sub.id)).status).toBe(402);
    const capped = await pay(sub.id);
    expect(capped.status).toBe(409);
    expect(capped.json.message).toMatch(/tried 3 times today/);
    expect(await attemptsFor(server, sub.reference)).toEqual(['PAYMENT_FAILED', 'PAYMENT_FAILED', 'PAYMENT_FAILED']);
    expect(await statusOf()).toMatchObject({ status: 'PAST_DUE' });
    await expectMoneyInvariant(server);
  });

  it('parallel presses make one charge', async () => {
    const sub = await pastDue('DECLINE');
    await setCard(server, 'APPROVE');
    const answers = await Promise.all(Array.from({ length: 5 }, () => pay(sub.id)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual([409, 409, 409, 409]);
    expect(await keptCharges(server)).toEqual(['99.00']);
    await expectMoneyInvariant(server);
  });

  it('a linked wallet pays the overdue period of a wallet subscription', async () => {
    const sub = await pastDue('DECLINE');
    const linkId = await linkedWallet(server, PREMIUM);
    // The subscription renews on the wallet (as a change of method while PAST_DUE would leave it, without its own charge).
    await server.db.query(`UPDATE subscriptions SET payment_method = 'MAYA_WALLET', payment_details = $2 WHERE id = $1`, [sub.id, JSON.stringify({ mayaWalletId: linkId })]);
    const answer = await pay(sub.id);
    expect(answer.status, answer.json.message).toBe(200);
    expect(answer.json.data).toEqual({ paid: true });
    expect(await statusOf()).toMatchObject({ status: 'ACTIVE', paymentMethod: 'MAYA_WALLET' });
    expect(await keptCharges(server)).toEqual(['99.00']);
    await expectMoneyInvariant(server);
  });
});

describe('a card whose bank asks to confirm every payment', () => {
  it('Renew now leads to the bank\'s page for the renewal\'s own open charge; confirmed, the period is paid once', async () => {
    const sub = await pastDue('THREE_DS');
    expect((await statusOf()).renewal).toMatchObject({ state: 'PAST_DUE', failure: 'Your bank asked to confirm the payment' });
    // The mail asks for the confirmation and says where (not "change your payment method"), in the reader's language.
    const mail = (await mailTo(server, PREMIUM)).at(-1)!;
    expect(mail.subject).toBe('Sine Bisaya: confirm your payment with your bank');
    expect(mail.body).toMatch(/Press Renew now on your Subscription page and confirm it with your bank: http:\/\/\S+\/subscription We will try again on /);
    const bisaya = translate(mail.body, 'ceb');
    expect(bisaya).toMatch(/^Hi \S+, gipakumpirma sa imong bangko/);
    expect(bisaya).toMatch(/Sulayan namo pag-usab sa /);
    const answer = await pay(sub.id);
    expect(answer.status, answer.json.message).toBe(200);
    const link = answer.json.data.paymentLink as string;
    expect(link).toContain('/3ds/');
    // The engine's charge is the one confirmed: no second charge beside it.
    expect(await attemptsFor(server, sub.reference)).toEqual(['FOR_AUTHENTICATION']);
    expect((await pay(sub.id)).json.data.paymentLink).toBe(link);
    await onHostedPage(server, link, 'approve');
    await server.as(PREMIUM).get('/payment/history'); // a read settles what Maya says
    expect(await statusOf()).toMatchObject({ status: 'ACTIVE' });
    expect(await keptCharges(server)).toEqual(['99.00']);
    await expectMoneyInvariant(server);
  });

  it('once the engine\'s confirmation has expired, Renew now charges the card again with the viewer there, and the bank\'s page pays it', async () => {
    const sub = await pastDue('THREE_DS');
    // The bank's page lasts 15 minutes at Maya: the viewer reads the mail an hour later.
    await server.setClock(at(sub.end_date, 61 * MINUTE));
    const answer = await pay(sub.id);
    expect(answer.status, answer.json.message).toBe(200);
    const link = answer.json.data.paymentLink as string;
    expect(await attemptsFor(server, sub.reference)).toEqual(['PAYMENT_EXPIRED', 'FOR_AUTHENTICATION']);
    const back = await onHostedPage(server, link, 'approve');
    // The bank sends the viewer to the payment's result page, which reads Maya before it says anything.
    expect(back).toContain('/payment?status=success');
    expect(await statusOf()).toMatchObject({ status: 'ACTIVE' });
    expect(await keptCharges(server)).toEqual(['99.00']);
    await expectMoneyInvariant(server);
  });
});
