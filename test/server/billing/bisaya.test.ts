/**
 * Bisaya everywhere a Bisaya viewer looks (issue 37, product.md#plan-texts, #server-dates): the plans'
 * names, descriptions and features in the request's language from the API (no English plan text left in
 * `ceb`), the plan's name in the status, histories, receipt and the plan-change toast, a toast's date as
 * the page writes it, and the mails a Bisaya account gets (purchase receipt, renewal receipt, failed
 * payment, end notice, checkout reminder) in Bisaya, subject and text, with the plan's Bisaya name, dates
 * in the Bisaya form and pesos as the pages write them. Expectations are built from the catalogs, so a
 * rewording there does not break them; the plan's texts come from the database.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEED_PLAN_MESSAGES, SEED_PLANS, SEED_VOUCHER_PLANS, seededPlanTexts } from '../../../server/billing/catalog';
import { gatewayHttpError } from '../../../server/billing/messages';
import { noticeEnd, remindCheckout, renewalReference, renewSubscription, type RenewalDeps } from '../../../server/billing/renewals';
import { defaultGatewayConfig } from '../../../server/gateway/config';
import { createMayaClient, GatewayError } from '../../../server/gateway/maya';
import { createMailer } from '../../../server/platform/mail';
import { translate } from '../../../server/platform/translate';
import { formatDate, formatDateTime } from '../../../src/lib/dates';
import { DECLINE_REASONS, reasonInOurWords } from '../../../src/lib/renewal-failures';
import { DAY_MS, SERVER_START_TIMEOUT_MS, startBillingServer, V1, type BillingServer } from '../support/billing-helpers';
import { verifiedCard } from '../support/seams-harness';
import { CONSENT } from '../support/consent';

const catalog = (locale: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../../messages', `${locale}.json`), 'utf8')) as Record<string, string>;
const en = catalog('en');
const ceb = catalog('ceb');
const fill = (text: string | undefined, values: Record<string, string>) => {
  if (!text) throw new Error('no such message');
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
};
const PRODUCT_NAME = 'Sine Bisaya';
const BASE = 'http://localhost';
/** A date in English's numeric form ('12/27/2026'): never in a Bisaya mail. */
const NUMERIC_DATE = /\b\d{1,2}\/\d{1,2}\/\d{4}\b/;
const BISAYA_MONTH = /\b(Enero|Pebrero|Marso|Abril|Mayo|Hunyo|Hulyo|Agosto|Septiyembre|Oktubre|Nobyembre|Disyembre) \d{1,2}, \d{4}\b/;
const day = (date: Date) => formatDate(date, 'Asia/Manila', 'ceb');

const PREMIUM = 'premium@example.com';
const FREE = 'free@example.com';
const CANCELED = 'canceled@example.com';
/** Every English text of every seeded plan: none may reach a Bisaya reader. */
const ENGLISH_PLAN_TEXTS = [...SEED_PLANS, ...SEED_VOUCHER_PLANS].flatMap((plan) => [plan.name, plan.description, ...plan.features]);

let server: BillingServer;
let deps: RenewalDeps;
beforeAll(async () => {
  server = await startBillingServer();
  const gateway = createMayaClient({ ...defaultGatewayConfig(0), fetch: ((input: RequestInfo | URL, init?: RequestInit) => server.app.request(String(input), init)) as typeof fetch });
  deps = { db: server.db, gateway, log: () => undefined, publicBaseUrl: BASE, mailer: createMailer(server.db, '') };
}, SERVER_START_TIMEOUT_MS);
beforeEach(async () => {
  await server.reset();
  await server.db.exec(`DELETE FROM mailbox; DELETE FROM sandbox_payments; DELETE FROM sandbox_webhooks; UPDATE sandbox_cards SET behaviour = 'APPROVE' WHERE card_token_id = 'seed-card-premium';
    UPDATE users SET language = 'ceb' WHERE email IN ('${PREMIUM}', '${FREE}', '${CANCELED}')`);
});
afterEach(async () => {
  await server.setClock(null);
  await server.db.exec(`UPDATE users SET language = 'en'`);
});

/** A call in Bisaya (the `lang` cookie the app writes), as `email` or as a guest. */
const inBisaya = async (method: string, path: string, email: string | null, body?: unknown) =>
  server.call(method, `${V1}${path}`, { headers: { Cookie: 'lang=ceb' }, ...(email ? { token: await server.tokenOf(email) } : {}), ...(body === undefined ? {} : { body }) });
const mailTo = async (email: string) =>
  (await server.db.query<{ subject: string; body: string }>('SELECT subject, body FROM mailbox WHERE to_email = $1 ORDER BY id', [email])).rows;
const firstName = async (email: string) => (await server.db.query<{ first_name: string }>('SELECT first_name FROM users WHERE email = $1', [email])).rows[0]!.first_name;
const premiumSub = async () =>
  (await server.db.query<{ id: string; start_date: Date; end_date: Date }>(
    `SELECT s.id, s.start_date, s.end_date FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.email = $1 ORDER BY s.start_date DESC LIMIT 1`, [PREMIUM],
  )).rows[0]!;

describe('the seeded plans\' texts', () => {
  it('are the catalog\'s: the English of each seeded plan is its catalog message, and its Bisaya is the Bisaya catalog\'s', () => {
    for (const plan of [...SEED_PLANS, ...SEED_VOUCHER_PLANS]) {
      const messages = SEED_PLAN_MESSAGES[plan.slug]!;
      expect(messages.name({}, { locale: 'en' }), plan.slug).toBe(plan.name);
      expect(messages.description({}, { locale: 'en' }), plan.slug).toBe(plan.description);
      expect(messages.features.map((feature) => feature({}, { locale: 'en' })), plan.slug).toEqual(plan.features);
      const bisaya = seededPlanTexts(plan.slug).ceb!;
      expect(bisaya.name).toBe(messages.name({}, { locale: 'ceb' }));
      for (const text of [bisaya.name!, bisaya.description!, ...bisaya.features!]) expect(ENGLISH_PLAN_TEXTS, `${plan.slug}: ${text}`).not.toContain(text);
    }
  });

  it('the yearly plan says it renews (walk finding 21), in both languages', () => {
    const yearly = SEED_PLANS.find((plan) => plan.slug === 'yearly')!;
    expect(yearly.features).toContain('One payment a year, renews automatically');
    expect(yearly.features.join(' ')).not.toMatch(/one-time/i);
    expect(seededPlanTexts('yearly').ceb!.features).toContain(ceb.one_payment_a_year_renews);
  });
});

describe('the API in Bisaya', () => {
  it('answers the plans in the request\'s language, no English plan text left; English without a choice', async () => {
    const bisaya = await inBisaya('GET', '/subscription/plans?type=PREMIUM&isActive=true', null);
    const english = await server.call('GET', `${V1}/subscription/plans?type=PREMIUM&isActive=true`);
    type Shown = { slug: string; name: string; description: string; features: string[] };
    const plans = bisaya.json.data as Shown[];
    expect(plans.map((plan) => plan.name)).toEqual([ceb.monthly_2, ceb.yearly_2]);
    expect(plans[1]!.features).toEqual([ceb.everything_in_monthly, ceb.save_198_a_year, ceb.one_payment_a_year_renews]);
    for (const plan of plans) for (const text of [plan.name, plan.description, ...plan.features]) expect(ENGLISH_PLAN_TEXTS, text).not.toContain(text);
    expect((english.json.data as Shown[]).map((plan) => plan.name)).toEqual(['Monthly', 'Yearly']);
    // One plan by slug, and the whole list, VOUCHER and FREE plans too.
    expect((await inBisaya('GET', '/subscription/plans/yearly', null)).json.data).toMatchObject({ name: ceb.yearly_2, description: ceb.one_payment_a_year_save_198_the });
    const all = (await inBisaya('GET', '/subscription/plans', null)).json.data as Shown[];
    for (const plan of all) for (const text of [plan.name, plan.description, ...plan.features]) expect(ENGLISH_PLAN_TEXTS, text).not.toContain(text);
  });

  it('a plan made later carries its own texts: shown in Bisaya where it has them, in English where it has none', async () => {
    await server.db.query(
      `INSERT INTO plans (id, slug, name, description, type, price, currency, duration, billing_cycle, sort_order, features, popular, texts)
       VALUES (60, 'family', 'Family', 'Four screens.', 'PREMIUM', 199, 'PHP', 1, 'month', 5, '["Four screens"]', false, '{"ceb": {"name": "Pamilya"}}')`,
    );
    const plans = (await inBisaya('GET', '/subscription/plans?type=PREMIUM&isActive=true', null)).json.data as Array<{ slug: string; name: string; features: string[] }>;
    expect(plans.find((plan) => plan.slug === 'family')).toMatchObject({ name: 'Pamilya', features: ['Four screens'] });
  });

  it('names the plan in Bisaya in the status, both histories and the receipt; English for an English request', async () => {
    expect((await inBisaya('GET', '/subscription/status', PREMIUM)).json.data.planName).toBe(ceb.monthly_2);
    expect((await server.as(PREMIUM).get('/subscription/status')).json.data.planName).toBe('Monthly');
    expect((await inBisaya('GET', '/subscription/status', FREE)).json.data.planName).toBe(ceb.free);
    const history = (await inBisaya('GET', '/subscription/history', PREMIUM)).json.data as Array<{ plan: string }>;
    expect(history.length).toBeGreaterThan(0);
    expect(history.every((item) => item.plan === ceb.monthly_2)).toBe(true);
    const payments = (await inBisaya('GET', '/payment/history', PREMIUM)).json.data as Array<{ id: string; status: string; planName: string | null }>;
    const paid = payments.find((payment) => payment.status === 'PAYMENT_SUCCESS')!;
    expect(paid.planName).toBe(ceb.monthly_2);
    expect((await inBisaya('GET', `/payment/receipts/${paid.id}`, PREMIUM)).json.data.planName).toBe(ceb.monthly_2);
    expect((await server.as(PREMIUM).get(`/payment/receipts/${paid.id}`)).json.data.planName).toBe('Monthly');
  });

  it('names the voucher\'s plan in Bisaya when a voucher is redeemed', async () => {
    const redeemed = await inBisaya('POST', '/subscription-voucher/redeem', FREE, { code: 'BISAYA30' });
    expect(redeemed.status, redeemed.json.message).toBe(200);
    expect(redeemed.json.data.subscriptionPlan.name).toBe(ceb.voucher_30_days);
  });

  it('says the new plan\'s Bisaya name in the plan-change toast, and a cancel toast\'s date as the Bisaya page writes it', async () => {
    const sub = await premiumSub();
    const changed = await inBisaya('POST', '/subscription/update-plan', PREMIUM, { ...CONSENT, subscriptionId: sub.id, planId: 2 });
    expect(changed.status, changed.json.message).toBe(200);
    expect(changed.json.message).toBe(fill(ceb.your_plan_has_been_changed_to_the, { plan: ceb.yearly_2! }));
    const now = await premiumSub();
    const canceled = await inBisaya('POST', '/subscription/cancel', PREMIUM, { subscriptionId: now.id });
    expect(canceled.status, canceled.json.message).toBe(200);
    expect(canceled.json.message).toContain(formatDateTime(now.end_date, 'Asia/Manila', 'ceb'));
    expect(canceled.json.message).not.toMatch(NUMERIC_DATE);
  });

  it('a refusal in Maya\'s own words: a Bisaya sentence that says what to do, Maya\'s words kept for support', () => {
    const error = gatewayHttpError(new GatewayError(400, 'PY0099', 'Issuer not available for this BIN.'));
    expect(error.status).toBe(400);
    expect(translate(error.message, 'ceb')).toBe(fill(ceb.maya_did_not_accept_these_details, { details: 'Issuer not available for this BIN' }));
    expect(error.message).toBe(fill(en.maya_did_not_accept_these_details, { details: 'Issuer not available for this BIN' }));
    // Words of Maya's that are a message of ours are said in Bisaya too.
    expect(translate(gatewayHttpError(new GatewayError(400, 'PY0009', `${en.invalid_card_number}.`)).message, 'ceb')).toContain(`: ${ceb.invalid_card_number}`);
  });
});

describe('the mails of a Bisaya account', () => {
  it('the purchase receipt (the invoice mail, issue 34): subject and text in Bisaya, the plan\'s Bisaya name, Bisaya dates, ₱990, VAT included', async () => {
    const card = await verifiedCard(server, FREE);
    const bought = await server.as(FREE).post('/payment/vault/create', { ...CONSENT, planId: 2, cardToken: card });
    expect(bought.status, bought.json.message).toBe(200);
    const [mail] = (await mailTo(FREE)).filter((m) => m.body.includes('/subscription/invoices/'));
    const record = (await server.db.query<{ id: string; reference_id: string; start_date: Date; end_date: Date; invoice_id: string; number: string }>(
      `SELECT r.id, r.reference_id, s.start_date, s.end_date, d.id AS invoice_id, d.number FROM payment_records r JOIN users u ON u.id = r.user_id
       JOIN subscriptions s ON s.id = r.subscription_id JOIN tax_documents d ON d.payment_record_id = r.id AND d.kind = 'INVOICE'
       WHERE u.email = $1 AND r.status = 'PAYMENT_SUCCESS'`, [FREE],
    )).rows[0]!;
    expect(mail!.subject).toBe(fill(ceb.invoice_for_your_payment, { PRODUCT_NAME, number: record.number, planName: ceb.yearly_2! }));
    expect(mail!.body).toBe(fill(ceb.invoice_mail_payment, {
      firstName: await firstName(FREE), planName: ceb.yearly_2!, start: day(record.start_date), end: day(record.end_date), amount: '₱990',
      method: ceb.your_saved_card!, reference: record.reference_id, number: record.number, publicBaseUrl: BASE, invoiceId: record.invoice_id,
    }));
    expect(mail!.body).toMatch(BISAYA_MONTH);
    expect(mail!.body).not.toMatch(NUMERIC_DATE);
    expect(mail!.body).not.toContain('₱990.00');
  });

  it('the renewal receipt', async () => {
    const sub = await premiumSub();
    await server.setClock(new Date(sub.end_date.getTime() + 60_000));
    expect(await renewSubscription(deps, sub.id)).toBe('renewed');
    const [mail] = await mailTo(PREMIUM);
    const number = (await server.db.query<{ number: string }>(`SELECT number FROM tax_documents ORDER BY serial DESC LIMIT 1`)).rows[0]!.number;
    expect(mail!.subject).toBe(fill(ceb.invoice_for_your_renewal, { PRODUCT_NAME, number, planName: ceb.monthly_2! }));
    expect(mail!.body).toContain(`Plan: ${ceb.monthly_2}.`);
    expect(mail!.body).toContain(fill(ceb.to, { start: day(sub.end_date), end: day((await premiumSub()).end_date) }));
    expect(mail!.body).toContain('₱99,');
    expect(mail!.body).toContain(renewalReference(sub.id, sub.end_date));
    expect(mail!.body).not.toMatch(NUMERIC_DATE);
    expect(mail!.body.startsWith(fill(ceb.invoice_mail_renewal, {}).split('{firstName}')[0]!)).toBe(true);
    expect(mail!.body).toContain(`invoice ${number}`);
    expect(mail!.body).not.toContain('your Premium subscription renewed');
  });

  it('the failed payment, with the reason and the next try in Bisaya, then the end notice', async () => {
    await server.db.exec(`UPDATE sandbox_cards SET behaviour = 'DECLINE' WHERE card_token_id = 'seed-card-premium'`);
    const sub = await premiumSub();
    await server.setClock(new Date(sub.end_date.getTime() + 60_000));
    expect(await renewSubscription(deps, sub.id)).toBe('failed');
    const failed = (await mailTo(PREMIUM)).at(-1)!;
    expect(failed.subject).toBe(fill(ceb.your_payment_failed_update_your, { PRODUCT_NAME }));
    expect(failed.body).toContain(`${ceb.your_payment_was_declined}.`);
    expect(failed.body).toContain(fill(ceb.we_will_try_again_on, { date: day(new Date(sub.end_date.getTime() + DAY_MS)) }));
    expect(failed.body).not.toMatch(NUMERIC_DATE);
    expect(failed.body).not.toContain('We will try again');
    for (const retry of [1, 3, 5, 7]) {
      await server.setClock(new Date(sub.end_date.getTime() + retry * DAY_MS + 60_000));
      expect(await renewSubscription(deps, sub.id)).toBe('failed');
    }
    const ended = (await mailTo(PREMIUM)).at(-1)!;
    expect(ended.subject).toBe(fill(ceb.your_premium_subscription_has_ended, { PRODUCT_NAME }));
    expect(ended.body).toBe(fill(ceb.hi_we_could_not_renew_your_premium_2, { firstName: await firstName(PREMIUM), publicBaseUrl: BASE }));
  });

  it('every reason the product knows is said in Bisaya inside the failed-payment mail', () => {
    for (const [key, reason] of Object.entries(DECLINE_REASONS)) {
      const text = fill(en.hi_we_could_not_renew_your_premium, { firstName: 'Nena', reason: reasonInOurWords(reason), retryLine: en.we_will_not_try_this_payment_method!, publicBaseUrl: BASE });
      const id = Object.keys(en).find((k) => en[k] === reason)!;
      expect(id, key).toBeDefined();
      expect(translate(text, 'ceb'), key).toContain(`: ${ceb[id]}. `);
    }
  });

  it('a reason in the gateway\'s own words: a Bisaya sentence with what to do, the gateway\'s words kept', () => {
    const text = fill(en.hi_we_could_not_renew_your_premium, {
      firstName: 'Nena', reason: reasonInOurWords('Insufficient balance (PY0042).'), retryLine: en.we_will_not_try_this_payment_method!, publicBaseUrl: BASE,
    });
    const bisaya = translate(text, 'ceb');
    expect(bisaya).toContain(fill(ceb.maya_did_not_accept_your_payment, { details: 'Insufficient balance (PY0042)' }));
    expect(bisaya).not.toContain('Maya did not accept');
    expect(reasonInOurWords(en.your_payment_was_declined!)).toBe(en.your_payment_was_declined);
  });

  it('the checkout reminder and the end notice of a subscription that is not renewed', async () => {
    const canceled = (await server.db.query<{ id: string; end_date: Date }>(
      `SELECT s.id, s.end_date FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.email = $1 AND s.status = 'CANCELED'`, [CANCELED],
    )).rows[0]!;
    expect((await server.as(CANCELED).post('/subscription/resubscribe', { ...CONSENT, subscriptionId: canceled.id })).status).toBe(200);
    // Signing in (above, in English) set the account's language: the reader chooses Bisaya again.
    await server.db.query(`UPDATE users SET language = 'ceb' WHERE email = $1`, [CANCELED]);
    await server.setClock(new Date(canceled.end_date.getTime() - 3 * DAY_MS + 60_000));
    expect(await remindCheckout(deps, canceled.id)).toBe(true);
    const reminder = (await mailTo(CANCELED)).at(-1)!;
    expect(reminder.subject).toBe(fill(ceb.renew_your_premium_before, { PRODUCT_NAME, date: day(canceled.end_date) }));
    expect(reminder.body).toContain(fill(ceb.hi_your_premium_subscription_is_paid, { date: day(canceled.end_date), publicBaseUrl: BASE }).slice(-60));
    expect(reminder.body).not.toMatch(NUMERIC_DATE);
    await server.setClock(new Date(canceled.end_date.getTime() + 60_000));
    expect(await noticeEnd(deps, canceled.id)).toBe(true);
    const notice = (await mailTo(CANCELED)).at(-1)!;
    expect(notice.subject).toBe(fill(ceb.your_premium_subscription_has_ended, { PRODUCT_NAME }));
    expect(notice.body).toBe(fill(ceb.hi_your_premium_subscription_has, { firstName: await firstName(CANCELED), publicBaseUrl: BASE }));
  });
});
