/**
 * Where keyboard focus goes on the account page's new cards (issue 36; the newcomer walk found it fell to the
 * page): after a device is signed out (its row and button are gone), to the card's heading; in the email
 * change, into the form when it opens, into the code field when the code is sent, and back to Change Email.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createQueryClient, queryKeys } from '../../src/api/queries';
import type { SignedInDevice } from '../../src/api/schemas';
import AccountPage from '../../src/views/pages/AccountPage';
import { profileFixture } from '../support/account';
import { demoUser, renderView, startSession } from '../support/render';

const here: SignedInDevice = {
  id: 'here', current: true, browser: 'Chrome 131', os: 'Windows 10', device: null, deviceType: 'desktop', place: null,
  signedInAt: '2026-11-20T02:00:00.000Z', lastUsedAt: '2026-11-27T02:00:00.000Z',
};
const phone: SignedInDevice = { ...here, id: 'phone', current: false, browser: 'Mobile Safari 17', os: 'iOS 17.4', device: 'Apple iPhone', deviceType: 'mobile' };
const ok = (data: unknown, message = 'OK') =>
  new Response(JSON.stringify({ success: true, message, data }), { status: 200, headers: { 'Content-Type': 'application/json' } });

function render() {
  let signedOut = false;
  const fetchImpl: typeof fetch = async (input, init) => {
    const path = String(input).replace(/^https?:\/\/[^/]+/, '');
    const method = init?.method ?? 'GET';
    if (path.endsWith('/account/profile')) return ok(profileFixture);
    if (path.endsWith('/account/sessions') && method === 'GET') return ok({ sessions: signedOut ? [here] : [here, phone] });
    if (path.endsWith('/account/sessions/phone') && method === 'DELETE') {
      signedOut = true;
      return ok(null, 'Signed out of that device');
    }
    if (path.endsWith('/account/email/change')) return ok({ verificationToken: 'change-token' });
    if (path.endsWith('/account/export')) return ok({ state: 'NONE', requestedAt: null, readyAt: null, expiresAt: null });
    return new Response(JSON.stringify({ success: false, message: `Not in this test: ${method} ${path}`, data: null }), { status: 500 });
  };
  const queryClient = createQueryClient();
  queryClient.setQueryData(queryKeys.profile, profileFixture);
  renderView(<QueryClientProvider client={queryClient}><AccountPage /></QueryClientProvider>, { path: '/account', session: startSession(demoUser), fetch: fetchImpl });
  return userEvent.setup({ applyAccept: false });
}
const card = (name: string) => within(screen.getByRole('region', { name }));

describe('focus on the account page', () => {
  it('goes to the devices card heading once the signed-out device (and its button) is gone', async () => {
    const user = render();
    await user.click(await card('Signed-in Devices').findByRole('button', { name: 'Sign out Apple iPhone, Mobile Safari 17 on iOS 17.4' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(card('Signed-in Devices').queryByRole('button', { name: /Sign out Apple iPhone/ })).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Signed-in Devices' })).toHaveFocus());
  });

  it('follows the email change: the password field, then the code field, then Change Email after Cancel', async () => {
    const user = render();
    await user.click(card('Email Address').getByRole('button', { name: 'Change Email' }));
    await waitFor(() => expect(card('Email Address').getByLabelText('Current Password')).toHaveFocus());
    await user.type(card('Email Address').getByLabelText('Current Password'), 'Secret#2026');
    await user.type(card('Email Address').getByLabelText('New Email Address'), 'new@example.com');
    await user.click(card('Email Address').getByRole('button', { name: 'Send Code' }));
    const code = await card('Email Address').findByRole('textbox', { name: /OTP|code/i });
    await waitFor(() => expect(code).toHaveFocus());
    await user.click(card('Email Address').getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(card('Email Address').getByRole('button', { name: 'Change Email' })).toHaveFocus());
  });
});
