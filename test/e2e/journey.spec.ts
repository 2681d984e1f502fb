import { expect, test } from '@playwright/test';
import { signIn, watchConsole } from './support';

let problems: string[] = [];
test.beforeEach(async ({ page }) => {
  problems = watchConsole(page);
});
test.afterEach(() => {
  // No script errors and no Content-Security-Policy violations on any page we visited.
  expect(problems).toEqual([]);
});

test('a newcomer signs in, sees My Account, comes back to a guarded page, and logs out', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Welcome to\s*Sine Bisaya/);
  await page.getByRole('link', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Log In', level: 1 })).toBeVisible();
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
  await expect(page.getByRole('region', { name: 'Profile' }).getByText('free@example.com')).toBeVisible();
  await expect(page.getByRole('main').getByLabel('First Name')).toHaveValue('Maria');

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
