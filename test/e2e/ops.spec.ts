/**
 * The back office in Chromium on the real server (issue 35): a fresh operator (POST /dev/operators)
 * signs in, enrols an authenticator (the code computed from the secret the page shows), then
 * (a) finds a viewer by the payment reference and refunds it: the sandbox and the viewer's own pages
 * show it; (b) mints a voucher batch, and a viewer redeems one of its codes; (c) the audit page lists both.
 */
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { DEMO_PASSWORD, latestCode, signIn, watchConsole } from './support';

const SANDBOX_SECRET = 'sk-sandbox-sine-bisaya-local';
let counter = 0;
const unique = (what: string) => `${what}-${Date.now().toString(36)}-${counter++}@example.com`;

async function newViewer(request: APIRequestContext): Promise<string> {
  const email = unique('ops-viewer');
  const signUp = await request.post('/api/v1/mobile/auth/sign-up', {
    data: { email, password: DEMO_PASSWORD, passwordConfirm: DEMO_PASSWORD, firstName: 'Nena', lastName: 'Cruz', birthdate: '1990-01-01' },
  });
  expect(signUp.ok()).toBe(true);
  const { verificationToken } = ((await signUp.json()) as { data: { verificationToken: string } }).data;
  const verified = await request.post('/api/v1/mobile/auth/sign-up/verify-otp', { data: { verificationToken, otpCode: await latestCode(request, email) } });
  expect(verified.ok()).toBe(true);
  return email;
}

/** A viewer buys Monthly by card (no 3-D Secure) and answers the payment's reference. */
async function buyMonthly(page: Page, email: string): Promise<string> {
  await page.goto('/login?from=%2Fsubscription%2Fpayment%3Fplan%3Dmonthly%26step%3D2');
  await signIn(page, email);
  await page.getByRole('radio', { name: 'Credit/Debit' }).check();
  await page.getByLabel('Card Number').pressSequentially('5123456789012346');
  await page.getByLabel('Expiry (MM/YY)').pressSequentially('1230');
  await page.getByLabel('CVC').pressSequentially('123');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await page.getByRole('checkbox', { name: 'I agree to automatic renewal' }).check();
  await page.getByRole('button', { name: 'Pay ₱99' }).click();
  await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();
  const reference = await page.getByRole('region', { name: 'Payment details' }).locator('dt', { hasText: 'Reference' }).locator('+ dd').textContent();
  return reference!.trim();
}

/** A fresh operator, signed in with a second factor enrolled from the page's own secret. */
let recoveryCodes: string[] = [];

async function enrolledOperator(browser: Browser, request: APIRequestContext, role: 'finance' | 'admin'): Promise<Page> {
  const email = unique(`ops-${role}`);
  expect((await request.post('/dev/operators', { data: { email, role } })).ok()).toBe(true);
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto('/ops');
  await expect(page).toHaveURL(/\/login\?from=%2Fops$/);
  await signIn(page, email);
  await expect(page.getByRole('heading', { level: 1, name: 'Set up your authenticator' })).toBeVisible();
  const secret = (await page.getByTestId('ops-secret').textContent())!.trim();
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  await page.getByRole('textbox', { name: 'Code from your authenticator app' }).fill(totp.generate());
  await page.getByRole('button', { name: 'Verify' }).click();
  // A new face of the door on the same address takes focus to its heading.
  await expect(page.getByRole('heading', { level: 1, name: 'Your recovery codes' })).toBeFocused();
  await expect(page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem')).toHaveCount(10);
  recoveryCodes = await page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem').allTextContents();
  await page.getByRole('button', { name: 'I saved them' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Find a viewer' })).toBeVisible();
  await expect(page).toHaveTitle('Find a viewer · Sine Bisaya');
  return page;
}

test.describe.serial('the back office', () => {
  let ops: Page;
  let problems: string[] = [];
  let refundedEmail = '';
  let batchPartner = '';

  test.afterAll(async ({ request }) => {
    await request.post('/dev/clock', { data: { now: null } });
  });

  test('a viewer gets the 404 page on any /ops address', async ({ page }) => {
    await page.goto('/login?from=%2Fops%2Ffind');
    await signIn(page, 'premium@example.com');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page).toHaveTitle('Page Not Found · Sine Bisaya');
    await expect(page.getByText(/back office/i)).toHaveCount(0);
  });

  test('(a) finds a viewer by payment reference and refunds it', async ({ browser, page, request }) => {
    refundedEmail = await newViewer(request);
    const reference = await buyMonthly(page, refundedEmail);
    // Two days later (Manila): Maya refunds, no longer voids.
    const later = new Date(Date.now() + 2 * 24 * 3600_000).toISOString();
    expect((await request.post('/dev/clock', { data: { now: later } })).ok()).toBe(true);

    ops = await enrolledOperator(browser, request, 'admin');
    problems = watchConsole(ops);
    await ops.getByRole('searchbox').fill(reference);
    await ops.getByRole('button', { name: 'Search' }).click();
    const results = ops.getByRole('table', { name: /viewers? found for/ });
    await expect(results.getByRole('row').nth(1)).toContainText('Payment reference');
    await results.getByRole('link').first().click();
    await expect(ops.getByRole('heading', { level: 1, name: 'Nena Cruz' })).toBeVisible();

    const payment = ops.getByRole('article').filter({ hasText: reference });
    await payment.getByRole('button', { name: 'Refund' }).click();
    const panel = ops.getByRole('region', { name: 'Refund' });
    await expect(panel.getByRole('textbox', { name: 'Amount in pesos' })).toHaveValue('99.00');
    await panel.getByRole('textbox', { name: 'Reason (written to the audit log)' }).fill('Charged by mistake (e2e)');
    await panel.getByRole('button', { name: 'Continue' }).click();
    await expect(panel.getByText(`Refund ₱99.00 to ${refundedEmail}?`)).toBeVisible();
    // A double press sends one request (one key): the second lands on a disabled button.
    await panel.getByRole('button', { name: 'Confirm' }).dblclick();
    await expect(panel.getByRole('status')).toHaveText(/^Refunded ₱99\.00 \(SUCCEEDED\)\.$/);

    // The timeline now shows the refund attempt, and the payment has nothing left to give back.
    await expect(payment.getByRole('button', { name: 'Refund' })).toHaveCount(0);
    const attempts = payment.getByRole('table', { name: `Gateway attempts of ${reference}` });
    await expect(attempts.getByRole('row').filter({ hasText: 'REFUND' })).toHaveCount(1);
    const mayaId = (await attempts.getByRole('row').filter({ has: ops.getByRole('cell', { name: 'CARD', exact: true }) }).getByRole('cell').nth(1).textContent())!.trim();
    const charge = attempts.getByRole('row').filter({ hasText: mayaId });
    await charge.getByRole('button', { name: 'Ask Maya' }).click();
    await expect(charge.getByRole('status')).toContainText('REFUNDED');

    // The sandbox itself says so.
    const sandbox = await request.get(`/sandbox/maya/payments/v1/payments/${mayaId}`, {
      headers: { Authorization: `Basic ${Buffer.from(`${SANDBOX_SECRET}:`).toString('base64')}` },
    });
    expect(((await sandbox.json()) as { status: string }).status).toBe('REFUNDED');

    // The viewer's own page shows the credit memo of the refund.
    await page.goto('/subscription');
    await expect(page.getByText(/Credit memo/i).first()).toBeVisible();
  });

  test('(b) mints a batch of vouchers, and a viewer redeems one', async ({ page, request }) => {
    batchPartner = `Gaisano e2e ${Date.now().toString(36)}`;
    await ops.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Vouchers' }).click();
    const form = ops.getByRole('form', { name: 'Mint voucher codes' });
    await form.getByRole('textbox', { name: 'Partner' }).fill(batchPartner);
    await form.getByRole('textbox', { name: 'How many codes (1 to 5000)' }).fill('3');
    await form.getByRole('combobox', { name: 'Plan' }).selectOption({ label: 'Monthly' });
    await form.getByLabel('Last day to redeem (Manila)').fill('2099-12-31');
    await form.getByRole('textbox', { name: 'Reason (written to the audit log)' }).fill('Partner promo (e2e)');
    await form.getByRole('button', { name: 'Mint codes' }).click();
    await expect(ops.getByRole('heading', { level: 1, name: `Batch for ${batchPartner}` })).toBeVisible();
    const codes = ops.getByRole('table', { name: '3 codes of this batch' });
    const code = (await codes.getByRole('row').nth(1).getByRole('cell').first().textContent())!.trim();
    expect(code).toMatch(/^[A-Z0-9-]{12,}$/);

    const viewer = await newViewer(request);
    await page.goto('/login?from=%2Fsubscription%2Fredeem-voucher');
    await signIn(page, viewer);
    await page.getByLabel('Voucher Code').fill(code);
    await page.getByRole('button', { name: 'Redeem Voucher' }).click();
    await expect(page.getByText('Voucher redeemed successfully')).toBeVisible();

    await ops.reload();
    await expect(ops.getByRole('table', { name: 'Who redeemed which code' }).getByRole('row').filter({ hasText: viewer })).toContainText(code);
  });

  test('every console page passes axe in both themes, and names itself', async () => {
    const pages: Array<[string, string]> = [
      ['/ops/find', 'Find a viewer'], ['/ops/queues', 'Queues'], ['/ops/vouchers', 'Vouchers'], ['/ops/exports', 'Exports'],
      ['/ops/audit', 'Audit log'], ['/ops/operators', 'Operators'],
    ];
    for (const theme of ['light', 'dark']) {
      await ops.evaluate((t) => localStorage.setItem('theme', t), theme);
      for (const [path, heading] of pages) {
        await ops.goto(path);
        await expect(ops.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await expect(ops).toHaveTitle(`${heading} · Sine Bisaya`);
        await expect(ops.getByRole('status')).toHaveCount(0);
        const { violations } = await new AxeBuilder({ page: ops }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa']).analyze();
        expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `${path} ${theme}`).toEqual([]);
      }
    }
  });

  test('(c) the audit page lists the refund and the batch', async () => {
    await ops.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Audit log' }).click();
    const log = ops.getByRole('table', { name: /audit entr(y|ies)/ });
    await expect(log.getByRole('row').filter({ hasText: 'payment.reverse' }).filter({ hasText: refundedEmail })).toContainText('Charged by mistake (e2e)');
    await expect(log.getByRole('row').filter({ hasText: 'voucher_batch.create' }).first()).toContainText('Partner promo (e2e)');
    expect(problems).toEqual([]);
  });

  test('a revoked ops session asks for a code again, the page kept; a recovery code opens it', async () => {
    await ops.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Operators' }).click();
    const me = ops.getByRole('row').filter({ hasText: /ops-admin-/ }).filter({ has: ops.getByRole('button', { name: 'Sign out everywhere' }) }).first();
    await me.getByRole('button', { name: 'Sign out everywhere' }).click();
    const panel = ops.getByRole('region', { name: 'Sign out everywhere' });
    await panel.getByRole('textbox', { name: 'Reason (written to the audit log)' }).fill('Lost laptop (e2e)');
    await panel.getByRole('button', { name: 'Continue' }).click();
    await panel.getByRole('button', { name: 'Confirm' }).click();
    // The revoke answers, then the console's next read meets the ended session: a code again.
    await expect(ops.getByRole('heading', { level: 1, name: 'Verify it is you' })).toBeVisible();
    await expect(ops.getByRole('alert').filter({ hasText: 'Your operator session has expired. Please verify again.' })).toBeVisible();
    await expect(ops).toHaveURL(/\/ops\/operators$/);
    await ops.getByRole('textbox', { name: 'Code' }).fill(recoveryCodes[0]!);
    await ops.getByRole('button', { name: 'Verify' }).click();
    await expect(ops.getByRole('heading', { level: 1, name: 'Operators' })).toBeVisible();
    await expect(ops.getByRole('heading', { level: 1, name: 'Operators' })).toBeFocused();
  });

  test('exports the payments of a range of Manila dates as CSV, the last row TOTAL', async () => {
    await ops.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Exports' }).click();
    await ops.getByLabel('From (Manila date)').fill('2026-01-01');
    await ops.getByLabel('To (Manila date)').fill('2026-12-31');
    const download = ops.waitForEvent('download');
    await ops.getByRole('button', { name: 'Download payments' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('payments-2026-01-01-2026-12-31.csv');
    const text = (await readFile((await file.path())!, 'utf8')).trim().split('\n');
    expect(text.at(-1)).toMatch(/^"?TOTAL/);
    await expect(ops.getByRole('status')).toHaveText('Downloaded.');
  });
});
