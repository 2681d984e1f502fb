/**
 * Issue 36 in Chromium: the signed-in devices list across two browsers (one signs the other out, whose next
 * step lands on sign-in) and a change of email with the mailed code, undone from the old mailbox. axe checks
 * every new screen in both themes.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signInAs } from './routes';
import { DEMO_PASSWORD, latestCode, resetDemoData, watchConsole } from './support';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

test.describe.configure({ timeout: 90_000 });

const THEMES = ['Light', 'Dark'] as const;

/** The footer's theme choice (no dialog open). */
async function setTheme(page: Page, theme: (typeof THEMES)[number]) {
  await page.getByRole('radio', { name: theme, exact: true }).check();
}

/** axe's WCAG 2.2 A/AA rules on the page as it is now. */
async function axeClean(page: Page, label: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  expect.soft(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), label).toEqual([]);
}

/** The same in both themes (nothing modal open: the footer's choice is used). */
async function axeCleanInBothThemes(page: Page, label: string) {
  for (const theme of THEMES) {
    await setTheme(page, theme);
    await axeClean(page, `${label}, ${theme}`);
  }
}

let problems: string[] = [];
test.beforeEach(async ({ page, request }) => {
  problems = watchConsole(page);
  await resetDemoData(request);
});
test.afterEach(() => {
  expect(problems).toEqual([]);
});

test('a viewer signs out their phone from the laptop; the phone’s next step lands on sign-in', async ({ page, browser }) => {
  const phoneContext = await browser.newContext({ userAgent: IPHONE, viewport: { width: 390, height: 844 } });
  const phone = await phoneContext.newPage();
  await signInAs(phone, 'free@example.com');

  await signInAs(page, 'free@example.com');
  await page.goto('/account');
  const card = page.getByRole('region', { name: 'Signed-in Devices' });
  const rows = card.getByRole('listitem');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('This device');
  await expect(rows.nth(1)).toContainText('Apple iPhone');
  await expect(rows.nth(1)).toContainText('Mobile Safari 17 on iOS 17.4');
  await axeCleanInBothThemes(page, '/account with two devices');

  const signOut = card.getByRole('button', { name: /^Sign out Apple iPhone/ });
  const dialog = page.getByRole('alertdialog', { name: 'Sign out Apple iPhone?' });
  for (const theme of THEMES) {
    await setTheme(page, theme);
    await signOut.click();
    await expect(dialog).toBeVisible();
    await axeClean(page, `the sign-out dialog, ${theme}`);
    // Kept signed in: nothing changes, focus returns to the button.
    await dialog.getByRole('button', { name: 'Keep Signed In' }).click();
    await expect(dialog).toBeHidden();
    await expect(signOut).toBeFocused();
    await expect(rows).toHaveCount(2);
  }

  await signOut.click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Sign Out', exact: true }).click();
  await expect(page.getByText('Signed out of that device')).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(card.getByText('No other device is signed in.')).toBeVisible();

  // The phone's next step: its call is a 401 and the app goes to sign-in.
  await phone.goto('/account');
  await expect(phone).toHaveURL(/\/login/);
  await expect(phone.getByRole('button', { name: 'Log In' })).toBeVisible();
  // The laptop stays signed in.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Signed-in Devices' }).getByRole('listitem')).toHaveCount(1);
  await phoneContext.close();
});

test('a viewer changes their email with the mailed code; the old mailbox undoes it and every device signs out', async ({ page, request }) => {
  const newEmail = `e2e-moved-${Date.now()}@example.com`;
  await signInAs(page, 'voucher@example.com');
  await page.goto('/account');
  const card = page.getByRole('region', { name: 'Email Address' });
  await expect(card.getByText('voucher@example.com')).toBeVisible();
  await card.getByRole('button', { name: 'Change Email' }).click();
  await card.getByLabel('Current Password').fill(DEMO_PASSWORD);
  await card.getByLabel('New Email Address').fill(newEmail);
  await card.getByRole('button', { name: 'Send Code' }).click();
  await expect(card.getByText(newEmail)).toBeVisible();
  await axeCleanInBothThemes(page, 'the email code step');

  const code = await latestCode(request, newEmail);
  await card.getByLabel('OTP code').fill(code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA');
  await card.getByRole('button', { name: 'Verify' }).click();
  await expect(card.getByRole('alert')).toHaveText('Invalid OTP code');
  await card.getByLabel('OTP code').fill(code);
  await card.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Email address changed successfully')).toBeVisible();
  await expect(card.getByText(newEmail)).toBeVisible();

  // The old mailbox holds the notice with its one-click undo.
  const mails = (await (await request.get('/dev/mailbox.json?to=voucher%40example.com')).json()) as Array<{ subject: string; text: string }>;
  const notice = mails.find((m) => m.subject.includes('email address was changed'))!;
  expect(notice.text).toContain(newEmail);
  const link = new URL(/https?:\/\/\S+/.exec(notice.text)![0]);
  expect(link.pathname).toBe('/account/email/undo');

  // Opening the link changes nothing (a mail scanner opens links): the person presses the button.
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Change your email address back?' })).toBeVisible();
  await axeCleanInBothThemes(page, 'the undo question');
  await page.getByRole('button', { name: 'Change It Back' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your email address is back' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Reset Password' })).toBeVisible();
  await axeCleanInBothThemes(page, 'the undo page');
  // This browser is signed out too; the old address signs in again, the new one no longer does.
  await page.goto('/account');
  await expect(page).toHaveURL(/\/login/);
  await signInAs(page, 'voucher@example.com');
  await page.goto('/account');
  await expect(page.getByRole('region', { name: 'Email Address' }).getByText('voucher@example.com')).toBeVisible();

  // The link works once.
  await page.goto(`${link.pathname}${link.search}`);
  await page.getByRole('button', { name: 'Change It Back' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'We could not undo the change' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('This link has expired or was already used.');
});
