/**
 * The change-payment-method page with its real actors over a fake server: the status read and the
 * update call fail as product.md#errors says (message shown, toast for the update, no spinner left), and the
 * update is sent with the payload of product.md#calls.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import ChangePaymentMethodPage from '../../src/views/pages/ChangePaymentMethodPage';
import { methodFetch, methodServer, renderMethodView } from '../support/planChange';
import { json } from '../support/subscription';

const failures = [
  { name: '500 with a message', answer: () => json(500, { success: false, message: 'The billing service is resting' }), message: 'The billing service is resting' },
  { name: '500 without a message', answer: () => new Response('<html>oops</html>', { status: 500 }), message: 'Something went wrong' },
  { name: 'network down', answer: () => { throw new TypeError(''); }, message: 'Network error' },
  { name: '401', answer: () => json(401, { success: false, message: 'Your session has expired' }), message: 'Your session has expired' },
] as const;

/** The method server, with one call answered by `answer` and every update-payment-method body kept. */
function showPage(call: 'status' | 'update' | null, answer?: () => Response) {
  const server = methodServer();
  const bodies: unknown[] = [];
  const base = methodFetch(server);
  const fetchImpl: typeof fetch = async (url, init) => {
    const path = new URL(String(url), 'http://x').pathname;
    if (path.endsWith('/subscription/update-payment-method')) {
      bodies.push(JSON.parse(String(init?.body)));
      if (call === 'update' && answer) return answer();
      return json(200, { success: true, message: 'Your payment method has been updated. It takes effect in your next billing cycle.', data: null });
    }
    if (call === 'status' && answer && path.endsWith('/subscription/status')) return answer();
    return base(url, init);
  };
  return { ...renderMethodView(<ChangePaymentMethodPage />, { path: '/subscription/change-payment-method', server, fetch: fetchImpl }), bodies };
}

const section = () => within(screen.getByRole('region', { name: 'New Payment Method' }));
const spinners = () => screen.queryAllByText(/^(Loading Subscription Status|Saving)\.\.\.$/);

describe('change payment method: each call fails as spec §8 says', () => {
  for (const failure of failures) {
    it(`status: ${failure.name} shows '${failure.message}' and 'Try again', no spinner`, async () => {
      const run = showPage('status', failure.answer);
      expect(await screen.findByText(failure.message, { selector: 'p[role="alert"]' })).toBeInTheDocument();
      expect(spinners()).toEqual([]);
      if (failure.name === '401') await waitFor(() => expect(run.session.getSnapshot().value).toBe('signedOut'));
      else expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
    });

    it(`update: ${failure.name} shows '${failure.message}' inline and as a toast; the person can save again`, async () => {
      const run = showPage('update', failure.answer);
      await run.user.click(await screen.findByRole('radio', { name: 'Checkout' }));
      await run.user.click(within(section().getByRole('alertdialog')).getByRole('button', { name: "Yes, I'm sure" }));
      await run.user.click(section().getByRole('button', { name: 'Save Payment Method' }));
      if (failure.name === '401') await waitFor(() => expect(run.session.getSnapshot().value).toBe('signedOut'));
      expect(await section().findByRole('alert')).toHaveTextContent(failure.message);
      await waitFor(() => expect(screen.getAllByText(failure.message)).toHaveLength(2)); // inline and the toast
      expect(spinners()).toEqual([]);
      expect(section().getByRole('button', { name: 'Save Payment Method' })).toBeEnabled();
      expect(run.location.history.at(-1)).toBe('/subscription/change-payment-method');
    });
  }
});

describe('change payment method: the payloads of spec §7', () => {
  it('card: the saved default card, by its token', async () => {
    const run = showPage(null);
    await screen.findByRole('radio', { name: 'Credit/Debit', checked: true });
    expect(await section().findByRole('switch', { name: 'Use this card' })).toBeChecked();
    // Saved without the tick: nothing is sent; the box says why (product.md#renewal-consent).
    await run.user.click(section().getByRole('button', { name: 'Save Payment Method' }));
    expect(await section().findByText('Please agree to automatic renewal to continue.')).toBeInTheDocument();
    expect(run.bodies).toEqual([]);
    await run.user.click(section().getByRole('checkbox', { name: 'I agree to automatic renewal' }));
    await run.user.click(await section().findByRole('button', { name: 'Save Payment Method' }));
    await waitFor(() => expect(run.location.history.at(-1)).toBe('/subscription'));
    expect(run.bodies).toEqual([{
      subscriptionId: 'sub-premium', paymentMethod: 'MAYA_VAULT', paymentMethodDetails: JSON.stringify({ cardTokenId: 'seed-card-premium' }),
      renewalConsent: { accepted: true, text: expect.stringMatching(/^Renews automatically on 01\/15\/2027 at ₱99 until you cancel\./), language: 'en' },
    }]);
  });

  it('wallet: paymentMethodDetails holds mayaWalletId set to the link id', async () => {
    const run = showPage(null);
    await run.user.click(await screen.findByRole('radio', { name: 'Wallet' }));
    await section().findByRole('button', { name: /^Unlink Maya/ });
    await run.user.click(section().getByRole('checkbox', { name: 'I agree to automatic renewal' }));
    await run.user.click(section().getByRole('button', { name: 'Save Payment Method' }));
    await waitFor(() => expect(run.location.history.at(-1)).toBe('/subscription'));
    expect(run.bodies).toEqual([{
      subscriptionId: 'sub-premium', paymentMethod: 'MAYA_WALLET', paymentMethodDetails: JSON.stringify({ mayaWalletId: 'link-1' }),
      renewalConsent: { accepted: true, text: expect.stringMatching(/^Renews automatically on 01\/15\/2027 at ₱99/), language: 'en' },
    }]);
  });

  it('checkout: asked in the page with the spec\'s words when picked (never window.confirm); declined, the card stays and nothing is sent', async () => {
    const run = showPage(null);
    const confirm = vi.spyOn(window, 'confirm');
    await run.user.click(await screen.findByRole('radio', { name: 'Checkout' }));
    const dialog = section().getByRole('alertdialog', { name: 'Pay by Checkout?' });
    expect(dialog).toHaveAccessibleDescription('Are you sure you want to proceed with checkout method? Please note that your next subscription payment will be done manually.');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus());
    await run.user.keyboard('{Escape}');
    expect(section().queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('radio', { name: 'Credit/Debit' })).toBeChecked();
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Credit/Debit' })).toHaveFocus());
    expect(confirm).not.toHaveBeenCalled();
    expect(run.bodies).toEqual([]);
    // Confirmed, Save sends checkout without asking again.
    await run.user.click(screen.getByRole('radio', { name: 'Checkout' }));
    await run.user.click(within(section().getByRole('alertdialog')).getByRole('button', { name: "Yes, I'm sure" }));
    expect(screen.getByRole('radio', { name: 'Checkout' })).toBeChecked();
    await run.user.click(section().getByRole('button', { name: 'Save Payment Method' }));
    await waitFor(() => expect(run.bodies).toEqual([{ subscriptionId: 'sub-premium', paymentMethod: 'MAYA_CHECKOUT' }]));
    confirm.mockRestore();
  });
});
