import { expect, test, type Page } from '@playwright/test';

const DEMO_PASSWORD = 'Bisaya-Demo-2026';

async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

test.beforeEach(async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    // An expected 4xx answer is logged by the browser as a failed resource; anything else is a problem.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  (page as unknown as { problems: string[] }).problems = problems;
});

test.afterEach(async ({ page }) => {
  // No script errors and no Content-Security-Policy violations on any page we visited.
  expect((page as unknown as { problems: string[] }).problems).toEqual([]);
});

test('a newcomer signs in, sees My Account, comes back to a guarded page, and logs out', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Welcome to\s*Sine Bisaya/);
  await page.getByRole('link', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await signIn(page, 'free@example.com');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: /My Account/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /App Store/ })).toBeVisible();

  // The session survives a reload (restored from browser storage).
  await page.reload();
  await expect(page.getByRole('button', { name: /My Account/ })).toBeVisible();

  await page.getByRole('button', { name: /My Account/ }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page.getByRole('link', { name: 'Log In' })).toBeVisible();

  // A guarded route while signed out goes to /login?from=..., and back after signing in.
  await page.goto('/account');
  await expect(page).toHaveURL(/\/login\?from=%2Faccount$/);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await signIn(page, 'free@example.com');
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('main').getByText('free@example.com')).toBeVisible();
  await expect(page.getByRole('main').getByText('Maria Santos')).toBeVisible();

  // History was replaced: going back does not return to the login page.
  await page.goBack();
  await expect(page).not.toHaveURL(/\/login/);
});

test('the landing email form hands the address to /register', async ({ page }) => {
  await page.goto('/');
  await page.getByPlaceholder('Enter your Email Address').fill('bag-o@example.com');
  await page.getByRole('button', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/register\?email=bag-o%40example\.com$/);
});

test('guest-only pages send a signed-in user home', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, 'premium@example.com');
  await expect(page.getByRole('button', { name: /My Account/ })).toBeVisible();
  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);
});

test('a failed sign-in shows the server message', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, 'free@example.com', 'not-the-password');
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
  await expect(page.getByLabel('Email')).toHaveValue('free@example.com');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
});

test('the server answers unknown API routes in the envelope and serves the app shell elsewhere', async ({ request, page }) => {
  const api = await request.get('/api/v1/mobile/unknown');
  expect(api.status()).toBe(404);
  expect(await api.json()).toMatchObject({ success: false });
  await page.goto('/payment?status=success');
  await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();
  await page.goto('/payment');
  await expect(page).toHaveURL(/\/$/);
});
