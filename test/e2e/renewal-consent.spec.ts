/**
 * Auto-renewal told and agreed (issue 34; product.md#renewal-consent), in Chromium against the real server
 * and the local Maya sandbox: a new viewer buys Monthly by card (the sandbox's Visa test card). Pressed
 * without the tick, nothing is paid: the box says why and has the focus, and the server itself refuses a
 * card purchase sent without the consent with the same message. Ticked, the payment goes through. The
 * same in Bisaya (locale ceb-PH), every label from the catalogs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO_PASSWORD, latestCode, signIn, watchConsole } from './support';

const catalog = (locale: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../messages', `${locale}.json`), 'utf8')) as Record<string, string>;
const fill = (text: string, values: Record<string, string> = {}) => text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The sandbox's Visa test card and the passkey its bank page asks for. */
const VISA = { number: '4123450131001381', passkey: 'mctest1' };

let problems: string[] = [];
test.beforeEach(async ({ page }) => {
  problems = watchConsole(page);
});
test.afterEach(() => {
  // The server's 400 to the consent-less request below is made by the test (request), not the page.
  expect(problems).toEqual([]);
});

let counter = 0;
/** A new FREE account, signed up and verified through the API, then signed in through the form. */
async function freshViewer(page: Page, request: APIRequestContext, language: 'en' | 'ceb'): Promise<string> {
  const email = `consent-${language}-${Date.now().toString(36)}-${counter++}@example.com`;
  const signUp = await request.post('/api/v1/mobile/auth/sign-up', {
    data: { email, password: DEMO_PASSWORD, passwordConfirm: DEMO_PASSWORD, firstName: 'Juan', lastName: 'Dela Cruz', birthdate: '1990-01-01' },
  });
  expect(signUp.ok()).toBe(true);
  const { verificationToken } = ((await signUp.json()) as { data: { verificationToken: string } }).data;
  const verified = await request.post('/api/v1/mobile/auth/sign-up/verify-otp', { data: { verificationToken, otpCode: await latestCode(request, email) } });
  expect(verified.ok()).toBe(true);
  await page.goto('/login?from=%2Fsubscription');
  await signIn(page, email);
  await expect(page).toHaveURL(/\/subscription$/);
  return email;
}

for (const language of ['en', 'ceb'] as const) {
  test.describe(language === 'en' ? 'in English' : 'in Bisaya', () => {
    test.use({ locale: language === 'en' ? 'en-US' : 'ceb-PH' });
    const t = (key: string, values?: Record<string, string>) => fill(catalog(language)[key]!, values);

    test('buys Monthly by card only once "I agree to automatic renewal" is ticked; without it the purchase is refused with a clear message', async ({ page, request }) => {
      await freshViewer(page, request, language);
      await page.getByRole('link', { name: t('subscribe_to_premium_plan') }).click();
      await page.getByRole('button', { name: t('choose', { planName: language === 'en' ? 'Monthly' : t('monthly_2') }) }).click();
      await page.getByRole('radio', { name: t('credit_debit') }).check();
      await page.getByLabel(t('card_number')).pressSequentially(VISA.number);
      await page.getByLabel(t('expiry_mm_yy')).pressSequentially('1230');
      await page.getByLabel(t('cvc')).pressSequentially('123');
      await page.getByRole('button', { name: t('continue_label') }).click();
      // The bank's page of the sandbox (English, as Maya's own pages).
      await expect(page.getByRole('heading', { name: 'Verify your card' })).toBeVisible();
      await page.getByLabel('3-D Secure password').fill(VISA.passkey);
      await page.getByRole('button', { name: 'Verify', exact: true }).click();
      await expect(page.getByRole('heading', { name: t('confirm') })).toBeVisible();

      // What will happen, in plain words: the date a month from now (Manila) and the price.
      const sentence = new RegExp(`^${escape(t('renews_automatically_on_date_at')).replace(escape('{date}'), '.+').replace(escape('{price}'), '₱99')}$`);
      await expect(page.getByText(sentence)).toBeVisible();
      if (language === 'en') await expect(page.getByText(/^Renews automatically on \d\d\/\d\d\/\d{4} at ₱99 until you cancel\. Cancel anytime on Subscription\.$/)).toBeVisible();
      const box = page.getByRole('checkbox', { name: t('i_agree_to_automatic_renewal') });
      await expect(box).not.toBeChecked();

      // Pay without the tick: enabled, and pressing it says why at the box, which takes the focus; nothing is paid.
      const pay = page.getByRole('button', { name: t('pay', { price: '₱99' }) });
      await expect(pay).toBeEnabled();
      await pay.click();
      await expect(box).toBeFocused();
      await expect(box).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByText(t('please_agree_to_automatic_renewal'))).toBeVisible();
      await expect(page).toHaveURL(/step=3/);

      // The server refuses a card purchase sent without the consent, with the same words (in the viewer's language).
      const token = await page.evaluate(() => localStorage.getItem('token'));
      expect(token).toBeTruthy();
      {
        const card = await request.get('/api/v1/mobile/payment/vault/cards/default', { headers: { Authorization: `Bearer ${token}` } });
        const cardToken = ((await card.json()) as { data: { cardTokenId: string } }).data.cardTokenId;
        const refused = await request.post('/api/v1/mobile/payment/vault/create', {
          headers: { Authorization: `Bearer ${token}`, 'Accept-Language': language === 'en' ? 'en' : 'ceb-PH' }, data: { planId: 1, cardToken },
        });
        expect(refused.status()).toBe(400);
        expect(((await refused.json()) as { message: string }).message).toBe(t('please_agree_to_automatic_renewal'));
      }

      // Ticked: the error goes, and the payment goes through.
      await box.check();
      await expect(box).not.toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByText(t('please_agree_to_automatic_renewal'))).toHaveCount(0);
      await pay.click();
      // The Visa test card asks its bank to confirm every payment (3-D Secure on the sandbox's page).
      await expect(page.getByRole('heading', { name: '3-D Secure verification' })).toBeVisible();
      await page.getByLabel('3-D Secure password').fill(VISA.passkey);
      await page.getByRole('button', { name: 'Authenticate' }).click();
      await expect(page).toHaveURL(/\/payment\?status=success$/);
      await expect(page.getByRole('heading', { name: t('payment_successful') })).toBeVisible();

      // Its invoice (issue 34), from the result page, in this language: VAT apart, and its PDF downloaded.
      await page.getByRole('link', { name: t('view_invoice') }).click();
      await expect(page).toHaveURL(/\/subscription\/invoices\/[0-9a-f-]{36}$/);
      const invoice = page.getByRole('article', { name: t('invoice') });
      await expect(invoice.locator('dt', { hasText: t('invoice_pdf_vatable_sales') }).locator('+ dd')).toHaveText('₱88.39');
      await expect(invoice.locator('dt', { hasText: t('invoice_pdf_vat') }).locator('+ dd')).toHaveText('₱10.61');
      await expect(invoice.locator('dt', { hasText: new RegExp(`^${escape(t('invoice_pdf_total'))}$`) }).locator('+ dd')).toHaveText('₱99.00');
      const number = (await invoice.locator('dt', { hasText: t('invoice_pdf_invoice_no') }).locator('+ dd').textContent())!;
      const download = page.waitForEvent('download');
      await invoice.getByRole('button', { name: t('download_pdf') }).click();
      const pdf = await download;
      expect(pdf.suggestedFilename()).toBe(`${number}.pdf`);
      expect(readFileSync((await pdf.path())!).subarray(0, 5).toString()).toBe('%PDF-');
    });
  });
}
