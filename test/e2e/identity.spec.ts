import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, latestCode, signIn, watchConsole } from './support';

let problems: string[] = [];
test.beforeEach(async ({ page }) => {
  problems = watchConsole(page);
});
test.afterEach(() => {
  expect(problems).toEqual([]);
});

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

test('a newcomer signs up with the mailed code (a wrong one first) and lands signed in', async ({ page, request }) => {
  const email = `e2e-${Date.now()}@example.com`;
  await page.goto('/');
  await page.getByPlaceholder('Enter your Email Address').fill(email);
  await page.getByRole('button', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/register\?email=/);
  await expect(page.getByLabel('Email')).toHaveValue(email);

  await page.getByLabel('Password', { exact: true }).fill('Lami-kaayo-2026');
  await page.getByLabel('Confirm Password').fill('Lami-kaayo-2026');
  await page.getByLabel('First Name').fill('Nena');
  await page.getByLabel('Last Name').fill('Cabahug');
  await page.getByLabel('Birthdate').fill('1995-03-14');
  const submit = page.getByRole('button', { name: 'Sign Up' });
  await expect(submit).toBeDisabled();
  await page.getByRole('checkbox', { name: /Accept terms and conditions/ }).check();
  await submit.click();

  await expect(page).toHaveURL(/\/register\/verify\?q=.+&email=/);
  await expect(page.getByText('OTP sent successfully!')).toBeVisible();
  const code = await latestCode(request, email);
  await page.getByLabel('OTP code').fill(code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Invalid OTP code')).toBeVisible();

  await page.getByLabel('OTP code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(page.getByRole('button', { name: /My Account/ })).toBeVisible();
  await page.goto('/account');
  await expect(page.getByRole('region', { name: 'Profile' }).getByText(email)).toBeVisible();
});

test('a viewer recovers a forgotten password and signs in with the new one', async ({ page, request }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Email').fill('canceled@example.com');
  await page.getByRole('button', { name: 'Send OTP' }).click();
  await expect(page).toHaveURL(/\/forgot-password\/verify\?q=.+&email=canceled%40example\.com$/);
  await expect(page.getByText('OTP sent successfully!')).toBeVisible();

  // A reload on the code step resumes there.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Enter your OTP' })).toBeVisible();

  await page.getByLabel('OTP code').fill(await latestCode(request, 'canceled@example.com'));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/forgot-password\/reset\?q=.+$/);
  await expect(page.getByText('OTP verified successfully!')).toBeVisible();
  await page.getByLabel('New Password', { exact: true }).fill('Bagong-Password-1');
  await page.getByLabel('Confirm Password', { exact: true }).fill('Bagong-Password-1');
  await page.getByRole('button', { name: 'Reset Password' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Password reset successfully!')).toBeVisible();
  await signIn(page, 'canceled@example.com', DEMO_PASSWORD);
  await expect(page.getByText('Invalid email or password')).toBeVisible();
  await signIn(page, 'canceled@example.com', 'Bagong-Password-1');
  await expect(page.getByRole('button', { name: /My Account/ })).toBeVisible();
});

test('a login link signs the viewer in and lands on its redirect', async ({ page, request }) => {
  const minted = await request.post('/dev/login-link', { data: { email: 'premium@example.com', redirectUrl: '/account' } });
  const { url } = (await minted.json()).data as { url: string };
  await page.goto(new URL(url).pathname + new URL(url).search);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('region', { name: 'Profile' }).getByText('premium@example.com')).toBeVisible();

  // Used once: the same link now explains itself.
  await page.goto(new URL(url).pathname + new URL(url).search);
  await expect(page.getByText('This login link has expired or was already used.')).toBeVisible();
  await page.getByRole('link', { name: 'Go to Homepage' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('a viewer changes name, photo and password, then signs in with the new password', async ({ page }) => {
  await page.goto('/login?from=/account');
  await signIn(page, 'voucher@example.com');
  await expect(page).toHaveURL(/\/account$/);
  const profile = page.getByRole('region', { name: 'Profile' });

  await profile.getByLabel('First Name').fill('Pedrito');
  await profile.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile updated successfully!')).toBeVisible();
  await page.getByRole('button', { name: /My Account/ }).click();
  await expect(page.getByText('Pedrito Garcia')).toBeVisible(); // the header reflects it at once
  await page.keyboard.press('Escape');

  await profile.getByLabel('Choose a photo').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await expect(profile.getByRole('img', { name: 'Preview of your new photo' })).toBeVisible();
  await profile.getByRole('button', { name: 'Upload Photo' }).click();
  await expect(page.getByText('Photo uploaded successfully!')).toBeVisible();
  const photo = profile.getByRole('img', { name: 'Your profile photo' });
  await expect(photo).toHaveAttribute('src', /^\/uploads\/[0-9a-f-]+\.png$/);
  await expect(page.getByRole('button', { name: /My Account/ }).locator('img')).toHaveAttribute('src', /^\/uploads\//);

  const security = page.getByRole('region', { name: 'Security' });
  await security.getByLabel('Old Password').fill('wrong-one');
  await security.getByLabel('New Password', { exact: true }).fill('Bagong-Voucher-1');
  await security.getByLabel('Confirm New Password').fill('Bagong-Voucher-1');
  await security.getByRole('button', { name: 'Update Password' }).click();
  await expect(security.getByText('Old password is incorrect')).toBeVisible();
  await security.getByLabel('Old Password').fill(DEMO_PASSWORD);
  await security.getByLabel('New Password', { exact: true }).fill('Bagong-Voucher-1');
  await security.getByLabel('Confirm New Password').fill('Bagong-Voucher-1');
  await security.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByText('Password updated successfully!')).toBeVisible();

  await page.getByRole('button', { name: /My Account/ }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  // Signed out before the next address: a reload while the menu is still closing would restore the session.
  await expect(page.getByRole('link', { name: 'Log In' })).toBeVisible();
  await page.goto('/login');
  await signIn(page, 'voucher@example.com', 'Bagong-Voucher-1');
  await expect(page.getByRole('button', { name: /My Account/ })).toBeVisible();
});
