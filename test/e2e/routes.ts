/**
 * Every page the browser tests visit, signed out and signed in: one list each, so a new route
 * (the /subscription pages) is one line here and gets the layout, axe and title checks.
 */
import type { Page } from '@playwright/test';
import { DEMO_PASSWORD } from './support';

export interface PageCase {
  /** The address to open. */
  path: string;
  /** The page's h1 once it has rendered (what we wait for). */
  heading: RegExp;
  /** Its document title. */
  title: string;
}

export const signedOutPages: PageCase[] = [
  { path: '/', heading: /Welcome to/, title: 'Sine Bisaya' },
  { path: '/legal/terms', heading: /Terms/, title: 'Terms and Conditions · Sine Bisaya' },
  { path: '/legal/privacy', heading: /Privacy/, title: 'Privacy Policy · Sine Bisaya' },
  { path: '/login', heading: /Log In|Welcome back/, title: 'Log In · Sine Bisaya' },
  { path: '/register', heading: /Create your account/, title: 'Sign Up · Sine Bisaya' },
  { path: '/register/verify?q=token&email=nena%40example.com', heading: /Verify your email/, title: 'Verify Email · Sine Bisaya' },
  { path: '/forgot-password', heading: /Forgot your password/, title: 'Forgot Password · Sine Bisaya' },
  { path: '/forgot-password/verify?q=token&email=nena%40example.com', heading: /OTP|code/, title: 'Enter OTP · Sine Bisaya' },
  { path: '/forgot-password/reset?q=token', heading: /Set a new password/, title: 'Reset Password · Sine Bisaya' },
  { path: '/payment?status=success', heading: /Payment Successful/, title: 'Payment Result · Sine Bisaya' },
  { path: '/no-such-page', heading: /./, title: 'Page Not Found · Sine Bisaya' },
];

export const signedInPages: PageCase[] = [
  { path: '/', heading: /Welcome to/, title: 'Sine Bisaya' },
  { path: '/account', heading: /^Account$/, title: 'Account · Sine Bisaya' },
  { path: '/subscription', heading: /^Subscription$/, title: 'Subscription · Sine Bisaya' },
  { path: '/subscription/redeem-voucher', heading: /^Redeem Voucher$/, title: 'Redeem Voucher · Sine Bisaya' },
  { path: '/subscription/change-plan', heading: /^Choose Your Plan$/, title: 'Change Plan · Sine Bisaya' },
  { path: '/subscription/change-payment-method', heading: /^Change Payment Method$/, title: 'Change Payment Method · Sine Bisaya' },
  { path: '/legal/terms', heading: /Terms/, title: 'Terms and Conditions · Sine Bisaya' },
  { path: '/payment?status=failed', heading: /Payment Failed/, title: 'Payment Result · Sine Bisaya' },
  { path: '/no-such-page', heading: /./, title: 'Page Not Found · Sine Bisaya' },
];

export const WIDTHS = [390, 768, 1280] as const;
export const THEMES = ['dark', 'light'] as const;

/** Signs in through the form, as a person would, and waits for the signed-in header. */
export async function signInAs(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.getByRole('button', { name: /My Account/ }).waitFor();
}

/** Opens a page and waits until its own heading has rendered (lazy routes, profile loaded). */
export async function openPage(page: Page, pageCase: PageCase) {
  await page.goto(pageCase.path);
  await page.getByRole('heading', { level: 1, name: pageCase.heading }).waitFor();
  if (pageCase.path === '/account') await page.getByRole('button', { name: 'Save Changes' }).waitFor();
  if (pageCase.path === '/subscription') await page.getByRole('tab', { name: 'All' }).waitFor();
}
