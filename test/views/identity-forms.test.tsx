/** Every validation message of product.md#form-rules for the identity forms, asserted by its text in the view. */
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../src/api/queries';
import { createHttp } from '../../src/api/http';
import AccountPage from '../../src/views/pages/AccountPage';
import RecoveryPage from '../../src/views/pages/RecoveryPage';
import RegisterPage from '../../src/views/pages/RegisterPage';
import { Header } from '../../src/views/layout/Header';
import { Toasts } from '../../src/views/Toasts';
import { profileFetch } from '../support/account';
import { demoUser, findAccountMenuButton, renderView, startSession } from '../support/render';

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('sign-up form', () => {
  it('prefills the email from the address', () => {
    renderView(<RegisterPage />, { path: '/register?email=nena%40example.com' });
    expect(screen.getByLabelText('Email')).toHaveValue('nena@example.com');
  });
  it('shows every required message', async () => {
    const user = userEvent.setup();
    renderView(<RegisterPage />, { path: '/register' });
    await user.click(screen.getByRole('checkbox', { name: /Accept terms and conditions/ }));
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    for (const message of ['Email is required', 'Password is required', 'Password Confirmation is required', 'First Name is required', 'Last Name is required', 'Birthdate is required']) {
      expect(screen.getByText(message)).toBeInTheDocument();
    }
  });
  it('refuses mismatched passwords, a future birthdate and one before 1900', async () => {
    const user = userEvent.setup();
    renderView(<RegisterPage />, { path: '/register' });
    await user.type(screen.getByLabelText('Password'), 'abc');
    await user.type(screen.getByLabelText('Confirm Password'), 'abd');
    fireEvent.change(screen.getByLabelText('Birthdate'), { target: { value: '2999-01-01' } });
    await user.click(screen.getByRole('checkbox', { name: /Accept terms and conditions/ }));
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.getByText('Birthdate cannot be in the future')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Birthdate'), { target: { value: '1899-12-31' } });
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByText('Birthdate cannot be before 1900-01-01')).toBeInTheDocument();
    expect(screen.getByLabelText('Birthdate')).toHaveAttribute('min', '1900-01-01');
  });
  it('keeps submit disabled until the terms box is ticked', async () => {
    const user = userEvent.setup();
    renderView(<RegisterPage />, { path: '/register' });
    const submit = screen.getByRole('button', { name: 'Sign Up' });
    expect(submit).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: /Accept terms and conditions/ }));
    expect(submit).toBeEnabled();
  });
});

describe('recovery forms', () => {
  it("says 'Email is required' and refuses an invalid email", async () => {
    const user = userEvent.setup();
    renderView(<RecoveryPage />, { path: '/forgot-password' });
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'juan@');
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
  });
  it("says 'OTP code is required' and refuses codes that are not 6 letters or digits", async () => {
    const user = userEvent.setup();
    renderView(<RecoveryPage />, { path: '/forgot-password/verify?q=t&email=a%40b.co' });
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('OTP code is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('OTP code'), 'AB-12!');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('OTP code must be 6 letters or digits')).toBeInTheDocument();
  });
  it('upper-cases the code as it is typed', async () => {
    const user = userEvent.setup();
    renderView(<RecoveryPage />, { path: '/forgot-password/verify?q=t&email=a%40b.co' });
    await user.type(screen.getByLabelText('OTP code'), 'k7p2qx');
    expect(screen.getByLabelText('OTP code')).toHaveValue('K7P2QX');
  });
  it('asks for both new passwords and that they match', async () => {
    const user = userEvent.setup();
    renderView(<RecoveryPage />, { path: '/forgot-password/reset?q=rt' });
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Password Confirmation is required')).toBeInTheDocument();
  });
  it('explains what to do when the reset address has no token', () => {
    renderView(<RecoveryPage />, { path: '/forgot-password/reset' });
    expect(screen.getByRole('alert')).toHaveTextContent('This link is incomplete or has expired. Request a new OTP to continue.');
  });
  it("shows the server message in an alert and 'OTP sent successfully!' as a toast", async () => {
    const user = userEvent.setup();
    let calls = 0;
    const http = createHttp({
      host: '', getToken: () => null, onUnauthorized: () => {},
      fetch: async () => (++calls === 1
        ? json(429, { success: false, message: 'Please wait 30 seconds before requesting a new code.' })
        : json(200, { success: true, message: 'OTP sent successfully', data: { verifyToken: 'vt' } })),
    });
    const run = renderView(<><RecoveryPage /><Toasts /></>, { path: '/forgot-password', http });
    await user.type(screen.getByLabelText('Email'), 'premium@example.com');
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    expect(await screen.findByText('Please wait 30 seconds before requesting a new code.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    expect(await screen.findByText('OTP sent successfully!')).toBeInTheDocument();
    expect(run.location.history.at(-1)).toBe('/forgot-password/verify?q=vt&email=premium%40example.com');
  });
});

describe('account forms', () => {
  function renderAccountWith(fetchImpl: typeof fetch) {
    const session = startSession(demoUser);
    const http = createHttp({ host: '', fetch: fetchImpl, getToken: () => 't', onUnauthorized: () => {} });
    return renderView(
      <QueryClientProvider client={createQueryClient()}>
        <Header />
        <AccountPage />
        <Toasts />
      </QueryClientProvider>,
      { path: '/account', session, http },
    );
  }

  it("says 'First Name is required' and 'Last Name is required'", async () => {
    const user = userEvent.setup();
    renderAccountWith(profileFetch);
    const card = within(await screen.findByRole('region', { name: 'Profile' }));
    await user.clear(await card.findByLabelText('First Name'));
    await user.clear(card.getByLabelText('Last Name'));
    await user.click(card.getByRole('button', { name: 'Save Changes' }));
    expect(card.getByText('First Name is required')).toBeInTheDocument();
    expect(card.getByText('Last Name is required')).toBeInTheDocument();
  });

  it('gives every password-change message of spec §5', async () => {
    const user = userEvent.setup();
    renderAccountWith(profileFetch);
    const card = within(screen.getByRole('region', { name: 'Security' }));
    await user.click(card.getByRole('button', { name: 'Update Password' }));
    expect(card.getByText('Old Password is required')).toBeInTheDocument();
    expect(card.getByText('New Password is required')).toBeInTheDocument();
    expect(card.getByText('New Password Confirmation is required')).toBeInTheDocument();
    await user.type(card.getByLabelText('New Password'), 'one');
    await user.type(card.getByLabelText('Confirm New Password'), 'two');
    await user.click(card.getByRole('button', { name: 'Update Password' }));
    expect(card.getByText('New Passwords do not match')).toBeInTheDocument();
  });

  it("saves a name with 'Profile updated successfully!' and the header shows it at once", async () => {
    const user = userEvent.setup();
    const saved = { firstName: 'Mariel', middleName: null, lastName: 'Santos', email: 'free@example.com', photo: null };
    const run = renderAccountWith(async (url, init) =>
      init?.method === 'PUT' ? json(200, { success: true, message: 'Profile updated successfully', data: saved }) : profileFetch(url, init));
    const card = within(await screen.findByRole('region', { name: 'Profile' }));
    await user.clear(await card.findByLabelText('First Name'));
    await user.type(card.getByLabelText('First Name'), 'Mariel');
    await user.click(card.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument();
    await waitFor(() => expect(run.session.getSnapshot().context.user?.firstName).toBe('Mariel'));
    expect(JSON.parse(localStorage.getItem('user')!).firstName).toBe('Mariel');
    await user.click(await findAccountMenuButton());
    expect(await screen.findByText('Mariel Santos')).toBeInTheDocument();
  });

  it('refuses a photo that is not an image before uploading it', async () => {
    const user = userEvent.setup({ applyAccept: false });
    renderAccountWith(profileFetch);
    const card = within(await screen.findByRole('region', { name: 'Profile' }));
    await user.upload(await card.findByLabelText('Choose a photo'), new File(['x'], 'x.gif', { type: 'image/gif' }));
    expect(card.getByRole('alert')).toHaveTextContent('Photo must be a JPEG, PNG or WebP image.');
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    await user.upload(card.getByLabelText('Choose a photo'), big);
    expect(card.getByRole('alert')).toHaveTextContent('Photo must be 5 MB or smaller.');
  });
});
