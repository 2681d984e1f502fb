/**
 * Auto-renewal told, agreed and reminded (issue 34; product.md#renewal-consent, #renewal-notice,
 * #card-expiry): every path that renews on a card or wallet is refused without the viewer's consent
 * and records it when given; the yearly renewal notice and the card-expiry notice go out once each,
 * by the billing clock, from the engine's sweeps.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startBillingEngine, type BillingEngine } from '../../../server/billing/engine';
import type { RenewalDeps } from '../../../server/billing/renewals';
import { renewalConsentText } from '../../../src/lib/renewalConsent';
import { addBillingPeriod } from '../../../src/lib/billingPeriod';
import { cardExpiresAt } from '../../../src/lib/card';
import { DAY_MS, SERVER_START_TIMEOUT_MS, V1, type BillingServer } from '../support/billing-helpers';
import { CONSENT, renewalConsent } from '../support/consent';
import { FREE, latestSubscription, linkedWallet, mailTo, PREMIUM, resetSeams, startSeamsServer, userId, verifiedCard } from '../support/seams-harness';

let server: BillingServer;
let deps: RenewalDeps;
beforeAll(async () => {
  ({ server, deps } = await startSeamsServer());
}, SERVER_START_TIMEOUT_MS);
beforeEach(async () => {
  await resetSeams(server);
  await server.db.exec('DELETE FROM renewal_consents; DELETE FROM mailbox');
  await server.db.exec(`UPDATE saved_cards SET expiry_notice_at = NULL, exp_month = 12, exp_year = 2030, expires_at = '2030-12-31T16:00:00Z' WHERE card_token_id = 'seed-card-premium'`);
});

const REFUSED = 'Please agree to automatic renewal to continue.';
const REFUSED_CEB = 'Palihug uyoni ang kusang pag-renew aron makapadayon.';
const consents = async () =>
  (await server.db.query<{ action: string; payment_method: string; language: string; shown_text: string; server_text: string; text_matches: boolean; price: string; renews_on: Date; client_address: string | null; subscription_id: string | null; payment_record_id: string | null }>(
    'SELECT action, payment_method, language, shown_text, server_text, text_matches, price::text AS price, renews_on, client_address, subscription_id, payment_record_id FROM renewal_consents ORDER BY given_at, action',
  )).rows;
const statusOf = async (email: string) => (await server.as(email).get('/subscription/status')).json.data;
const paymentsOf = async (email: string) =>
  (await server.db.query<{ status: string }>('SELECT r.status FROM payment_records r JOIN users u ON u.id = r.user_id WHERE u.email = $1 ORDER BY r.created_at', [email])).rows;
const inBisaya = async (email: string, path: string, body: unknown) => {
  const response = await server.app.request(`${V1}${path}`, {
    method: 'POST', headers: { Authorization: `Bearer ${await server.tokenOf(email)}`, 'Content-Type': 'application/json', 'Accept-Language': 'ceb-PH' }, body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as { message: string } };
};

describe('a purchase that renews on a card or wallet', () => {
  it('by card: refused without the tick (nothing written, nothing charged), then recorded with the words shown and the server\'s own', async () => {
    const card = await verifiedCard(server, FREE);
    const before = (await paymentsOf(FREE)).length;
    const refused = await server.as(FREE).post('/payment/vault/create', { planId: 1, cardToken: card });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toBe(REFUSED);
    const unticked = await server.as(FREE).post('/payment/vault/create', { planId: 1, cardToken: card, renewalConsent: { ...renewalConsent(), accepted: false } });
    expect(unticked.json.message).toBe(REFUSED);
    const otherWords = await server.as(FREE).post('/payment/vault/create', { planId: 1, cardToken: card, renewalConsent: { ...renewalConsent(), text: 'I agree.' } });
    expect(otherWords.status).toBe(400);
    expect(otherWords.json.message).toBe('The renewal terms you agreed to are not the ones offered now. Please reload the page and agree again.');
    expect(await paymentsOf(FREE)).toHaveLength(before);
    expect((await statusOf(FREE)).planType).toBe('FREE');
    expect(await consents()).toEqual([]);

    const at = await server.freezeClock();
    const shown = renewalConsentText({ renewsOn: addBillingPeriod(at, 'month', 1), amount: '99.00', currency: 'PHP' }, 'en');
    const paid = await server.as(FREE).post('/payment/vault/create', { planId: 1, cardToken: card, renewalConsent: { accepted: true, text: shown, language: 'en' } });
    expect(paid.status, paid.json.message).toBe(200);
    expect((await statusOf(FREE)).planType).toBe('PREMIUM');
    const [recorded, ...more] = await consents();
    expect(more).toEqual([]);
    expect(recorded).toMatchObject({ action: 'PURCHASE', payment_method: 'MAYA_VAULT', language: 'en', shown_text: shown, server_text: shown, text_matches: true, price: '99.00' });
    expect(recorded!.renews_on.getTime()).toBe(addBillingPeriod(at, 'month', 1).getTime());
    expect(recorded!.payment_record_id).toEqual(expect.any(String));
    expect(recorded!.client_address).toEqual(expect.any(String));
    expect(shown).toMatch(/^Renews automatically on \d\d\/\d\d\/\d{4} at ₱99 until you cancel\. Cancel anytime on Subscription\.$/);
  });

  it('by wallet: refused without it, recorded with it; Bisaya words are kept as shown, in Bisaya, beside the server\'s Bisaya', async () => {
    const linkId = await linkedWallet(server, FREE);
    const refused = await inBisaya(FREE, '/payment/wallet/create', { planId: 2, linkId });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toBe(REFUSED_CEB);
    // Another date than the server's (the app's clock): accepted as the sentence, recorded as not matching letter for letter.
    const shown = renewalConsent('ceb', { renewsOn: new Date('2030-01-15T04:00:00Z'), amount: '990.00', currency: 'PHP' });
    expect(shown.text).toBe('Kusang mo-renew sa Enero 15, 2030 sa presyong ₱990 hangtod kanselahon nimo. Mahimo nimo kining kanselahon bisan kanus-a sa Subscription page.');
    const paid = await inBisaya(FREE, '/payment/wallet/create', { planId: 2, linkId, renewalConsent: shown });
    expect(paid.status, paid.json.message).toBe(200);
    const [recorded] = await consents();
    expect(recorded).toMatchObject({ action: 'PURCHASE', payment_method: 'MAYA_WALLET', language: 'ceb', shown_text: shown.text, text_matches: false, price: '990.00' });
    expect(recorded!.server_text).toMatch(/^Kusang mo-renew sa \S+ \d+, \d{4} sa presyong ₱990 hangtod kanselahon nimo\./);
  });

  it('checkout needs none (it does not renew)', async () => {
    const checkout = await server.as(FREE).post('/payment/checkout/create', { planId: 1 });
    expect(checkout.status, checkout.json.message).toBe(200);
    expect(await consents()).toEqual([]);
  });
});

describe('changes that keep a card or wallet renewing', () => {
  it('a plan change on a card: refused without it (nothing charged), recorded with the new price and the new end date', async () => {
    const sub = await latestSubscription(server, PREMIUM);
    const before = (await paymentsOf(PREMIUM)).length;
    const refused = await server.as(PREMIUM).post('/subscription/update-plan', { subscriptionId: sub.id, planId: 2 });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toBe(REFUSED);
    expect(await paymentsOf(PREMIUM)).toHaveLength(before);
    const preview = (await server.as(PREMIUM).get('/subscription/update-plan/preview?planId=2')).json.data as { newEndDate: string };
    const changed = await server.as(PREMIUM).post('/subscription/update-plan', { ...CONSENT, subscriptionId: sub.id, planId: 2 });
    expect(changed.status, changed.json.message).toBe(200);
    const [recorded] = await consents();
    expect(recorded).toMatchObject({ action: 'PLAN_CHANGE', payment_method: 'MAYA_VAULT', price: '990.00', subscription_id: sub.id, payment_record_id: expect.any(String) });
    // The preview and the change ran at the same billing clock only to the minute: the end date is the preview's, give or take the seconds between.
    expect(Math.abs(recorded!.renews_on.getTime() - new Date(preview.newEndDate).getTime())).toBeLessThan(60_000);
  });

  it('a change of payment method to a card or wallet is refused without it; to checkout it needs none', async () => {
    const sub = await latestSubscription(server, PREMIUM);
    const linkId = await linkedWallet(server, PREMIUM);
    const toWallet = { subscriptionId: sub.id, paymentMethod: 'MAYA_WALLET', paymentMethodDetails: JSON.stringify({ mayaWalletId: linkId }) };
    const refused = await server.as(PREMIUM).post('/subscription/update-payment-method', toWallet);
    expect(refused.status).toBe(400);
    expect(refused.json.message).toBe(REFUSED);
    expect((await statusOf(PREMIUM)).paymentMethod).toBe('MAYA_VAULT');
    const changed = await server.as(PREMIUM).post('/subscription/update-payment-method', { ...toWallet, ...CONSENT });
    expect(changed.status, changed.json.message).toBe(200);
    expect((await statusOf(PREMIUM)).paymentMethod).toBe('MAYA_WALLET');
    expect(await consents()).toEqual([expect.objectContaining({ action: 'METHOD_CHANGE', payment_method: 'MAYA_WALLET', price: '99.00', subscription_id: sub.id })]);
    expect((await consents())[0]!.renews_on.getTime()).toBe(sub.end_date.getTime());
    const toCheckout = await server.as(PREMIUM).post('/subscription/update-payment-method', { subscriptionId: sub.id, paymentMethod: 'MAYA_CHECKOUT' });
    expect(toCheckout.status, toCheckout.json.message).toBe(200);
    expect(await consents()).toHaveLength(1);
  });

  it('reactivating a canceled card subscription is refused without it, recorded with it', async () => {
    const sub = await latestSubscription(server, PREMIUM);
    expect((await server.as(PREMIUM).post('/subscription/cancel', { subscriptionId: sub.id })).status).toBe(200);
    const refused = await server.as(PREMIUM).post('/subscription/resubscribe', { subscriptionId: sub.id });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toBe(REFUSED);
    expect((await statusOf(PREMIUM)).status).toBe('CANCELED');
    const back = await server.as(PREMIUM).post('/subscription/resubscribe', { ...CONSENT, subscriptionId: sub.id });
    expect(back.status, back.json.message).toBe(200);
    expect((await statusOf(PREMIUM)).status).toBe('ACTIVE');
    expect(await consents()).toEqual([expect.objectContaining({ action: 'REACTIVATE', payment_method: 'MAYA_VAULT', subscription_id: sub.id, price: '99.00' })]);
  });
});

describe('notices by the billing clock, from the engine', () => {
  let engine: BillingEngine | undefined;
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
  });
  /** Sweeps once and waits until the queued jobs are done (their subscriptions released). */
  const sweepAndWait = async () => {
    const queued = await engine!.sweep();
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const busy = (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM subscriptions WHERE queued_at IS NOT NULL')).rows[0]!.n;
      if (busy === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return queued;
  };
  const yearlyPremium = async () => {
    const sub = await latestSubscription(server, PREMIUM);
    expect((await server.as(PREMIUM).post('/subscription/update-plan', { ...CONSENT, subscriptionId: sub.id, planId: 2 })).status).toBe(200);
    const yearly = await latestSubscription(server, PREMIUM);
    expect(yearly.id).not.toBe(sub.id);
    await server.db.exec('DELETE FROM mailbox');
    return yearly;
  };

  it('a yearly card plan is told 7 days before its renewal, once: the amount, the date, the card, how to cancel, the link', async () => {
    const yearly = await yearlyPremium();
    engine = await startBillingEngine(deps, { sweepMs: 3_600_000, concurrency: 2 });
    // 8 days before: nothing yet.
    await server.setClock(new Date(yearly.end_date.getTime() - 8 * DAY_MS));
    await sweepAndWait();
    expect(await mailTo(server, PREMIUM)).toEqual([]);
    await server.setClock(new Date(yearly.end_date.getTime() - 7 * DAY_MS + 60_000));
    await sweepAndWait();
    await sweepAndWait();
    const mails = (await mailTo(server, PREMIUM)).filter((m) => m.subject.includes('renews on'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Sine Bisaya: your Premium renews on \d\d\/\d\d\/\d{4}$/);
    expect(mails[0]!.body).toContain('your Yearly plan renews automatically on');
    expect(mails[0]!.body).toContain('we will charge ₱990 to your Visa **** **** **** 1381');
    expect(mails[0]!.body).toContain('cancel before then on your Subscription page: http://localhost/subscription');
    // Later sweeps before the renewal send nothing more for this period.
    await server.setClock(new Date(yearly.end_date.getTime() - 2 * DAY_MS));
    await sweepAndWait();
    expect((await mailTo(server, PREMIUM)).filter((m) => m.subject.includes('renews on'))).toHaveLength(1);
  });

  it('a monthly card plan is not told (the notice is for yearly renewals)', async () => {
    const sub = await latestSubscription(server, PREMIUM);
    engine = await startBillingEngine(deps, { sweepMs: 3_600_000, concurrency: 2 });
    await server.setClock(new Date(sub.end_date.getTime() - 6 * DAY_MS));
    await sweepAndWait();
    expect((await mailTo(server, PREMIUM)).filter((m) => m.subject.includes('renews on'))).toEqual([]);
  });

  it('the yearly notice goes in Bisaya to a Bisaya viewer', async () => {
    await server.db.query(`UPDATE users SET language = 'ceb' WHERE email = $1`, [PREMIUM]);
    try {
      const yearly = await yearlyPremium();
      engine = await startBillingEngine(deps, { sweepMs: 3_600_000, concurrency: 2 });
      await server.setClock(new Date(yearly.end_date.getTime() - 6 * DAY_MS));
      await sweepAndWait();
      const [mail] = (await mailTo(server, PREMIUM)).filter((m) => m.subject.includes('mo-renew'));
      expect(mail!.subject).toMatch(/^Sine Bisaya: mo-renew ang imong Premium sa \S+ \d+, \d{4}$/);
      expect(mail!.body).toContain('nga plan sa');
      expect(mail!.body).toContain('singilon namo ang ₱990 sa imong Visa **** **** **** 1381');
    } finally {
      await server.db.query(`UPDATE users SET language = 'en' WHERE email = $1`, [PREMIUM]);
    }
  });

  it('a card that expires before the next billing date: a mail and the status\'s banner from 30 days before, the mail once per card', async () => {
    const sub = await latestSubscription(server, PREMIUM);
    const endMonth = new Date(sub.end_date.getTime() + 8 * 3_600_000); // Manila
    // The card works through the month before the billing date's month.
    const expMonth = endMonth.getUTCMonth() === 0 ? 12 : endMonth.getUTCMonth();
    const expYear = endMonth.getUTCMonth() === 0 ? endMonth.getUTCFullYear() - 1 : endMonth.getUTCFullYear();
    await server.db.query(
      `UPDATE saved_cards SET exp_month = $1, exp_year = $2, expires_at = $3 WHERE card_token_id = 'seed-card-premium'`,
      [expMonth, expYear, cardExpiresAt(expMonth, expYear)],
    );
    engine = await startBillingEngine(deps, { sweepMs: 3_600_000, concurrency: 2 });
    await server.setClock(new Date(sub.end_date.getTime() - 31 * DAY_MS));
    await sweepAndWait();
    expect(await mailTo(server, PREMIUM)).toEqual([]);
    expect((await statusOf(PREMIUM)).cardExpiresBeforeRenewal ?? null).toBeNull();

    await server.setClock(new Date(sub.end_date.getTime() - 29 * DAY_MS));
    await sweepAndWait();
    await sweepAndWait();
    const mails = (await mailTo(server, PREMIUM)).filter((m) => m.subject.includes('card expires'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Sine Bisaya: your card expires before your next payment');
    const expiry = `${String(expMonth).padStart(2, '0')}/${expYear}`;
    expect(mails[0]!.body).toContain(`your Visa **** **** **** 1381 expires at the end of ${expiry}`);
    expect(mails[0]!.body).toContain('http://localhost/subscription/change-payment-method');
    expect((await statusOf(PREMIUM)).cardExpiresBeforeRenewal).toEqual({ cardType: 'Visa', last4: '1381', expiry, billingDate: sub.end_date.toISOString() });
    // Later sweeps in the same window send nothing more for that card.
    await server.setClock(new Date(sub.end_date.getTime() - 3 * DAY_MS));
    await sweepAndWait();
    expect((await mailTo(server, PREMIUM)).filter((m) => m.subject.includes('card expires'))).toHaveLength(1);
    // A card that outlives the billing date: no banner.
    await server.db.exec(`UPDATE saved_cards SET exp_month = 12, exp_year = 2030, expires_at = '2030-12-31T16:00:00Z' WHERE card_token_id = 'seed-card-premium'`);
    expect((await statusOf(PREMIUM)).cardExpiresBeforeRenewal ?? null).toBeNull();
  });

  it('a new card saved keeps the expiry as typed', async () => {
    await verifiedCard(server, FREE, '5123456789012346');
    const row = (await server.db.query<{ exp_month: number; exp_year: number; expires_at: Date }>(
      `SELECT c.exp_month, c.exp_year, c.expires_at FROM saved_cards c WHERE c.user_id = $1 ORDER BY c.created_at DESC LIMIT 1`, [await userId(server, FREE)],
    )).rows[0]!;
    expect(row).toMatchObject({ exp_month: 12, exp_year: 2099 });
    expect(row.expires_at.toISOString()).toBe('2099-12-31T16:00:00.000Z');
  });
});
