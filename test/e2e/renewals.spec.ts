/**
 * Renewals as QA watches them (issue 18): the billing clock is moved past an end date and the engine
 * does the due work within seconds. premium@'s saved Visa is charged at its end date and a new period
 * starts there, with a receipt in the mailbox; canceled@'s Maya Checkout subscription, reactivated, is
 * reminded 3 days before its end and renewed by hand on Maya's page. Each test puts the demo data and
 * the clock back (POST /dev/reset), since the server is shared by the whole run.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO_PASSWORD, resetDemoData, signIn, watchConsole } from './support';

const V1 = '/api/v1/mobile';
const DAY_MS = 24 * 60 * 60 * 1000;
/** What the app sends once the viewer ticked 'I agree to automatic renewal' (product.md#renewal-consent). */
const RENEWAL_CONSENT = { accepted: true, text: 'Renews automatically on 01/15/2030 at ₱99 until you cancel. Cancel anytime on Subscription.', language: 'en' };

let problems: string[] = [];
test.beforeEach(async ({ page, request }) => {
  problems = watchConsole(page);
  await resetDemoData(request);
});
test.afterEach(async ({ request }) => {
  await resetDemoData(request);
  expect(problems).toEqual([]);
});

async function statusOf(request: APIRequestContext, email: string) {
  const signedIn = await request.post(`${V1}/auth/sign-in-email`, { data: { email, password: DEMO_PASSWORD } });
  expect(signedIn.ok()).toBe(true);
  const token = ((await signedIn.json()) as { data: { accessToken: string } }).data.accessToken;
  const answer = await request.get(`${V1}/subscription/status`, { headers: { Authorization: `Bearer ${token}` } });
  return { token, status: ((await answer.json()) as { data: { subscriptionId: string; endDate: string } }).data };
}

const moveClock = async (request: APIRequestContext, at: Date) =>
  expect((await request.post('/dev/clock', { data: { now: at.toISOString() } })).ok()).toBe(true);

const fact = (page: Page, label: string) =>
  page.getByRole('region', { name: 'Current Subscription' }).locator('dt', { hasText: label }).locator('+ dd');

async function openSubscription(page: Page, email: string) {
  await page.goto('/login');
  await signIn(page, email);
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto('/subscription');
  // Loaded (a Free card has no Status fact: it says what Premium gives instead).
  await expect(page.getByRole('region', { name: 'Current Subscription' }).getByRole('link').first()).toBeVisible();
}

test('premium@ renews at its end date: a new period from the old end date, the payment, and a receipt', async ({ page, request }) => {
  const { status } = await statusOf(request, 'premium@example.com');
  await openSubscription(page, 'premium@example.com');
  const oldEnd = (await fact(page, 'Next Billing Date').textContent())!;

  await moveClock(request, new Date(Date.parse(status.endDate) + DAY_MS));
  // The engine runs the due renewal within seconds; the page shows it when read again.
  await expect(async () => {
    await page.reload();
    await expect(fact(page, 'Start Date')).toHaveText(oldEnd, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(fact(page, 'Status')).toHaveText('Active');
  await expect(fact(page, 'Next Billing Date')).not.toHaveText(oldEnd);
  await expect(page.getByRole('region', { name: 'Current Subscription' }).getByRole('region')).toHaveCount(0);
  const newest = page.getByRole('region', { name: 'Payments' }).getByRole('row').nth(1);
  await expect(newest).toContainText('Succeeded');
  await expect(newest).toContainText('SB-RN-');

  // The invoice is mailed just after the period is written: ask until it is there.
  const invoiceMail = async () => {
    const mails = (await (await request.get('/dev/mailbox.json?to=premium%40example.com')).json()) as Array<{ subject: string; text: string }>;
    return mails.find((m) => /^Sine Bisaya: invoice SB-INV-\d{8} for your Monthly renewal$/.test(m.subject)) ?? null;
  };
  await expect.poll(invoiceMail, { timeout: 10_000 }).not.toBeNull();
  const invoice = (await invoiceMail())!;
  expect(invoice.text).toContain('₱99, VAT included');
  expect(invoice.text).toMatch(/\/subscription\/invoices\/[0-9a-f-]{36}/);
});

test('canceled@, reactivated on Maya Checkout, is reminded 3 days before its end and renews by hand with no day lost', async ({ page, request }) => {
  const { token, status } = await statusOf(request, 'canceled@example.com');
  const reactivated = await request.post(`${V1}/subscription/resubscribe`, {
    headers: { Authorization: `Bearer ${token}` }, data: { subscriptionId: status.subscriptionId },
  });
  expect(reactivated.ok()).toBe(true);
  await moveClock(request, new Date(Date.parse(status.endDate) - 2 * DAY_MS));
  // The engine's sweep (every 2 s) mails the reminder; wait for it before renewing, as a viewer would
  // (renewing first, within one sweep, leaves nothing to remind: the test raced the sweep).
  await expect.poll(async () => {
    const mails = (await (await request.get('/dev/mailbox.json?to=canceled%40example.com')).json()) as Array<{ subject: string }>;
    return mails.map((m) => m.subject);
  }, { timeout: 20_000 }).toContainEqual(expect.stringMatching(/^Sine Bisaya: renew your Premium before /));

  await openSubscription(page, 'canceled@example.com');
  const oldEnd = (await fact(page, 'Next Billing Date').textContent())!;
  const reminder = page.getByRole('region', { name: 'Time to renew' });
  await expect(reminder).toContainText(`Your Premium ends on ${oldEnd}. Maya Checkout does not renew by itself.`);
  await reminder.getByRole('button', { name: 'Renew now' }).click();

  await expect(page.getByRole('heading', { name: 'Pay with Maya Checkout' })).toBeVisible();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to Subscription' }).click();
  // Paid early (review finding 9): the running period stays Active with its own start; the paid one is the next period.
  await expect(fact(page, 'Next Period')).toHaveText(oldEnd);
  await expect(fact(page, 'Start Date')).not.toHaveText(oldEnd);
  await expect(fact(page, 'Status')).toHaveText('Active');
  await expect(page.getByRole('region', { name: 'Current Subscription' }).getByText(/^Premium · paid through \d{2}\/\d{2}\/\d{4}$/)).toBeVisible();
  const active = page.getByRole('list', { name: 'Active subscriptions' });
  await expect(active.getByText('Upcoming')).toBeVisible();
  await expect(active.getByText('Active', { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Subscription History' }).getByText('Expired')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Time to renew' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Payments' }).getByRole('row').nth(1)).toContainText('Succeeded');
});

/** Maya's sandbox cards: one that declines (insufficient funds), one whose bank asks to confirm every payment. */
const DECLINING = { number: '4917610000000000', passkey: 'paymaya88' };
const CONFIRM_EVERY_TIME = { number: '4123450131001381', passkey: 'mctest1' };

/** premium@'s card made `card` (confirmed at the bank), through the API. */
async function renewsOn(request: APIRequestContext, token: string, subscriptionId: string, card: { number: string; passkey: string }) {
  const auth = { Authorization: `Bearer ${token}` };
  const saved = (await (await request.post(`${V1}/payment/vault/cards`, {
    headers: auth, data: { number: card.number, expMonth: '12', expYear: '2099', cvc: '123', isDefault: false },
  })).json()) as { data: { cardTokenId: string; verificationUrl: string } };
  const bank = await request.post(saved.data.verificationUrl, { form: { action: 'approve', passkey: card.passkey }, maxRedirects: 0 });
  expect(bank.status()).toBe(303);
  expect((await request.get(bank.headers().location!, { maxRedirects: 0 })).status()).toBe(303);
  const set = await request.post(`${V1}/subscription/update-payment-method`, {
    headers: auth, data: { subscriptionId, paymentMethod: 'MAYA_VAULT', paymentMethodDetails: JSON.stringify({ cardTokenId: saved.data.cardTokenId }), renewalConsent: RENEWAL_CONSENT },
  });
  expect(set.ok()).toBe(true);
}

/** premium@'s renewal on `card` fails at its end date: the engine makes it PAST_DUE within a sweep or two. */
async function pastDue(request: APIRequestContext, card = DECLINING) {
  const { token, status } = await statusOf(request, 'premium@example.com');
  await renewsOn(request, token, status.subscriptionId, card);
  await moveClock(request, new Date(Date.parse(status.endDate) + 60_000));
  await expect.poll(async () => {
    const answer = await request.get(`${V1}/subscription/status`, { headers: { Authorization: `Bearer ${token}` } });
    return ((await answer.json()) as { data: { status: string } }).data.status;
  }, { timeout: 20_000 }).toBe('PAST_DUE');
  return status;
}

test('premium@ whose bank asks to confirm every payment: PAST_DUE, Renew now leads to the bank\'s page and pays the overdue period there, from the old end date, on its card (issue 37)', async ({ page, request }) => {
  await openSubscription(page, 'premium@example.com');
  const oldEnd = (await fact(page, 'Next Billing Date').textContent())!;
  await pastDue(request, CONFIRM_EVERY_TIME);
  await page.reload();
  const notice = page.getByRole('region', { name: 'Your renewal payment failed' });
  await expect(notice).toContainText('Your bank asked to confirm the payment');
  // Review finding 8: what is owed, no Next Billing Date in the past, and still listed under History → Active.
  await expect(fact(page, 'Amount Due')).toHaveText('₱99');
  await expect(page.getByRole('region', { name: 'Current Subscription' }).getByText('Next Billing Date')).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Active subscriptions' }).getByText('Past due')).toBeVisible();
  await expect(notice.getByRole('link', { name: 'Change Payment Method' })).toBeVisible();
  // The way forward first: the bank's confirmation (walk finding 2).
  await notice.getByRole('button', { name: 'Confirm with your bank' }).click();

  await expect(page.getByRole('heading', { name: '3-D Secure verification' })).toBeVisible();
  await page.getByLabel('3-D Secure password').fill(CONFIRM_EVERY_TIME.passkey);
  await page.getByRole('button', { name: 'Authenticate' }).click();
  await expect(page).toHaveURL(/\/payment\?status=success/);
  await page.getByRole('link', { name: 'Go to Subscription' }).click();
  await expect(fact(page, 'Status')).toHaveText('Active');
  await expect(fact(page, 'Start Date')).toHaveText(oldEnd);
  await expect(page.getByRole('region', { name: 'Your renewal payment failed' })).toHaveCount(0);
  // The next period renews on the subscription's own card.
  await expect(page.getByRole('region', { name: 'Current Subscription' })).toContainText('1381');
  // A receipt for the Renew now payment, as for every payment.
  await expect.poll(async () => {
    const mails = (await (await request.get('/dev/mailbox.json?to=premium%40example.com')).json()) as Array<{ subject: string }>;
    return mails.map((m) => m.subject);
  }, { timeout: 10_000 }).toContainEqual(expect.stringMatching(/^Sine Bisaya: invoice SB-INV-\d{8} for your Monthly renewal$/));
});

test('premium@ declined at renewal: Renew now tries the card again at once and says it was declined; the notice stays with Change Payment Method (issue 37)', async ({ page, request }) => {
  await pastDue(request);
  await openSubscription(page, 'premium@example.com');
  const notice = page.getByRole('region', { name: 'Your renewal payment failed' });
  await notice.getByRole('button', { name: 'Renew now' }).click();
  await expect(notice.getByRole('alert')).toContainText(/declined/);
  problems = problems.filter((text) => !text.includes('402'));
  await expect(fact(page, 'Status')).toHaveText('Past due');
  await expect(notice.getByRole('link', { name: 'Change Payment Method' })).toBeVisible();
  await expect(notice.getByRole('button', { name: 'Renew now' })).toBeEnabled();
});

test('premium@ PAST_DUE cancels: no more attempts, Premium to the end of the grace (issue 32)', async ({ page, request }) => {
  await pastDue(request);
  await openSubscription(page, 'premium@example.com');
  await page.getByRole('region', { name: 'Current Subscription' }).getByRole('button', { name: 'Cancel Subscription' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Cancel your subscription?' });
  await expect(dialog).toContainText('We will stop trying to charge your overdue payment.');
  await dialog.getByRole('button', { name: 'Cancel Subscription' }).click();
  await expect(dialog).toBeHidden();
  await expect(fact(page, 'Status')).toHaveText('Canceled');
  await expect(page.getByRole('region', { name: 'Current Subscription' }).getByText(/^Premium until \d{2}\/\d{2}\/\d{4}; it will not renew$/)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your renewal payment failed' })).toHaveCount(0);
});

test('premium@ never paid: after the grace the Free card says when Premium ended and why, with Subscribe to Premium Plan (review finding 20)', async ({ page, request }) => {
  const status = await pastDue(request);
  await moveClock(request, new Date(Date.parse(status.endDate) + 8 * DAY_MS));
  await openSubscription(page, 'premium@example.com');
  const card = page.getByRole('region', { name: 'Current Subscription' });
  await expect(async () => {
    await page.reload();
    await expect(card.getByText(/^Your Premium ended on \d{2}\/\d{2}\/\d{4} because the renewal payment failed\.$/)).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(card.getByRole('link', { name: 'Subscribe to Premium Plan' })).toHaveAttribute('href', '/subscription/payment');
});

test('premium@ PAST_DUE saves a working card: the page says it is charged now, then that the overdue payment went through; no stale banner (finding 8)', async ({ page, request }) => {
  // The charge is made by the engine's next sweep and the page reads the status every 2 s until it knows.
  test.setTimeout(75_000);
  await pastDue(request);
  await openSubscription(page, 'premium@example.com');
  await page.getByRole('region', { name: 'Your renewal payment failed' }).getByRole('link', { name: 'Change Payment Method' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Change Payment Method' })).toBeVisible();
  // The spec's note is for a subscription in good standing; while PAST_DUE the page says what a save does now.
  await expect(page.getByText(/^Your subscription is past due\. A card or Maya Wallet you save now is charged at once for the overdue ₱99/)).toBeVisible();
  await expect(page.getByText('Changing payment method will take effect in next billing cycle.')).toHaveCount(0);
  const section = page.getByRole('region', { name: 'New Payment Method' });
  await expect(section.getByRole('switch', { name: 'Use this card' })).toBeChecked();
  await section.getByRole('checkbox', { name: 'I agree to automatic renewal' }).check(); // product.md#renewal-consent
  await section.getByRole('button', { name: 'Save Payment Method' }).click();
  await expect(page.getByText('Your payment method has been updated and the overdue payment went through. Your Premium subscription is active again.')).toBeVisible({ timeout: 40_000 });
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(fact(page, 'Status')).toHaveText('Active');
  await expect(page.getByRole('region', { name: 'Your renewal payment failed' })).toHaveCount(0);
});
