/**
 * Issue 37: a signed-in page opened while the network is down (every API call aborted) shows its own
 * failure and leaves no script error: no unhandled rejection ('Failed to fetch') from the boot script's
 * early reads (src/api/earlyReads.ts: profile, status, both histories, plans) nor from the app.
 */
import { expect, test } from '@playwright/test';
import { signInAs } from './routes';

const PAGES = [
  { path: '/account', heading: /^Account$/ },
  { path: '/subscription', heading: /^Subscription$/ },
  { path: '/subscription/redeem-voucher', heading: /^Redeem Voucher$/ },
  { path: '/subscription/change-plan', heading: /^Choose Your Plan$/ },
  { path: '/subscription/change-payment-method', heading: /^Change Payment Method$/ },
  { path: '/subscription/payment', heading: /./ },
  { path: '/subscription/receipts/00000000-0000-4000-8000-000000000000', heading: /^Receipt$/ },
  { path: '/subscription/invoices/00000000-0000-4000-8000-000000000000', heading: /^Invoice$/ },
];

test('signed-in pages opened with the network down leave no unhandled rejection or page error', async ({ page }) => {
  await signInAs(page, 'premium@example.com');
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  await page.addInitScript(() => {
    window.addEventListener('unhandledrejection', (event) => {
      const reason = event.reason as { message?: string } | undefined;
      console.error(`unhandledrejection: ${reason?.message ?? String(event.reason)}`);
    });
  });
  page.on('console', (message) => { if (message.text().startsWith('unhandledrejection:')) errors.push(`${page.url()} ${message.text()}`); });
  await page.route('**/api/**', (route) => route.abort('internetdisconnected'));
  for (const { path, heading } of PAGES) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    // The reads have failed and the page shows it (an error box, 'Try again', or a toast) before we look.
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
  }
  expect(errors).toEqual([]);
});
