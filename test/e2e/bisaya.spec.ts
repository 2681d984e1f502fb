/**
 * The product in Bisaya (issue 20), in Chromium: a browser that prefers `ceb` gets the prerendered Bisaya
 * page (no English first); Bisaya chosen on the landing page is kept across a reload; a newcomer signs up
 * and subscribes in Bisaya, with the server's messages and the mailbox's code email in Bisaya too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { latestCode, watchConsole } from './support';

const catalog = (locale: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../messages', `${locale}.json`), 'utf8')) as Record<string, string>;
const en = catalog('en');
const ceb = catalog('ceb');
const PRODUCT = 'Sine Bisaya';
const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);

let problems: string[] = [];
test.beforeEach(async ({ page }) => {
  problems = watchConsole(page);
});
test.afterEach(() => expect(problems).toEqual([]));

test.describe('a browser that prefers Bisaya', () => {
  test.use({ locale: 'ceb-PH' });

  test('gets the landing page prerendered in Bisaya, with no English painted first', async ({ page, request }) => {
    const html = await (await request.get('/', { headers: { 'Accept-Language': 'ceb-PH,ceb;q=0.9' } })).text();
    expect(html).toContain('<html lang="ceb"');
    expect(html).toContain(fill(ceb.welcome_to!, { PRODUCT_NAME: '' }).trim());
    expect(html).not.toContain(fill(en.welcome_to!, { PRODUCT_NAME: '' }).trim());

    // What the browser paints before any script runs is the Bisaya page.
    await page.route('**/*.js', (route) => route.abort());
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ceb');
    await expect(page.getByRole('heading', { level: 1 })).toContainText(fill(ceb.welcome_to!, { PRODUCT_NAME: '' }).trim());
    problems = [];
  });
});

test('Bisaya chosen on the landing page stays through a reload, then a newcomer signs up in Bisaya', async ({ page, request }) => {
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('html')).toHaveAttribute('data-ready', ''); // the app has taken the prerendered page over
  await page.getByRole('radio', { name: 'Bisaya' }).check();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ceb');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(fill(ceb.welcome_to!, { PRODUCT_NAME: '' }).trim());
  await expect(page.getByRole('radio', { name: 'Bisaya' })).toBeChecked();
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ceb');
  await expect(page.getByRole('radio', { name: 'Bisaya' })).toBeChecked();

  // Sign up, in Bisaya.
  const email = `bisaya-${Date.now()}@example.com`;
  await page.goto(`/register?email=${encodeURIComponent(email)}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(ceb.create_your_account!);
  await page.getByLabel(ceb.password!, { exact: true }).fill('Lami-kaayo-2026');
  await page.getByLabel(ceb.confirm_password!).fill('Lami-kaayo-2026');
  await page.getByLabel(ceb.first_name!).fill('Nena');
  await page.getByLabel(ceb.last_name!).fill('Cabahug');
  await page.getByLabel(ceb.birthdate!).fill('1995-03-14');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: ceb.sign_up! }).click();
  await expect(page).toHaveURL(/\/register\/verify\?q=.+&email=/);
  await expect(page.getByText(ceb.otp_sent_successfully!)).toBeVisible();

  // The code email is in Bisaya.
  const code = await latestCode(request, email);
  const [mail] = (await (await request.get(`/dev/mailbox.json?to=${encodeURIComponent(email)}`)).json()) as Array<{ subject: string; text: string }>;
  expect(mail!.subject).toBe(fill(ceb.your_sign_up_code!, { PRODUCT_NAME: PRODUCT }));
  expect(mail!.text).toBe(fill(ceb.your_code_to_finish_signing_up_is_it!, { PRODUCT_NAME: PRODUCT, code }));

  // The server's refusal is in Bisaya.
  const wrong = code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
  await page.getByLabel(ceb.otp_code!).fill(wrong);
  await page.getByRole('button', { name: ceb.verify! }).click();
  await expect(page.getByText(ceb.invalid_otp_code!).first()).toBeVisible();

  await page.getByLabel(ceb.otp_code!).fill(code);
  await page.getByRole('button', { name: ceb.verify! }).click();
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(ceb.subscription!);
  await expect(page.getByRole('heading', { name: ceb.current_subscription! })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ceb');
});
