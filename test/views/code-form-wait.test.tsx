/**
 * 'Resend OTP' waits for the server's 60 s between two codes (finding 27): disabled with the seconds left
 * shown beside it, from arrival and after each resend that went through; a refused resend starts no wait.
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CodeForm, RESEND_WAIT } from '../../src/views/parts/CodeForm';

function Form({ resending = false, serverMessage = null as string | null, onResend = () => {} }) {
  return (
    <CodeForm email="nena@example.com" error={undefined} serverMessage={serverMessage} verifying={false} resending={resending}
      onSubmit={() => {}} onResend={onResend} />
  );
}

const resend = () => screen.getByRole('button', { name: 'Resend OTP' });
// One second at a time: each tick renders, and the next second's timer is set by that render.
const tick = (seconds: number) => { for (let i = 0; i < seconds; i += 1) act(() => { vi.advanceTimersByTime(1000); }); };

describe('Resend OTP waits as the server does', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  it('is the server\'s wait (server/identity/codes.ts)', () => {
    const server = readFileSync('server/identity/codes.ts', 'utf8').match(/OTP_RESEND_AFTER_S = (\d+)/)?.[1];
    expect(Number(server)).toBe(RESEND_WAIT.seconds);
    expect(RESEND_WAIT.seconds).toBe(60);
  });

  it('counts down from arrival, then offers Resend OTP; a resend that went through waits again, a refused one does not', () => {
    const onResend = vi.fn();
    const view = render(<Form onResend={onResend} />);
    expect(resend()).toBeDisabled();
    expect(resend()).toHaveAccessibleDescription('You can ask for a new code in 60 s.');
    tick(1);
    expect(screen.getByText('You can ask for a new code in 59 s.')).toBeInTheDocument();
    tick(59);
    expect(resend()).toBeEnabled();
    expect(screen.queryByText(/You can ask for a new code/)).toBeNull();

    fireEvent.click(resend());
    expect(onResend).toHaveBeenCalledTimes(1);
    view.rerender(<Form onResend={onResend} resending />);
    tick(1);
    view.rerender(<Form onResend={onResend} />);
    expect(resend()).toBeDisabled();
    // Counted from the ask (one second ago): the next tick shows it.
    tick(1);
    expect(resend()).toHaveAccessibleDescription('You can ask for a new code in 58 s.');
    tick(57);
    expect(resend()).toBeDisabled();
    tick(1);
    expect(resend()).toBeEnabled();

    // Refused (the server's message shows): no new wait.
    fireEvent.click(resend());
    view.rerender(<Form onResend={onResend} resending />);
    view.rerender(<Form onResend={onResend} serverMessage="Too many codes requested for this email. Please try again in an hour." />);
    expect(resend()).toBeEnabled();
  });
});
