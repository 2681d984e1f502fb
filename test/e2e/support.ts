import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'Bisaya-Demo-2026';

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/** The newest code the dev mailbox holds for an address. */
export async function latestCode(request: APIRequestContext, to: string): Promise<string> {
  let code: string | null = null;
  await expect
    .poll(async () => {
      const mails = (await (await request.get(`/dev/mailbox.json?to=${encodeURIComponent(to)}`)).json()) as Array<{ otp: string | null }>;
      code = mails.find((m) => m.otp)?.otp ?? null;
      return code;
    })
    .not.toBeNull();
  return code!;
}

/** Fails the test on script errors and CSP violations; expected 4xx answers are not errors. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/** Every demo account back as seeded (POST /dev/reset): for tests that need the README's account states. */
export async function resetDemoData(request: APIRequestContext) {
  const response = await request.post('/dev/reset');
  expect(response.status()).toBe(200);
}
