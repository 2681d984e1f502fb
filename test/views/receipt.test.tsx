/** A payment's receipt (issue 19): the page, its print button, and the payments panel's links to it. */
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import { routes } from '../../src/lib/route-paths';
import ReceiptPage from '../../src/views/pages/ReceiptPage';
import { demoUser } from '../support/render';
import { renderSubscriptionView } from '../support/subscription';

const at = (id: string) =>
  renderSubscriptionView(<Route path={routes.receipt}><ReceiptPage /></Route>, { path: `/subscription/receipts/${id}` });
const line = (label: string) => within(screen.getByRole('article', { name: 'Receipt' })).getByText(label).nextElementSibling;

describe('receipt page', () => {
  it('shows merchant, who paid, plan, period, method, reference, date and the amount as every page writes pesos (₱99); prints', async () => {
    const run = at('p-3');
    expect(await screen.findByText('Sine Bisaya')).toBeInTheDocument();
    expect(line('Billed to')).toHaveTextContent(`${demoUser.firstName} ${demoUser.lastName} (${demoUser.email})`);
    expect(line('Plan')).toHaveTextContent('Monthly (PREMIUM)');
    expect(line('Period')?.textContent).toMatch(/^12\/15\/2026 to 01\/15\/2027$/);
    expect(line('Payment method')).toHaveTextContent('Visa **** 4242'); // the card, not just 'Card' (review finding 19)
    expect(line('Reference')).toHaveTextContent('SB-REF-0003');
    expect(line('Amount paid')).toHaveTextContent(/^₱99$/);
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    await run.user.click(screen.getByRole('button', { name: 'Print or save as PDF' }));
    expect(print).toHaveBeenCalledOnce();
    print.mockRestore();
  });

  it('a payment with no receipt (declined) says so and offers the way back', async () => {
    at('p-2');
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not find a receipt for this payment.');
    expect(screen.getByRole('link', { name: '← Back to Subscription' })).toHaveAttribute('href', '/subscription');
  });
});
