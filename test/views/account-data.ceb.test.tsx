/** The account page's new cards in Bisaya (issue 36): every word from the Bisaya catalog, no English left. */
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient, queryKeys } from '../../src/api/queries';
import { overwriteGetLocale } from '../../src/i18n';
import AccountPage from '../../src/views/pages/AccountPage';
import { profileFixture } from '../support/account';
import { demoUser, renderView, startSession } from '../support/render';

const json = (data: unknown) => new Response(JSON.stringify({ success: true, message: 'OK', data }), { status: 200, headers: { 'Content-Type': 'application/json' } });
const api: typeof fetch = async (url) => {
  const path = String(url);
  if (path.endsWith('/account/profile')) return json(profileFixture);
  if (path.endsWith('/account/export')) return json({ state: 'NONE', requestedAt: null, readyAt: null, expiresAt: null });
  return new Response(JSON.stringify({ success: false, message: 'Not in this test' }), { status: 500 });
};

describe('the account page\'s data and deletion cards in Bisaya', () => {
  beforeEach(() => overwriteGetLocale(() => 'ceb'));
  afterEach(() => overwriteGetLocale(() => 'en'));

  it('say what happens and ask for the password and the email in Bisaya', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(queryKeys.profile, profileFixture);
    renderView(<QueryClientProvider client={queryClient}><AccountPage /></QueryClientProvider>, { path: '/account', session: startSession(demoUser), fetch: api });
    const data = within(await screen.findByRole('region', { name: 'Imong data' }));
    expect(await data.findByRole('button', { name: 'Andama ang akong data' })).toBeEnabled();
    expect(data.getByText(/^Kuhaa ang kopya sa tanan nga among gitipigan bahin nimo/)).toBeInTheDocument();
    const card = within(screen.getByRole('region', { name: 'I-delete ang akong account' }));
    expect(card.getByText(/^Gimando sa balaod nga among tipigan ang imong mga invoice/)).toBeInTheDocument();
    await userEvent.setup().click(card.getByRole('button', { name: 'Padayon sa pag-delete' }));
    expect(card.getByLabelText('Kasamtangang Password')).toHaveFocus();
    expect(card.getByLabelText('Aron makumpirma, i-type ang imong email address: free@example.com')).toBeInTheDocument();
    expect(card.getByRole('button', { name: 'I-delete na gyud ang akong account' })).toBeEnabled();
    expect(card.getByRole('button', { name: 'Kanselahon' })).toBeEnabled();
    for (const english of ['Your data', 'Delete my account', 'Prepare my data', 'Current Password', 'Continue to delete']) {
      expect(screen.queryByText(english)).not.toBeInTheDocument();
    }
  });
});
