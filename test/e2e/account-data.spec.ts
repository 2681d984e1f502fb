/**
 * Issue 36 in Chromium: download my data (the JSON file read back: the viewer's own data, nothing secret),
 * delete my account (signed out, cannot sign in, a mail confirms), sign up again with the same email;
 * the account page and the privacy page axe-clean.
 */
import AxeBuilder from '@axe-core/playwright';
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, latestCode, resetDemoData, signIn, watchConsole } from './support';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
let problems: string[] = [];
test.beforeEach(async ({ page, request }) => {
  await resetDemoData(request);
  problems = watchConsole(page);
});
test.afterEach(() => {
  expect(problems).toEqual([]);
});

test('download my data: prepared within a minute, the JSON file holds my data and no secret', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, 'premium@example.com');
  await expect(page.getByRole('button', { name: /My Account/ })).toBeVisible();
  await page.goto('/account');
  const card = page.getByRole('region', { name: 'Your data' });
  await card.getByRole('button', { name: 'Prepare my data' }).click();
  await expect(card.getByText(/^Your copy is ready until .+\. Each download link works once\.$/)).toBeVisible({ timeout: 60_000 });
  expect((await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()).violations.map((v) => v.id)).toEqual([]);

  const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download (JSON)' }).click()]);
  expect(download.suggestedFilename()).toBe('sine-bisaya-data.json');
  const text = await readFile((await download.path())!, 'utf8');
  const data = JSON.parse(text);
  expect(data.profile).toMatchObject({ email: 'premium@example.com', firstName: 'Juan', lastName: 'Dela Cruz' });
  expect(data.invoices.length).toBeGreaterThan(0);
  expect(data.savedCards[0]).toMatchObject({ last4: '1381' });
  for (const secret of ['scrypt$', 'seed-card-premium', '412345', 'free@example.com']) expect(text).not.toContain(secret);
  await expect(card.getByText('Your data is saved to your downloads.')).toBeVisible();

  const [page2] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download (readable page)' }).click()]);
  expect(page2.suggestedFilename()).toBe('sine-bisaya-data.html');
  expect(await readFile((await page2.path())!, 'utf8')).toContain('Dela Cruz');
});

test('delete my account: signed out, cannot sign in, a mail confirms; the email signs up again', async ({ page, request }) => {
  const EMAIL = 'canceled@example.com';
  await page.goto('/login');
  await signIn(page, EMAIL);
  await expect(page.getByRole('button', { name: /My Account/ })).toBeVisible();
  await page.goto('/account');
  const card = page.getByRole('region', { name: 'Delete my account' });
  await expect(card.getByText(/without your name, email or photo/)).toBeVisible();
  await card.getByRole('button', { name: 'Continue to delete' }).click();
  await card.getByLabel('Current Password').fill('Wrong-Password-1');
  await card.getByLabel(`To confirm, type your email address: ${EMAIL}`).fill(EMAIL);
  await card.getByRole('button', { name: 'Delete my account for good' }).click();
  await expect(card.getByRole('alert')).toHaveText('Your password is incorrect');
  expect((await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()).violations.map((v) => v.id)).toEqual([]);

  await card.getByLabel('Current Password').fill(DEMO_PASSWORD);
  await card.getByRole('button', { name: 'Delete my account for good' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Your account has been deleted')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Log In' }).first()).toBeVisible();
  const mails = (await (await request.get(`/dev/mailbox.json?to=${encodeURIComponent(EMAIL)}`)).json()) as Array<{ subject: string }>;
  expect(mails.map((m) => m.subject)).toContain('Sine Bisaya: your account has been deleted');

  await page.goto('/login');
  await signIn(page, EMAIL);
  await expect(page.getByText('Invalid email or password')).toBeVisible();

  // The same email signs up again, as a new account.
  await page.goto('/');
  await page.getByPlaceholder('Enter your Email Address').fill(EMAIL);
  await page.getByRole('button', { name: 'Get Started' }).click();
  await page.getByLabel('Password', { exact: true }).fill('Lami-kaayo-2026');
  await page.getByLabel('Confirm Password').fill('Lami-kaayo-2026');
  await page.getByLabel('First Name').fill('Nena');
  await page.getByLabel('Last Name').fill('Cabahug');
  await page.getByLabel('Birthdate').fill('1995-03-14');
  await page.getByRole('checkbox', { name: /Accept terms and conditions/ }).check();
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/register\/verify\?q=.+&email=/);
  await page.getByLabel('OTP code').fill(await latestCode(request, EMAIL));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/subscription$/);
  await page.goto('/account');
  await expect(page.getByRole('region', { name: 'Profile' }).getByText(EMAIL)).toBeVisible();
});

test('the privacy page names the rights, the account page and the (sample) data protection officer, axe-clean', async ({ page }) => {
  await page.goto('/legal/privacy');
  await expect(page.getByRole('heading', { level: 2, name: 'Your rights' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'dpo@sinebisaya.example' })).toBeVisible();
  await expect(page.getByText('(sample address: not a real contact)')).toBeVisible();
  expect((await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()).violations.map((v) => v.id)).toEqual([]);
});
