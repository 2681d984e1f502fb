import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '../../src/views/App';
import { darkTheme, lightTheme } from '../../src/styles/theme.css';
import { demoUser, findAccountMenuButton, renderView, startSession } from '../support/render';

async function signedOutSession() {
  const session = startSession();
  await waitFor(() => expect(session.getSnapshot().value).toBe('signedOut'));
  return session;
}

describe('landing page', () => {
  it("shows 'Welcome to' the product with a tagline and hands the email to /register", async () => {
    const user = userEvent.setup();
    const run = renderView(<AppRoutes />, { session: await signedOutSession() });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Welcome to Sine Bisaya');
    const email = screen.getByPlaceholderText('Enter your Email Address');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toBeRequired();
    await user.type(email, 'juan+test@example.com');
    await user.click(screen.getByRole('button', { name: 'Get Started' }));
    expect(run.location.history.at(-1)).toBe('/register?email=juan%2Btest%40example.com');
  });

  it('has seven questions that can be open at the same time', async () => {
    const user = userEvent.setup();
    renderView(<AppRoutes />, { session: await signedOutSession() });
    expect(screen.getByRole('heading', { name: 'Frequently Asked Questions' })).toBeInTheDocument();
    const triggers = screen.getAllByRole('button', { expanded: false }).filter((b) => b.closest('#faq'));
    expect(triggers).toHaveLength(7);
    await user.click(triggers[0]!);
    await user.click(triggers[1]!);
    expect(triggers[0]).toHaveAttribute('aria-expanded', 'true');
    expect(triggers[1]).toHaveAttribute('aria-expanded', 'true');
  });

  it('shows the app badges instead of the form when signed in', async () => {
    renderView(<AppRoutes />, { session: startSession(demoUser) });
    expect(await screen.findByRole('link', { name: /App Store/ })).toBeInTheDocument();
    expect(screen.queryByPlaceholderText('Enter your Email Address')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Google Play/ })).toBeInTheDocument();
  });
});

describe('guards (spec §2)', () => {
  it('sends a guest from a signed-in page to /login?from={path}', async () => {
    const run = renderView(<AppRoutes />, { path: '/account', session: await signedOutSession() });
    await waitFor(() => expect(run.location.history.at(-1)).toBe('/login?from=%2Faccount'));
    expect(await screen.findByRole('heading', { name: 'Log In' })).toBeInTheDocument();
  });
  it('sends a signed-in user away from guest-only pages to /', async () => {
    const run = renderView(<AppRoutes />, { path: '/login', session: startSession(demoUser) });
    await waitFor(() => expect(run.location.history.at(-1)).toBe('/'));
  });
  it('shows the page to a signed-in user', async () => {
    renderView(<AppRoutes />, { path: '/account', session: startSession(demoUser) });
    expect(await screen.findByRole('heading', { name: 'Account' })).toBeInTheDocument();
  });
});

describe('header and footer', () => {
  it("offers the 'My Account' menu with Account, Subscription and Log Out", async () => {
    const user = userEvent.setup();
    const run = renderView(<AppRoutes />, { session: startSession(demoUser) });
    await user.click(await findAccountMenuButton());
    expect(await screen.findByRole('menuitem', { name: 'Account' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Subscription' })).toBeInTheDocument();
    await user.click(screen.getByRole('menuitem', { name: 'Account' }));
    await waitFor(() => expect(run.location.history.at(-1)).toBe('/account'));
  });
  it('has Support, Account, Legal and social links', async () => {
    renderView(<AppRoutes />, { session: await signedOutSession() });
    for (const name of ['Support', 'Account', 'Legal', 'Follow us']) {
      expect(screen.getByRole('heading', { name })).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: 'Terms and Conditions' })).toHaveAttribute('href', '/legal/terms');
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/legal/privacy');
    expect(screen.getByRole('link', { name: 'Facebook' })).toBeInTheDocument();
  });
  it('is dark by default and remembers the chosen theme', async () => {
    const user = userEvent.setup();
    renderView(<AppRoutes />, { session: await signedOutSession() });
    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();
    await waitFor(() => expect(document.documentElement).toHaveClass(darkTheme));
    await user.click(screen.getByRole('radio', { name: 'Light' }));
    expect(localStorage.getItem('theme')).toBe('light');
    await waitFor(() => expect(document.documentElement).toHaveClass(lightTheme));
    expect(document.documentElement).not.toHaveClass(darkTheme);
  });
});

describe('static pages', () => {
  it('states the legal facts of the spec', async () => {
    renderView(<AppRoutes />, { path: '/legal/terms', session: await signedOutSession() });
    expect(await screen.findByText(/at least 18 years old/)).toBeInTheDocument();
    expect(screen.getByText('Subscription fees are non-refundable.')).toBeInTheDocument();
    expect(screen.getByText(/Cancellation takes effect at the end of the current billing period/)).toBeInTheDocument();
    expect(screen.getByText(/one-time charge per subscription period with no automatic renewal/)).toBeInTheDocument();
  });
  it('says the privacy policy does not target children under 13', async () => {
    renderView(<AppRoutes />, { path: '/legal/privacy', session: await signedOutSession() });
    expect(await screen.findByText(/not directed at children under 13/)).toBeInTheDocument();
  });
  it('shows a not-found page for an unknown address', async () => {
    renderView(<AppRoutes />, { path: '/nowhere', session: await signedOutSession() });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});

describe('payment result page (spec §2 /payment)', () => {
  it.each([
    ['success', 'Payment Successful'],
    ['failed', 'Payment Failed'],
    ['canceled', 'Payment Cancelled'],
    ['weird', 'Error'],
  ])('status=%s shows %s', async (status, title) => {
    renderView(<AppRoutes />, { path: `/payment?status=${status}`, session: await signedOutSession() });
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    // Issue 6: the result page has the normal header, so a viewer back from the gateway knows where they are.
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getAllByRole('main')).toHaveLength(1);
  });
  it('redirects a missing status to /', async () => {
    const run = renderView(<AppRoutes />, { path: '/payment', session: await signedOutSession() });
    await waitFor(() => expect(run.location.history.at(-1)).toBe('/'));
  });
});
