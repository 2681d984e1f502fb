import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import LoginPage from '../../src/views/pages/LoginPage';
import { renderView } from '../support/render';

describe('sign-in form validation (spec §5)', () => {
  it("says 'Email is required' and 'Password is required'", async () => {
    const user = userEvent.setup();
    renderView(<LoginPage />, { path: '/login' });
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email is required');
  });
  it('refuses an email that is not valid', async () => {
    const user = userEvent.setup();
    renderView(<LoginPage />, { path: '/login' });
    await user.type(screen.getByLabelText('Email'), 'juan@');
    await user.type(screen.getByLabelText('Password'), 'x');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.queryByText('Password is required')).not.toBeInTheDocument();
  });
  it("greets with 'Welcome back' only when the flag is stored", async () => {
    localStorage.setItem('welcomeBack', 'true');
    renderView(<LoginPage />, { path: '/login' });
    // The session reads the flag as it restores (welcomeBack lives in the session context).
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
  });
  it('shows the server message of a failed call in an error box', async () => {
    const user = userEvent.setup();
    renderView(<LoginPage />, { path: '/login' }); // the default test API answers with a network failure
    await user.type(screen.getByLabelText('Email'), 'free@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    // A browser's 'Failed to fetch' is not a message for people (product.md#errors).
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Network error');
    expect(alert).not.toHaveTextContent('Failed to fetch');
  });
});
