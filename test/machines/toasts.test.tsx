/**
 * Issue 6, item 5b: a flow that ends in one outcome shows one toast. A password reset used to leave
 * three stacked ('OTP sent', 'OTP verified', 'Password reset'); under StrictMode the first toast of a
 * page was handed to a container that React tears down at once, so a photo upload showed none or two.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../src/api/queries';
import AccountPage from '../../src/views/pages/AccountPage';
import RecoveryPage from '../../src/views/pages/RecoveryPage';
import { Toasts } from '../../src/views/Toasts';
import { profileFixture } from '../support/account';
import { demoUser, renderView, startSession } from '../support/render';

function json(data: unknown) {
  return new Response(JSON.stringify({ success: true, message: 'OK', data }), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

/** The toasts on screen, by their text. */
function toastTexts(): string[] {
  return [...document.querySelectorAll('.Toastify__toast')].map((toast) => toast.textContent ?? '');
}

describe('one toast per flow outcome', () => {
  it('one photo upload shows one toast, the first toast of the page under StrictMode (runs first: no container yet)', async () => {
    const session = startSession(demoUser);
    const fetchImpl: typeof fetch = async (url) =>
      json(String(url).endsWith('/account/photo') ? { photo: '/uploads/new.png' } : profileFixture);
    renderView(
      <StrictMode><QueryClientProvider client={createQueryClient()}><AccountPage /><Toasts /></QueryClientProvider></StrictMode>,
      { path: '/account', session, fetch: fetchImpl },
    );
    const user = userEvent.setup({ applyAccept: false });
    const card = within(await screen.findByRole('region', { name: 'Profile' }));
    await user.upload(await card.findByLabelText('Choose a photo'), new File([new Uint8Array([0x89, 0x50])], 'me.png', { type: 'image/png' }));
    await user.click(card.getByRole('button', { name: 'Upload Photo' }));
    await waitFor(() => expect(toastTexts()).toEqual(['Photo uploaded successfully!']));
    expect(await card.findByRole('img', { name: 'Your profile photo' })).toHaveAttribute('src', '/uploads/new.png');
  });

  it('a password reset leaves one toast: Password reset successfully!', async () => {
    const answers: Record<string, unknown> = {
      'forgot/send-otp': { verifyToken: 'vt' },
      'forgot/verify-otp': { resetToken: 'rt' },
      'forgot/reset-password': null,
    };
    const fetchImpl: typeof fetch = async (url) => json(answers[Object.keys(answers).find((path) => String(url).endsWith(path))!]);
    const user = userEvent.setup();
    renderView(<StrictMode><RecoveryPage /><Toasts /></StrictMode>, { path: '/forgot-password', fetch: fetchImpl });

    await user.type(screen.getByLabelText('Email'), 'premium@example.com');
    await user.click(screen.getByRole('button', { name: 'Send OTP' }));
    await waitFor(() => expect(toastTexts()).toEqual(['OTP sent successfully!']));
    await user.type(await screen.findByLabelText('OTP code'), 'K7P2QX');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(toastTexts()).toEqual(['OTP verified successfully!']));
    await user.type(await screen.findByLabelText('New Password'), 'Bagong-Password-1');
    await user.type(screen.getByLabelText('Confirm Password'), 'Bagong-Password-1');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    await waitFor(() => expect(toastTexts()).toEqual(['Password reset successfully!']));
  });
});
