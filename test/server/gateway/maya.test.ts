/**
 * The real Maya client (server/gateway/maya.ts) against the local sandbox, every call, through the
 * app's own request handler; and the amount formatting both sides rely on.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY, defaultGatewayConfig } from '../../../server/gateway/config';
import { GatewayError, createMayaClient, formatCents, fromMayaValue, toCents, toMayaValue, type Gateway } from '../../../server/gateway/maya';
import { SERVER_START_TIMEOUT_MS } from '../support/billing-helpers';
import { startTestServer, type TestServer } from '../support/helpers';

let server: TestServer;
let maya: Gateway;
const sandboxFetch = ((input: RequestInfo | URL, init?: RequestInit) => server.app.request(String(input), init)) as typeof fetch;
const redirectUrl = { success: 'http://localhost/ok', failure: 'http://localhost/failed', cancel: 'http://localhost/cancel' };

beforeAll(async () => {
  server = await startTestServer();
  maya = createMayaClient({ ...defaultGatewayConfig(0), fetch: sandboxFetch });
}, SERVER_START_TIMEOUT_MS);

/** Presses a button on a hosted page as a person would (a form post, with the 3-D Secure passkey if any), returns where it redirects. */
async function press(pageUrl: string, action: 'approve' | 'decline' | 'cancel', passkey = '') {
  const body = `action=${action}${passkey ? `&passkey=${encodeURIComponent(passkey)}` : ''}`;
  const response = await server.app.request(pageUrl, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body });
  expect(response.status).toBe(303);
  return response.headers.get('Location');
}

describe('Maya client against the sandbox', () => {
  it('creates and reads a checkout, and reads its payment after approval', async () => {
    const created = await maya.createCheckout({
      totalAmount: { value: 99, currency: 'PHP' },
      buyer: { firstName: 'Maria', lastName: 'Santos', contact: { email: 'free@example.com' } },
      items: [{ name: 'Monthly', quantity: 1, code: 'monthly', description: 'Monthly', amount: { value: 99 }, totalAmount: { value: 99 } }],
      redirectUrl,
      requestReferenceNumber: 'SB-CLIENT-1',
    });
    expect(created.redirectUrl).toBe(`http://localhost/sandbox/maya/pages/checkout/${created.checkoutId}`);
    const page = await server.app.request(created.redirectUrl);
    const html = await page.text();
    expect(html).toContain('Sine Bisaya');
    expect(html).toContain('₱99.00');
    expect(html).toContain('SB-CLIENT-1');
    expect(await maya.getCheckout(created.checkoutId)).toMatchObject({ id: created.checkoutId, status: 'CREATED', paymentStatus: 'PENDING_PAYMENT' });
    expect(await press(created.redirectUrl, 'approve')).toBe(redirectUrl.success);
    // As documented: the checkout is read by its id, its outcome in paymentStatus; payments by our reference.
    const checkout = await maya.getCheckout(created.checkoutId);
    expect(checkout).toMatchObject({ status: 'COMPLETED', paymentStatus: 'PAYMENT_SUCCESS', requestReferenceNumber: 'SB-CLIENT-1' });
    expect(new Date(checkout.expiredAt!).getTime() - new Date(checkout.updatedAt!).getTime()).toBeLessThanOrEqual(60 * 60 * 1000);
    const [payment] = await maya.getPaymentsByReference('SB-CLIENT-1');
    expect(payment).toMatchObject({ status: 'PAYMENT_SUCCESS', isPaid: true, requestReferenceNumber: 'SB-CLIENT-1', canVoid: true, canRefund: true });
    expect(fromMayaValue(payment!.amount)).toBe('99.00');
  });

  it('tokenizes a card, creates a customer, vaults the card and pays with it', async () => {
    const token = await maya.createPaymentToken({ number: '5123456789012346', expMonth: '12', expYear: '2099', cvc: '111' });
    expect(token.state).toBe('AVAILABLE');
    const customer = await maya.createCustomer({ firstName: 'Maria', lastName: 'Santos', contact: { email: 'free@example.com' } });
    const card = await maya.addCustomerCard(customer.id, { paymentTokenId: token.paymentTokenId, isDefault: true, redirectUrl, requestReferenceNumber: 'SB-CARD' });
    // As Maya documents: the card waits for the customer's confirmation at the bank, and cannot be charged before.
    expect(card).toMatchObject({ cardType: 'master-card', maskedPan: '2346', state: 'PRE_VERIFICATION', default: true, verificationUrl: expect.stringContaining('/pages/verify/') });
    await expect(
      maya.payWithCard(customer.id, card.cardTokenId, { totalAmount: { amount: 990, currency: 'PHP' }, requestReferenceNumber: 'SB-EARLY', redirectUrl }),
    ).rejects.toMatchObject({ status: 400, code: 'PY0013' });
    expect(await press(card.verificationUrl!, 'approve')).toBe(redirectUrl.success);
    expect((await maya.listCustomerCards(customer.id)).map((c) => c.state)).toEqual(['VERIFIED']);
    // A token is single use.
    await expect(maya.addCustomerCard(customer.id, { paymentTokenId: token.paymentTokenId, isDefault: true, redirectUrl, requestReferenceNumber: 'SB-CARD' })).rejects.toMatchObject({ status: 400, code: 'PY0008' });
    const payment = await maya.payWithCard(customer.id, card.cardTokenId, { totalAmount: { amount: 990, currency: 'PHP' }, requestReferenceNumber: 'SB-CLIENT-2', redirectUrl });
    expect(payment).toMatchObject({ status: 'PAYMENT_SUCCESS', isPaid: true });
    expect((await maya.getPayment(payment.id)).status).toBe('PAYMENT_SUCCESS');
  });

  it('follows Maya’s test cards: 4917610000000000 declines, 4123450131001381 asks for 3-D Secure with its passkey', async () => {
    const customer = await maya.createCustomer({ firstName: 'Ana', lastName: 'Reyes', contact: { email: 'a@example.com' } });
    const vault = async (number: string, passkey: string) => {
      const token = await maya.createPaymentToken({ number, expMonth: '01', expYear: '2099', cvc: '123' });
      const card = await maya.addCustomerCard(customer.id, { paymentTokenId: token.paymentTokenId, isDefault: false, redirectUrl, requestReferenceNumber: 'X' });
      expect(await press(card.verificationUrl!, 'approve', passkey)).toBe(redirectUrl.success);
      return card;
    };
    // A wrong passkey at save time fails the card's verification.
    const token = await maya.createPaymentToken({ number: '4123450131001381', expMonth: '01', expYear: '2099', cvc: '123' });
    const wrong = await maya.addCustomerCard(customer.id, { paymentTokenId: token.paymentTokenId, isDefault: false, redirectUrl, requestReferenceNumber: 'W' });
    expect(await press(wrong.verificationUrl!, 'approve', 'guess')).toBe(redirectUrl.failure);
    expect((await maya.listCustomerCards(customer.id)).find((c) => c.cardTokenId === wrong.cardTokenId)?.state).toBe('FAILED');

    const declined = await vault('4917610000000000', 'paymaya88');
    expect((await maya.payWithCard(customer.id, declined.cardTokenId, { totalAmount: { amount: 99, currency: 'PHP' }, requestReferenceNumber: 'D', redirectUrl })).status).toBe('PAYMENT_FAILED');
    const secure = await vault('4123450131001381', 'mctest1');
    const challenged = await maya.payWithCard(customer.id, secure.cardTokenId, { totalAmount: { amount: 99, currency: 'PHP' }, requestReferenceNumber: 'T', redirectUrl });
    expect(challenged.status).toBe('FOR_AUTHENTICATION');
    expect(challenged.verificationUrl).toBe(`http://localhost/sandbox/maya/pages/3ds/${challenged.id}`);
    const page = await (await server.app.request(challenged.verificationUrl!)).text();
    expect(page).toContain('3-D Secure password');
    // A wrong passkey: AUTH_FAILED, one of Maya's final statuses.
    expect(await press(challenged.verificationUrl!, 'approve', 'guess')).toBe(redirectUrl.failure);
    expect((await maya.getPayment(challenged.id)).status).toBe('AUTH_FAILED');
    const again = await maya.payWithCard(customer.id, secure.cardTokenId, { totalAmount: { amount: 99, currency: 'PHP' }, requestReferenceNumber: 'T2', redirectUrl });
    expect(await press(again.verificationUrl!, 'approve', 'mctest1')).toBe(redirectUrl.success);
    expect((await maya.getPaymentsByReference('T2')).map((p) => p.status)).toEqual(['PAYMENT_SUCCESS']);
  });

  it('voids a payment the same day and refunds one after, as Maya documents', async () => {
    const customer = await maya.createCustomer({ firstName: 'Ana', lastName: 'Reyes', contact: { email: 'v@example.com' } });
    const token = await maya.createPaymentToken({ number: '5123456789012346', expMonth: '01', expYear: '2099', cvc: '123' });
    const card = await maya.addCustomerCard(customer.id, { paymentTokenId: token.paymentTokenId, isDefault: true, redirectUrl, requestReferenceNumber: 'V' });
    await press(card.verificationUrl!, 'approve');
    const pay = (rrn: string) => maya.payWithCard(customer.id, card.cardTokenId, { totalAmount: { amount: 99, currency: 'PHP' }, requestReferenceNumber: rrn, redirectUrl });
    const first = await pay('SB-VOID-1');
    expect(first).toMatchObject({ status: 'PAYMENT_SUCCESS', canVoid: true });
    expect(await maya.voidPayment(first.id, { reason: 'duplicate' })).toMatchObject({ status: 'SUCCESS' });
    expect((await maya.getPayment(first.id)).status).toBe('VOIDED');
    await expect(maya.voidPayment(first.id, { reason: 'again' })).rejects.toMatchObject({ status: 400 });
    const second = await pay('SB-REFUND-1');
    expect(await maya.refundPayment(second.id, { totalAmount: { amount: 99, currency: 'PHP' }, reason: 'duplicate' })).toMatchObject({ status: 'SUCCESS' });
    expect((await maya.getPayment(second.id)).status).toBe('REFUNDED');
  });

  it('registers, lists, updates and deletes webhooks', async () => {
    for (const hook of await maya.listWebhooks()) await maya.deleteWebhook(hook.id);
    const created = await maya.createWebhook({ name: 'PAYMENT_SUCCESS', callbackUrl: 'https://sine.example/api/v1/mobile/payment/webhook/maya' });
    await expect(maya.createWebhook({ name: 'PAYMENT_SUCCESS', callbackUrl: 'https://other.example/' })).rejects.toMatchObject({ status: 409 });
    const updated = await maya.updateWebhook(created.id, { name: 'PAYMENT_SUCCESS', callbackUrl: 'https://sine.example/new' });
    expect(updated).toMatchObject({ id: created.id, callbackUrl: 'https://sine.example/new' });
    expect((await maya.listWebhooks()).map((w) => [w.name, w.callbackUrl])).toEqual([['PAYMENT_SUCCESS', 'https://sine.example/new']]);
    await maya.deleteWebhook(created.id);
    expect(await maya.listWebhooks()).toEqual([]);
  });

  it('refuses bad cards with Maya-shaped errors', async () => {
    await expect(maya.createPaymentToken({ number: '4123450131001382', expMonth: '12', expYear: '2099', cvc: '111' })).rejects.toMatchObject({ status: 400, code: 'PY0002' });
    await expect(maya.createPaymentToken({ number: '4123450131001381', expMonth: '12', expYear: '2001', cvc: '111' })).rejects.toMatchObject({ status: 400, code: 'PY0004' });
  });

  it('links a wallet on the hosted page, reads it, pays with it and unlinks it', async () => {
    const created = await maya.createWalletLink({ redirectUrl, requestReferenceNumber: 'SB-LINK-1' });
    await expect(maya.getWalletLink(created.linkId)).rejects.toMatchObject({ status: 404 }); // not authorized yet
    expect(await press(created.redirectUrl, 'approve')).toBe(redirectUrl.success);
    const link = await maya.getWalletLink(created.linkId);
    expect(link).toMatchObject({ linkId: created.linkId, card: { state: 'VERIFIED' }, customer: { contact: { email: expect.any(String) } } });
    const payment = await maya.payWithWalletLink(created.linkId, { totalAmount: { value: 99, currency: 'PHP' }, requestReferenceNumber: 'SB-WALLET-1' });
    expect(payment.status).toBe('PAYMENT_SUCCESS');
    // Read where Maya documents it: by reference number (no /payby/.../payments path exists).
    expect((await maya.getPaymentsByReference('SB-WALLET-1')).map((p) => p.id)).toEqual([payment.id]);
    await maya.deleteWalletLink(created.linkId);
    await expect(maya.getWalletLink(created.linkId)).rejects.toBeInstanceOf(GatewayError);
  });

  it('deletes a customer\'s card (issue 36): gone from the list, never charged again; another customer\'s card and an unknown one are 404', async () => {
    const token = await maya.createPaymentToken({ number: '5123456789012346', expMonth: '12', expYear: '2099', cvc: '111' });
    const customer = await maya.createCustomer({ firstName: 'Maria', lastName: 'Santos', contact: { email: 'free@example.com' } });
    const card = await maya.addCustomerCard(customer.id, { paymentTokenId: token.paymentTokenId, isDefault: true, redirectUrl, requestReferenceNumber: 'SB-DEL' });
    await press(card.verificationUrl!, 'approve');
    const stranger = await maya.createCustomer({ firstName: 'Juan', lastName: 'Dela Cruz', contact: { email: 'premium@example.com' } });
    await expect(maya.deleteCustomerCard(stranger.id, card.cardTokenId)).rejects.toMatchObject({ status: 404 });
    expect(await maya.listCustomerCards(customer.id)).toHaveLength(1);
    await maya.deleteCustomerCard(customer.id, card.cardTokenId);
    expect(await maya.listCustomerCards(customer.id)).toEqual([]);
    await expect(
      maya.payWithCard(customer.id, card.cardTokenId, { totalAmount: { amount: 99, currency: 'PHP' }, requestReferenceNumber: 'SB-DEL-PAY', redirectUrl }),
    ).rejects.toBeInstanceOf(GatewayError);
    await expect(maya.deleteCustomerCard(customer.id, card.cardTokenId)).rejects.toMatchObject({ status: 404 });
  });

  it('uses the public key for tokens, checkouts and links, the secret key for the rest', async () => {
    const swapped = createMayaClient({ ...defaultGatewayConfig(0), publicKey: SANDBOX_SECRET_KEY, secretKey: SANDBOX_PUBLIC_KEY, fetch: sandboxFetch });
    await expect(swapped.createPaymentToken({ number: '4123450131001381', expMonth: '12', expYear: '2099', cvc: '111' })).rejects.toMatchObject({ status: 401 });
    await expect(swapped.createWalletLink({ redirectUrl, requestReferenceNumber: 'K' })).rejects.toMatchObject({ status: 401 });
    await expect(swapped.createCustomer({ firstName: 'A', lastName: 'B', contact: { email: 'a@b.c' } })).rejects.toMatchObject({ status: 401 });
  });

  it('reports an unreachable gateway as status 0, and the sandbox is not served to other machines', async () => {
    const down = createMayaClient({ ...defaultGatewayConfig(0), fetch: (() => Promise.reject(new Error('ECONNREFUSED'))) as typeof fetch });
    await expect(down.getPayment('x')).rejects.toMatchObject({ status: 0, code: 'UNREACHABLE' });
    const remote = createMayaClient({
      ...defaultGatewayConfig(0),
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => server.app.request(String(input), init, '203.0.113.9')) as typeof fetch,
    });
    await expect(remote.createPaymentToken({ number: '4123450131001381', expMonth: '12', expYear: '2099', cvc: '111' })).rejects.toMatchObject({ status: 404 });
  });
});

describe('amount formatting between our records and Maya', () => {
  it('maps the plan prices both ways', () => {
    expect(toMayaValue('99.00')).toBe(99);
    expect(toMayaValue('990.00')).toBe(990);
    expect(fromMayaValue(99)).toBe('99.00');
    expect(fromMayaValue('99.5')).toBe('99.50');
    expect(() => toCents('99.999')).toThrow();
    expect(() => toCents('-1')).toThrow();
  });

  it('round-trips every amount in cents: ours → Maya value → ours', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999_99 }), (cents) => {
        const ours = formatCents(cents);
        expect(toCents(ours)).toBe(cents);
        expect(fromMayaValue(toMayaValue(ours))).toBe(ours);
        expect(fromMayaValue(String(toMayaValue(ours)))).toBe(ours);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('billing periods of a paid subscription (Asia/Manila calendar)', () => {
  it('adds calendar months and years, clamping to the month end, and fixed lengths for the rest', async () => {
    const { addBillingPeriod } = await import('../../../server/billing/periods');
    // 31 January, 10:00 in Manila → 28 February (2027 is not a leap year), 10:00 in Manila.
    expect(addBillingPeriod(new Date('2027-01-31T10:00:00+08:00'), 'month', 1).toISOString()).toBe(new Date('2027-02-28T10:00:00+08:00').toISOString());
    expect(addBillingPeriod(new Date('2028-01-31T10:00:00+08:00'), 'month', 1).toISOString()).toBe(new Date('2028-02-29T10:00:00+08:00').toISOString());
    // 1 March 01:00 in Manila is still 28 February in UTC: the Manila date counts.
    expect(addBillingPeriod(new Date('2027-03-01T01:00:00+08:00'), 'month', 1).toISOString()).toBe(new Date('2027-04-01T01:00:00+08:00').toISOString());
    expect(addBillingPeriod(new Date('2028-02-29T12:00:00+08:00'), 'year', 1).toISOString()).toBe(new Date('2029-02-28T12:00:00+08:00').toISOString());
    expect(addBillingPeriod(new Date('2027-01-01T00:00:00Z'), 'week', 2).toISOString()).toBe('2027-01-15T00:00:00.000Z');
  });
});
