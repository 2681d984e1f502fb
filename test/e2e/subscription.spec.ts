import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { resetDemoData, signIn, watchConsole } from './support';

let problems: string[] = [];
// The four demo accounts as the README lists them, whatever earlier files changed.
test.beforeEach(async ({ page, request }) => {
  await resetDemoData(request);
  problems = watchConsole(page);
});
test.afterEach(() => {
  expect(problems).toEqual([]);
});

async function openSubscription(page: Page, email: string) {
  await page.goto('/login?from=%2Fsubscription');
  await signIn(page, email);
  await expect(page).toHaveURL(/\/subscription$/);
  return page.getByRole('region', { name: 'Current Subscription' });
}

/** The value beside a label in the current-subscription card. */
function fact(page: Page, label: string) {
  return page.getByRole('region', { name: 'Current Subscription' }).locator('dt', { hasText: label }).locator('+ dd');
}

test('free@ sees the Free plan with subscribe and redeem', async ({ page }) => {
  const card = await openSubscription(page, 'free@example.com');
  await expect(card.getByText('Free', { exact: true })).toBeVisible();
  // What Premium costs and gives, in short (review finding 25).
  await expect(card.getByText(/^The monthly plan is ₱99\. The yearly plan is ₱990.* Premium: every Bisaya film and series, new releases every week\.$/)).toBeVisible();
  await expect(card.getByRole('link', { name: 'Subscribe to Premium Plan' })).toHaveAttribute('href', '/subscription/payment');
  await expect(card.getByRole('link', { name: 'Redeem Voucher' })).toHaveAttribute('href', '/subscription/redeem-voucher');
  await expect(card.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0);
});

test('premium@ sees the card, the next billing date and the payments panel', async ({ page }) => {
  const card = await openSubscription(page, 'premium@example.com');
  // The whole state in one line on top (review expectation 4), then each fact once.
  await expect(card.getByText(/^Premium · renews \d{2}\/\d{2}\/\d{4} for ₱99 on Visa •••• \d{4}$/)).toBeVisible();
  await expect(fact(page, 'Status')).toHaveText('Active');
  await expect(fact(page, 'Price')).toHaveText('₱99 monthly');
  await expect(fact(page, 'Next Billing Date')).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} (am|pm)$/);
  await expect(fact(page, 'Payment Method')).toHaveText(/^Visa •••• \d{4}$/);
  await expect(card.getByRole('link', { name: 'Change Payment Method' })).toBeVisible();
  await expect(card.getByRole('link', { name: 'Change Plan' })).toBeVisible();
  // Review finding 24: a voucher adds its days to a renewing card plan.
  await expect(card.getByRole('link', { name: 'Redeem Voucher' })).toHaveAttribute('href', '/subscription/redeem-voucher');
  // The destructive action last in the row (review finding 25).
  const cancel = card.getByRole('button', { name: 'Cancel Subscription' });
  await expect(cancel).toBeVisible();
  expect(await cancel.evaluate((button) => button.parentElement!.lastElementChild === button)).toBe(true);
  const payments = page.getByRole('region', { name: 'Payments' });
  await expect(payments.getByRole('row').nth(1)).toBeVisible();
  await expect(payments.getByRole('cell', { name: 'Succeeded' }).first()).toBeVisible();
});

test('canceled@ sees the end date, checkout and reactivate', async ({ page }) => {
  const card = await openSubscription(page, 'canceled@example.com');
  await expect(fact(page, 'Status')).toHaveText('Canceled');
  await expect(card.getByText(/^Premium until \d{2}\/\d{2}\/\d{4}; it will not renew$/)).toBeVisible();
  await expect(fact(page, 'End Date')).toBeVisible();
  await expect(card.getByText('Next Billing Date')).toHaveCount(0);
  await expect(fact(page, 'Payment Method')).toHaveText('Maya Checkout');
  await card.getByRole('button', { name: 'Reactivate Subscription' }).click();
  // Review finding 10: Checkout never renews by itself, so the dialog does not promise it.
  const dialog = page.getByRole('alertdialog', { name: 'Reactivate your subscription?' });
  await expect(dialog).toContainText('Maya Checkout does not renew by itself.');
  await expect(dialog).not.toContainText('renews on');
});

test('voucher@ sees the voucher code once, until when, and no dead ends', async ({ page }) => {
  const card = await openSubscription(page, 'voucher@example.com');
  await expect(fact(page, 'Voucher')).toHaveText('BISAYA30 · 30 days');
  await expect(card.getByText(/^Premium until \d{2}\/\d{2}\/\d{4}; it will not renew$/)).toBeVisible();
  // Review finding 16: no dead ends (the server refuses both for a voucher).
  await expect(card.getByRole('link', { name: 'Change Plan' })).toHaveCount(0);
  await expect(card.getByRole('link', { name: 'Change Payment Method' })).toHaveCount(0);
});

test('the open cancel dialog has no WCAG 2.2 A/AA violations in either theme (its danger button included)', async ({ page }) => {
  const card = await openSubscription(page, 'premium@example.com');
  for (const theme of ['dark', 'light']) {
    await page.evaluate((t) => localStorage.setItem('theme', t), theme);
    await page.reload();
    await card.getByRole('button', { name: 'Cancel Subscription' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Cancel your subscription?' });
    await expect(dialog.getByRole('button', { name: 'Cancel Subscription' })).toBeVisible();
    const { violations } = await new AxeBuilder({ page }).include('[role="alertdialog"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa']).analyze();
    expect(violations.map((v) => v.id), theme).toEqual([]);
    await dialog.getByRole('button', { name: 'Keep Subscription' }).click();
    await expect(dialog).toBeHidden();
  }
});

test('premium@ cancels, keeps access to the end date, then reactivates', async ({ page }) => {
  const card = await openSubscription(page, 'premium@example.com');
  const nextBilling = await fact(page, 'Next Billing Date').textContent();
  const opener = card.getByRole('button', { name: 'Cancel Subscription' });
  await opener.click();
  const dialog = page.getByRole('alertdialog', { name: 'Cancel your subscription?' });
  await expect(dialog).toContainText(`until ${nextBilling}`);
  await expect(dialog).toContainText('non-refundable');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  await opener.click();
  await dialog.getByRole('button', { name: 'Cancel Subscription' }).click();
  await expect(dialog).toBeHidden();
  await expect(fact(page, 'Status')).toHaveText('Canceled');
  await expect(fact(page, 'End Date')).toHaveText(nextBilling!);
  await expect(card.getByText(/^Premium until \d{2}\/\d{2}\/\d{4}; it will not renew$/)).toBeVisible();
  // History → Active still lists it: Premium runs to the end date (review finding 16).
  await expect(page.getByRole('list', { name: 'Active subscriptions' }).getByText('Canceled')).toBeVisible();

  await card.getByRole('button', { name: 'Reactivate Subscription' }).click();
  const again = page.getByRole('alertdialog', { name: 'Reactivate your subscription?' });
  await again.getByRole('checkbox', { name: 'I agree to automatic renewal' }).check(); // product.md#renewal-consent
  await again.getByRole('button', { name: 'Reactivate Subscription' }).click();
  await expect(again).toBeHidden();
  await expect(fact(page, 'Status')).toHaveText('Active');
  await expect(card.getByRole('button', { name: 'Cancel Subscription' })).toBeFocused();
});

test('free@ redeems BISAYA30 and becomes PREMIUM by voucher; a wrong code and a second use show the server message', async ({ page }) => {
  const card = await openSubscription(page, 'free@example.com');
  await card.getByRole('link', { name: 'Redeem Voucher' }).click();
  await expect(page).toHaveURL(/\/subscription\/redeem-voucher$/);
  const field = page.getByLabel('Voucher Code');
  await expect(field).toHaveAttribute('placeholder', 'BISAYA30');

  await page.getByRole('button', { name: 'Redeem Voucher' }).click();
  await expect(page.getByText('Voucher code is required')).toBeVisible();

  await field.pressSequentially('nosuch99');
  await expect(field).toHaveValue('NOSUCH99');
  await page.getByRole('button', { name: 'Redeem Voucher' }).click();
  await expect(page.locator('.Toastify').getByRole('alert').last()).toHaveText('Invalid voucher code. Please check the code and try again.');
  await expect(field).toHaveValue('NOSUCH99');
  await expect(page).toHaveURL(/\/subscription\/redeem-voucher$/);

  await field.fill('');
  await field.pressSequentially('bisaya30');
  await page.getByRole('button', { name: 'Redeem Voucher' }).click();
  await expect(page.getByText('Voucher redeemed successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(card.getByText(/^Premium until \d{2}\/\d{2}\/\d{4}; it will not renew$/)).toBeVisible();
  await expect(fact(page, 'Voucher')).toHaveText('BISAYA30 · 30 days');

  await page.goto('/subscription/redeem-voucher');
  await page.getByLabel('Voucher Code').pressSequentially('BISAYA30');
  await page.getByRole('button', { name: 'Redeem Voucher' }).click();
  const refusal = page.locator('.Toastify').getByRole('alert').filter({ hasNotText: 'Voucher redeemed successfully' }).last();
  await expect(refusal).toHaveText('You have already redeemed this voucher code.');
  await expect(page).toHaveURL(/\/subscription\/redeem-voucher$/);
  await expect(page.getByLabel('Voucher Code')).toHaveValue('BISAYA30');
});
