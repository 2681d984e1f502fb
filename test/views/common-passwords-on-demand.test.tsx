/**
 * The common-password list is a chunk of its own (issue 10's route budgets): the forms that choose a
 * new password start fetching it (sign-up on arrival, the recovery reset step, the password change
 * once it is used), and nothing else does; once it is there the form refuses a common password itself.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loadCommonPasswords } from '../../src/api/commonPasswords';
import { createQueryClient } from '../../src/api/queries';
import { createHttp } from '../../src/api/http';
import AccountPage from '../../src/views/pages/AccountPage';
import LoginPage from '../../src/views/pages/LoginPage';
import RecoveryPage from '../../src/views/pages/RecoveryPage';
import RegisterPage from '../../src/views/pages/RegisterPage';
import { profileFetch } from '../support/account';
import { demoUser, renderView, startSession } from '../support/render';

vi.mock('../../src/api/commonPasswords', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/api/commonPasswords')>();
  return { ...actual, loadCommonPasswords: vi.fn(actual.loadCommonPasswords) };
});
const load = vi.mocked(loadCommonPasswords);
beforeEach(() => load.mockClear());

describe('the common-password list on demand', () => {
  it('sign-up fetches it on arrival and then refuses a common password without asking the server', async () => {
    const user = userEvent.setup();
    const fetchSpy = vi.fn<typeof fetch>(async () => new Response(null, { status: 500 }));
    renderView(<RegisterPage />, { path: '/register', fetch: fetchSpy });
    expect(load).toHaveBeenCalled();
    expect(await load.mock.results[0]!.value).toBe(true);
    await user.type(screen.getByLabelText('Email'), 'nena@example.com');
    await user.type(screen.getByLabelText('Password'), 'Password1');
    await user.type(screen.getByLabelText('Confirm Password'), 'Password1');
    await user.type(screen.getByLabelText('First Name'), 'Nena');
    await user.type(screen.getByLabelText('Last Name'), 'Cabahug');
    fireEvent.change(screen.getByLabelText('Birthdate'), { target: { value: '1995-03-14' } });
    await user.click(screen.getByRole('checkbox', { name: /Accept terms and conditions/ }));
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByText('This password is too common')).toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
  });
  it('recovery fetches it at the reset step only', () => {
    const first = renderView(<RecoveryPage />, { path: '/forgot-password' });
    expect(load).not.toHaveBeenCalled();
    first.unmount();
    renderView(<RecoveryPage />, { path: '/forgot-password/reset?q=rt' });
    expect(load).toHaveBeenCalled();
  });
  it('the account page fetches it once the password form is used', async () => {
    const http = createHttp({ host: '', fetch: profileFetch, getToken: () => 't', onUnauthorized: () => {} });
    renderView(<QueryClientProvider client={createQueryClient()}><AccountPage /></QueryClientProvider>, { path: '/account', session: startSession(demoUser), http });
    const card = within(screen.getByRole('region', { name: 'Security' }));
    await screen.findByRole('region', { name: 'Profile' });
    expect(load).not.toHaveBeenCalled();
    card.getByLabelText('New Password').focus();
    await waitFor(() => expect(load).toHaveBeenCalled());
  });
  it('sign-in does not fetch it', () => {
    renderView(<LoginPage />, { path: '/login' });
    expect(load).not.toHaveBeenCalled();
  });
});
