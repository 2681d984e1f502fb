/**
 * The payment result page (product.md#payment-result, issue 19): a success shows what the server says
 * of the newest payment, not what the address claims; a failure offers "Try again" on the plan tried.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { tryAgainPath } from '../../src/machines/subscribe/subscribe.address';
import PaymentResultPage from '../../src/views/pages/PaymentResultPage';
import { fakeServer, paymentsFixture, renderSubscriptionView } from '../support/subscription';

const details = () => within(screen.getByRole('region', { name: 'Payment details' }));

describe('payment result', () => {
  it('success: the newest payment’s plan, amount, method, reference, date and the next billing date', async () => {
    renderSubscriptionView(<PaymentResultPage />, { path: '/payment?status=success' });
    expect(screen.getByRole('heading', { level: 1, name: 'Payment Successful' })).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Payment details' })).toBeInTheDocument();
    const row = (label: string) => details().getByText(label).nextElementSibling;
    expect(row('Plan')).toHaveTextContent('Monthly');
    expect(row('Amount')).toHaveTextContent('₱99');
    // Paid: the card that paid, and no 'being activated' any more (review finding 19).
    await waitFor(() => expect(row('Payment method')).toHaveTextContent('Visa **** 4242'));
    expect(screen.getByText('Thank you! Your PREMIUM subscription is active.')).toBeInTheDocument();
    expect(screen.queryByText(/being activated/)).toBeNull();
    expect(row('Reference')).toHaveTextContent('SB-REF-0003');
    expect(row('Status')).toHaveTextContent('Succeeded');
    expect(await details().findByText('Next Billing Date')).toBeInTheDocument();
    expect(row('Next Billing Date')?.textContent).toMatch(/2027/);
    expect(details().getByRole('link', { name: 'View receipt' })).toHaveAttribute('href', '/subscription/receipts/p-3');
  });

  it('success the server does not confirm yet: says Maya is confirming and asks again', async () => {
    const server = fakeServer();
    server.payments = [...paymentsFixture, { ...paymentsFixture[1]!, id: 'p-4', referenceId: 'SB-REF-0004', status: 'PENDING', createdAt: '2027-01-15T00:00:00.000Z' }];
    renderSubscriptionView(<PaymentResultPage />, { path: '/payment?status=success', server });
    expect(await screen.findByText('Maya is still confirming this payment. This page updates by itself.')).toBeInTheDocument();
    expect(screen.getByText('Thank you! Your PREMIUM subscription is being activated.')).toBeInTheDocument();
    expect(details().queryByText('Next Billing Date')).toBeNull();
    const asked = server.calls.filter((c) => c === 'payments').length;
    server.payments = server.payments.map((p) => (p.id === 'p-4' ? { ...p, status: 'PAYMENT_SUCCESS' } : p));
    await waitFor(() => expect(screen.queryByText(/still confirming/)).toBeNull(), { timeout: 5000 });
    expect(server.calls.filter((c) => c === 'payments').length).toBeGreaterThan(asked);
    expect(await details().findByText('Next Billing Date')).toBeInTheDocument();
  });

  it('a renewal paid by hand (Renew now) says it is renewed and until when, not that it is being activated', async () => {
    const server = fakeServer();
    server.payments = [...paymentsFixture, { ...paymentsFixture[1]!, id: 'p-5', referenceId: 'SB-RN-3C5BA4E27FED91A0B2C4', paymentMethod: 'MAYA_CHECKOUT', createdAt: '2027-01-12T00:00:00.000Z' }];
    renderSubscriptionView(<PaymentResultPage />, { path: '/payment?status=success', server });
    expect(await screen.findByText('Thank you! Your PREMIUM subscription is renewed and paid through 01/15/2027.')).toBeInTheDocument();
    expect(details().getByText('Payment method').nextElementSibling).toHaveTextContent('Maya Checkout');
    expect(screen.queryByText(/being activated|is active\./)).toBeNull();
  });

  it('a success offers the apps to start watching in; a failure does not', async () => {
    renderSubscriptionView(<PaymentResultPage />, { path: '/payment?status=success' });
    const watch = within(await screen.findByRole('region', { name: 'Start watching' }));
    expect(watch.getByRole('link', { name: /App Store/ })).toHaveAttribute('href', expect.stringMatching(/^https:\/\/apps\.apple\.com\//));
    expect(watch.getByRole('link', { name: /Google Play/ })).toHaveAttribute('href', expect.stringMatching(/^https:\/\/play\.google\.com\//));
  });

  it('a failed read says where the details are; the result itself still shows', async () => {
    const server = fakeServer();
    server.answers.payments = () => new Response(JSON.stringify({ success: false, message: 'Something went wrong' }), { status: 500 });
    renderSubscriptionView(<PaymentResultPage />, { path: '/payment?status=success', server });
    expect(await screen.findByText(/We could not load your payment details/, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Subscription' })).toHaveAttribute('href', '/subscription');
  });

  it('failed: "Try again" reopens the payment step of the plan and method tried', async () => {
    renderSubscriptionView(<PaymentResultPage />, { path: '/payment?status=failed&plan=yearly&payment-method=card' });
    expect(screen.getByRole('heading', { level: 1, name: 'Payment Failed' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Try again' })).toHaveAttribute('href', '/subscription/payment?plan=yearly&step=2&payment-method=card&after=declined');
    expect(screen.queryByRole('region', { name: 'Payment details' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Start watching' })).toBeNull();
  });

  it('"Try again" takes only a plan slug and a method it knows from the address', () => {
    expect(tryAgainPath('status=failed')).toBe('/subscription/payment?step=1');
    expect(tryAgainPath('status=failed&plan=monthly')).toBe('/subscription/payment?plan=monthly&step=2');
    expect(tryAgainPath('status=failed&plan=%3Cscript%3E&payment-method=card')).toBe('/subscription/payment?step=1');
    expect(tryAgainPath('status=failed&plan=monthly&payment-method=bitcoin')).toBe('/subscription/payment?plan=monthly&step=2');
    // After a card payment failed, the card form offers the saved card switched off (finding 14); other methods as they were.
    expect(tryAgainPath('status=failed&plan=monthly&payment-method=checkout')).toBe('/subscription/payment?plan=monthly&step=2&payment-method=checkout');
  });
});
