/**
 * The payment endpoints of product.md#calls end to end on the local sandbox: checkout (approve, cancel,
 * expire), card vault (approve, decline, 3-D Secure), wallet link and payment, the return address,
 * the signed webhook and exactly-once application under parallel delivery.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_PATH } from '../../../server/gateway/config';
import { generateKeyPairSync } from 'node:crypto';
import { signWebhook } from '../../../server/gateway/webhook';
import { SERVER_START_TIMEOUT_MS, V1, startBillingServer, type BillingServer } from '../support/billing-helpers';
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
const MINUTE = 60_000;

/** A person on a hosted page: GET it (checks what it shows), press a button (with the 3-D Secure passkey if any), follow the return. */
async function onHostedPage(url: string, action: 'approve' | 'decline' | 'cancel', passkey = '') {
  const page = await server.app.request(url);
  expect(page.status).toBe(200);
  const body = `action=${action}${passkey ? `&passkey=${passkey}` : ''}`;
  const pressed = await server.app.request(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body });
  expect(pressed.status).toBe(303);
  return { html: await page.text(), location: pressed.headers.get('Location')! };
}

/** Follows the return address the gateway sent the browser to; answers where the API sends it next. */
async function followReturn(location: string) {
  const response = await server.app.request(location);
  expect(response.status).toBe(303);
  return response.headers.get('Location');
}

const statusOf = async (email: string) => (await server.as(email).get('/subscription/status')).json.data;
const paymentsOf = async (email: string) => (await server.as(email).get('/payment/history')).json.data as Array<{ status: string; paymentMethod: string; subscriptionId: string | null; amount: string }>;
const subscriptionCount = async (email: string) =>
  (await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.email = $1`, [email])).rows[0]!.n;

async function startCheckout(planId = 1) {
  const { status, json } = await server.as(FREE).post('/payment/checkout/create', { planId });
  expect(status, json.message).toBe(200);
  return json.data.paymentLink as string;
}

/** Maya's test cards' 3-D Secure passkeys (sandbox/api.ts SANDBOX_CARDS); other numbers verify with a click. */
const PASSKEYS: Record<string, string> = { '4123450131001381': 'mctest1', '5453010000064154': 'secbarry1', '4917610000000000': 'paymaya88' };

/** Saves a card as the app does, then confirms it with the bank on its verification page, as Maya asks. */
async function saveCard(number: string, email = FREE) {
  const saved = await server.as(email).post('/payment/vault/cards', { number, expMonth: '12', expYear: '2099', cvc: '123', isDefault: true, returnTo: '/subscribe?plan=monthly&step=3' });
  expect(saved.status, saved.json.message).toBe(200);
  expect(saved.json.data).toMatchObject({ state: 'PRE_VERIFICATION', default: false, verificationUrl: expect.stringContaining('/sandbox/maya/pages/verify/') });
  expect(saved.json.message).toBe('Confirm the card with your bank to finish saving it.');
  const { location } = await onHostedPage(saved.json.data.verificationUrl, 'approve', PASSKEYS[number.replace(/\s/g, '')] ?? '');
  const back = await followReturn(location);
  const card = await server.as(email).get('/payment/vault/cards/default');
  expect(back).toBe(`http://localhost/subscribe?plan=monthly&step=3&card=verified&card-id=${encodeURIComponent(card.json.data.cardTokenId)}`);
  return card.json.data as { cardTokenId: string; last4: string; first6: string; maskedPan: string; cardType: string };
}

describe('hosted checkout', () => {
  it('approve: the return verifies with the gateway, PREMIUM monthly without auto-renew, one paid record', async () => {
    const at = await server.freezeClock();
    const link = await startCheckout();
    expect(await paymentsOf(FREE)).toEqual(expect.arrayContaining([expect.objectContaining({ status: 'PENDING', paymentMethod: 'MAYA_CHECKOUT' })]));
    const { html, location } = await onHostedPage(link, 'approve');
    expect(html).toContain('Sine Bisaya');
    expect(html).toContain('₱99.00');
    expect(html).toMatch(/SB-[0-9A-F]{12}/);
    expect(html).not.toContain('<script');
    expect(location).toMatch(/^http:\/\/localhost\/api\/v1\/mobile\/payment\/return\/[0-9a-f-]{36}\?outcome=success$/);
    expect(await followReturn(location)).toBe('http://localhost/payment?status=success');

    const status = await statusOf(FREE);
    expect(status).toMatchObject({ planType: 'PREMIUM', planId: 1, status: 'ACTIVE', paymentMethod: 'MAYA_CHECKOUT', paymentMethodDetails: { description: 'Maya Checkout' } });
    expect(new Date(status.startDate).getTime()).toBe(at.getTime());
    const history = (await server.as(FREE).get('/subscription/history')).json.data;
    expect(history[0]).toMatchObject({ status: 'ACTIVE', autoRenew: false });
    const paid = (await paymentsOf(FREE)).filter((p) => p.status === 'PAYMENT_SUCCESS' && p.subscriptionId === status.subscriptionId);
    expect(paid).toHaveLength(1);
    // A repeated return changes nothing.
    expect(await followReturn(location)).toBe('http://localhost/payment?status=success');
    expect(await subscriptionCount(FREE)).toBe(2); // the seeded expired one and this one
  });

  it('cancel: PAYMENT_CANCELLED, still FREE; the address saying success is not believed', async () => {
    const link = await startCheckout();
    const { location } = await onHostedPage(link, 'cancel');
    expect(location).toMatch(/outcome=cancel$/);
    expect(await followReturn(location.replace('outcome=cancel', 'outcome=success'))).toBe('http://localhost/payment?status=canceled');
    expect((await statusOf(FREE)).planType).toBe('FREE');
    expect((await paymentsOf(FREE))[0]).toMatchObject({ status: 'PAYMENT_CANCELLED' });
  });

  it('expires after an hour of the server clock (Maya’s checkout lifetime): the page says so, the record reads PAYMENT_EXPIRED, a new checkout is allowed', async () => {
    const at = await server.freezeClock();
    const link = await startCheckout();
    await server.setClock(new Date(at.getTime() + 59 * MINUTE));
    expect((await paymentsOf(FREE))[0]!.status).toBe('PENDING');
    await server.setClock(new Date(at.getTime() + 60 * MINUTE));
    const page = await server.app.request(link);
    expect(await page.text()).toContain('Payment expired');
    expect((await paymentsOf(FREE))[0]!.status).toBe('PAYMENT_EXPIRED');
    const pressed = await server.app.request(link, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'action=approve' });
    expect(await followReturn(pressed.headers.get('Location')!)).toBe('http://localhost/payment?status=failed&plan=monthly&payment-method=checkout');
    expect((await statusOf(FREE)).planType).toBe('FREE');
    await startCheckout();
  });

  it('a second checkout supersedes the open one (never a lock-out); a PREMIUM viewer buying again is refused', async () => {
    await startCheckout();
    const again = await server.as(FREE).post('/payment/checkout/create', { planId: 2 });
    expect(again.status, again.json.message).toBe(200);
    const payments = await paymentsOf(FREE);
    expect(payments.slice(0, 2).map((p) => p.status)).toEqual(['PENDING', 'PAYMENT_EXPIRED']);
    expect((payments[1] as unknown as { gatewayResponse: unknown }).gatewayResponse).toMatchObject({ superseded: true });
    const premium = await server.as('premium@example.com').post('/payment/checkout/create', { planId: 2 });
    expect(premium.status).toBe(409);
    expect(premium.json.message).toBe('You already have a Premium subscription. Change your plan or payment method from the Subscription page instead.');
  });
});

describe('card vault', () => {
  it('saves a card: only the token, masked number, first six and last four are stored, nothing is logged', async () => {
    const card = await saveCard('4123 4501 3100 1381');
    expect(card).toMatchObject({ first6: '412345', last4: '1381', maskedPan: '1381', cardType: 'visa', default: true, state: 'VERIFIED' });
    const stored = JSON.stringify((await server.db.query('SELECT * FROM saved_cards')).rows);
    const sandbox = JSON.stringify((await server.db.query('SELECT * FROM sandbox_payment_tokens')).rows);
    for (const text of [stored, sandbox, server.logs.join('\n')]) {
      expect(text).not.toContain('4123450131001381');
      expect(text).not.toMatch(/"cvc"/);
    }
  });

  it('refuses unsupported brands, bad numbers and expired cards with the app’s messages', async () => {
    const post = (body: object) => server.as(FREE).post('/payment/vault/cards', { expMonth: '12', expYear: '2099', cvc: '123', isDefault: true, ...body });
    expect((await post({ number: '6011000990139424' })).json.message).toBe('This card type is not supported');
    expect((await post({ number: '4123450131001382' })).json.message).toBe('Invalid card number');
    expect((await post({ number: '4123450131001381', expMonth: '13' })).json.message).toBe('Invalid month');
    expect((await post({ number: '4123450131001381', expYear: '2001' })).json.message).toBe('Card expired');
  });

  it('pays with an approving card at once: PREMIUM on MAYA_VAULT with auto-renew and the masked card', async () => {
    const card = await saveCard('3528000000000007');
    const paid = await server.as(FREE).post('/payment/vault/create', { ...CONSENT, planId: 2, cardToken: card.cardTokenId });
    expect(paid.status, paid.json.message).toBe(200);
    expect(paid.json.data).toEqual({});
    const status = await statusOf(FREE);
    expect(status).toMatchObject({ planId: 2, planType: 'PREMIUM', paymentMethod: 'MAYA_VAULT', paymentMethodDetails: { maskedCardNumber: '**** **** **** 0007' } });
    expect((await server.as(FREE).get('/subscription/history')).json.data[0].autoRenew).toBe(true);
  });

  it('a declined card (Maya’s 4917610000000000, insufficient funds): 402, a PAYMENT_FAILED record, still FREE', async () => {
    const card = await saveCard('4917610000000000');
    const paid = await server.as(FREE).post('/payment/vault/create', { ...CONSENT, planId: 1, cardToken: card.cardTokenId });
    expect(paid.status).toBe(402);
    expect(paid.json.message).toBe('Your payment was declined. Please try another card or payment method.');
    expect((await paymentsOf(FREE))[0]).toMatchObject({ status: 'PAYMENT_FAILED', paymentMethod: 'MAYA_VAULT' });
    expect((await statusOf(FREE)).planType).toBe('FREE');
  });

  it('the 3-D Secure card (5453010000064154) answers a verificationUrl; authenticating with its passkey leads to success', async () => {
    const card = await saveCard('5453010000064154');
    const paid = await server.as(FREE).post('/payment/vault/create', { ...CONSENT, planId: 1, cardToken: card.cardTokenId });
    expect(paid.status).toBe(200);
    const { verificationUrl } = paid.json.data as { verificationUrl: string };
    expect(verificationUrl).toMatch(/^http:\/\/localhost\/sandbox\/maya\/pages\/3ds\//);
    expect((await statusOf(FREE)).planType).toBe('FREE');
    const { html, location } = await onHostedPage(verificationUrl, 'approve', 'secbarry1');
    expect(html).toContain('3-D Secure');
    expect(html).toContain('Mastercard ending in 4154');
    expect(await followReturn(location)).toBe('http://localhost/payment?status=success');
    expect(await statusOf(FREE)).toMatchObject({ planType: 'PREMIUM', paymentMethod: 'MAYA_VAULT' });
  });

  it('refuses another viewer’s card token', async () => {
    const card = await saveCard('4123450131001381');
    const other = await server.as('canceled@example.com').post('/payment/vault/create', { ...CONSENT, planId: 1, cardToken: card.cardTokenId });
    expect(other.status).toBe(404);
  });
});

describe('wallet link and wallet payment', () => {
  const returns = {
    success: 'http://localhost/subscription/change-payment-method?wallet-method=1&wallet-link-status=success',
    failure: 'http://localhost/subscription/change-payment-method?wallet-method=1&wallet-link-status=failed',
    cancel: 'http://localhost/subscription/change-payment-method?wallet-method=1&wallet-link-status=canceled',
  };

  it('links on the hosted page, reads the link, pays with it, and unlinks', async () => {
    expect((await server.as(FREE).get('/payment/wallet/link')).json.data).toBeNull();
    const foreign = await server.as(FREE).post('/payment/wallet/link', { redirectUrl: { ...returns, success: 'https://evil.example/steal' } });
    expect(foreign.status).toBe(400);
    const started = await server.as(FREE).post('/payment/wallet/link', { redirectUrl: returns });
    expect(started.status, started.json.message).toBe(200);
    const { linkId, redirectUrl } = started.json.data as { linkId: string; redirectUrl: string };
    expect((await server.as(FREE).post('/payment/wallet/create', { ...CONSENT, planId: 1, linkId })).json.message).toBe('Please connect your Maya wallet to continue');
    const { location } = await onHostedPage(redirectUrl, 'approve');
    expect(location).toBe(returns.success);
    const link = (await server.as(FREE).get('/payment/wallet/link')).json.data;
    expect(link).toMatchObject({ linkId, card: { state: 'VERIFIED' }, customer: { firstName: expect.any(String), contact: { email: expect.any(String) } } });

    const paid = await server.as(FREE).post('/payment/wallet/create', { ...CONSENT, planId: 1, linkId });
    expect(paid.status, paid.json.message).toBe(200);
    expect(await statusOf(FREE)).toMatchObject({ planType: 'PREMIUM', paymentMethod: 'MAYA_WALLET', paymentMethodDetails: { description: 'Maya Wallet' } });
    expect((await paymentsOf(FREE)).filter((p) => p.status === 'PAYMENT_SUCCESS' && p.paymentMethod === 'MAYA_WALLET')).toHaveLength(1);

    const response = await server.app.request(`${V1}/payment/wallet/link`, { method: 'DELETE', headers: { Authorization: `Bearer ${await server.tokenOf(FREE)}` } });
    expect(((await response.json()) as { message: string }).message).toBe('Maya Wallet unlinked successfully');
    expect((await server.as(FREE).get('/payment/wallet/link')).json.data).toBeNull();
  });

  it('a declined or canceled link goes to the failure or cancel address and reads as not linked', async () => {
    for (const [action, address] of [['decline', returns.failure], ['cancel', returns.cancel]] as const) {
      const started = await server.as(FREE).post('/payment/wallet/link', { redirectUrl: returns });
      expect((await onHostedPage(started.json.data.redirectUrl, action)).location).toBe(address);
      expect((await server.as(FREE).get('/payment/wallet/link')).json.data).toBeNull();
    }
  });
});

describe('webhook', () => {
  const deliver = (payload: object, headers: Record<string, string>) =>
    server.app.request(WEBHOOK_PATH, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(payload) }, '13.229.160.234');

  async function approvedButNotReturned() {
    const link = await startCheckout();
    const pressed = await server.app.request(link, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'action=approve' });
    const location = pressed.headers.get('Location')!;
    // The sandbox's own webhook already ran; put the record back to PENDING to deliver it ourselves.
    const recordId = /return\/([0-9a-f-]{36})/.exec(location)![1]!;
    await server.db.query(`DELETE FROM subscriptions WHERE id = (SELECT subscription_id FROM payment_records WHERE id = $1)`, [recordId]);
    await server.db.query(`UPDATE payment_records SET status = 'PENDING', subscription_id = NULL, applied_attempt_id = NULL, paid_at = NULL WHERE id = $1`, [recordId]);
    await server.db.query(`UPDATE gateway_attempts SET outcome = 'OPEN', resolved_at = NULL WHERE record_id = $1`, [recordId]);
    const record = (await server.db.query<{ checkout_id: string; reference_id: string }>('SELECT checkout_id, reference_id FROM payment_records WHERE id = $1', [recordId])).rows[0]!;
    return { location, payload: { id: record.checkout_id, status: 'PAYMENT_SUCCESS', requestReferenceNumber: record.reference_id, amount: '99.00', currency: 'PHP' } };
  }

  it('the sandbox’s own signed webhook applies the outcome before the browser returns', async () => {
    const link = await startCheckout();
    await server.app.request(link, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'action=approve' });
    expect((await statusOf(FREE)).planType).toBe('PREMIUM');
  });

  it('refuses a missing, wrong, or stale signature (RSA-SHA256 as Maya signs, timestamp in milliseconds)', async () => {
    const { payload } = await approvedButNotReturned();
    const body = JSON.stringify(payload);
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    expect((await deliver(payload, {})).status).toBe(401);
    expect((await deliver(payload, signWebhook(stranger, body))).status).toBe(401);
    expect((await deliver(payload, signWebhook(server.signingKey, body, Date.now() - 6 * MINUTE))).status).toBe(401);
    const seconds = signWebhook(server.signingKey, body);
    seconds['X-Maya-Webhook-Timestamp'] = String(Math.floor(Date.now() / 1000)); // a timestamp in seconds is decades off
    expect((await deliver(payload, seconds)).status).toBe(401);
    expect((await deliver({ ...payload, amount: '1.00' }, signWebhook(server.signingKey, body))).status).toBe(401); // body changed after signing
    expect((await statusOf(FREE)).planType).toBe('FREE');
    const good = await deliver(payload, signWebhook(server.signingKey, body));
    expect(good.status).toBe(200);
    expect((await statusOf(FREE)).planType).toBe('PREMIUM');
  });

  it('does not believe a signed webhook’s status: it asks the gateway', async () => {
    const link = await startCheckout();
    const record = (await server.db.query<{ checkout_id: string; reference_id: string }>(`SELECT checkout_id, reference_id FROM payment_records WHERE status = 'PENDING'`)).rows[0]!;
    const payload = { id: record.checkout_id, status: 'PAYMENT_SUCCESS', requestReferenceNumber: record.reference_id };
    expect((await deliver(payload, signWebhook(server.signingKey, JSON.stringify(payload)))).status).toBe(200);
    expect((await statusOf(FREE)).planType).toBe('FREE');
    expect(link).toBeTruthy();
  });

  it('repeated webhooks and returns racing in parallel apply the payment exactly once', async () => {
    const { location, payload } = await approvedButNotReturned();
    const body = JSON.stringify(payload);
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => deliver(payload, signWebhook(server.signingKey, body))),
      ...Array.from({ length: 5 }, () => server.app.request(location)),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 303, 303, 303, 303, 303]);
    expect(await subscriptionCount(FREE)).toBe(2); // seeded + exactly one new
    const success = (await paymentsOf(FREE)).filter((p) => p.status === 'PAYMENT_SUCCESS');
    expect(success.filter((p) => p.paymentMethod === 'MAYA_CHECKOUT' && p.subscriptionId)).toHaveLength(2); // seeded + this one
    const status = await statusOf(FREE);
    const period = new Date(status.endDate).getTime() - new Date(status.startDate).getTime();
    expect(period).toBeLessThanOrEqual(31 * 24 * 60 * MINUTE); // one month, not two
  });
});
