/** Toasts that stop being true go (review finding 23): a toast follows the move that comes with it and leaves at the next page; a flow's later toast replaces its earlier one. */
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOAST_FOLLOWS_MS } from '../../src/views/ToastArea';
import { notify, Toasts } from '../../src/views/Toasts';
import { renderView } from '../support/render';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Dismissed: no longer in the page, or leaving it (jsdom runs no exit animation, whose end would remove it). */
const gone = (text: string) => {
  const toast = screen.queryByText(text)?.closest('.Toastify__toast');
  return !toast || /exit/.test(toast.className);
};

describe('toasts and pages', () => {
  it("a toast raised with a move to another page stays there; the person's next page dismisses it", async () => {
    const run = renderView(<Toasts />, { path: '/register' });
    // As the sign-up flow does: the code is sent, the page moves to the code step and says so.
    act(() => {
      run.location.navigate('/register/verify?q=t&email=a%40b.ph');
      void notify('success', 'OTP sent successfully!', 'signUp');
    });
    expect(await screen.findByText('OTP sent successfully!')).toBeInTheDocument();
    await act(() => pause(TOAST_FOLLOWS_MS + 100)); // the person reads the mail and types the code
    act(() => run.location.navigate('/subscription'));
    await waitFor(() => expect(gone('OTP sent successfully!')).toBe(true));
  });

  it('a change of the query alone (a step of the same page) keeps the toast', async () => {
    const run = renderView(<Toasts />, { path: '/subscription/payment?step=2' });
    act(() => { void notify('error', 'Please connect your Maya wallet to continue'); });
    expect(await screen.findByText('Please connect your Maya wallet to continue')).toBeInTheDocument();
    await act(() => pause(TOAST_FOLLOWS_MS + 100));
    act(() => run.location.navigate('/subscription/payment?step=2&payment-method=maya'));
    await act(() => pause(300));
    expect(gone('Please connect your Maya wallet to continue')).toBe(false);
  });

  it("a flow's success replaces its refusal still on screen ('Invalid voucher code', then 'Voucher redeemed successfully')", async () => {
    renderView(<Toasts />, { path: '/subscription/redeem-voucher' });
    act(() => { void notify('error', 'Invalid voucher code', 'voucher'); });
    expect(await screen.findByText('Invalid voucher code')).toBeInTheDocument();
    act(() => { void notify('success', 'Voucher redeemed successfully', 'voucher'); });
    expect(await screen.findByText('Voucher redeemed successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Invalid voucher code')).not.toBeInTheDocument());
  });
});
