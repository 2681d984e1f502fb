/**
 * Invoices and credit memos (issue 34, product.md#invoices): the invoice page, a credit memo naming its
 * invoice, old receipt links leading to the invoice, the list on /subscription (kept after the
 * subscription ended) and the payments panel's links.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { routes } from '../../src/lib/route-paths';
import InvoicePage from '../../src/views/pages/InvoicePage';
import ReceiptPage from '../../src/views/pages/ReceiptPage';
import SubscriptionPage from '../../src/views/pages/SubscriptionPage';
import { demoUser } from '../support/render';
import { freeStatus, fakeServer, invoiceDoc, paymentsFixture, renderSubscriptionView } from '../support/subscription';

const invoice = invoiceDoc('inv-3', 'p-3', 'SB-INV-00000003');
const memo = invoiceDoc('cm-1', 'p-3', 'SB-CM-00000001', {
  kind: 'CREDIT_MEMO', issuedAt: '2026-12-16T03:00:00.000Z', invoiceId: 'inv-3', invoiceNumber: 'SB-INV-00000003',
});
const withInvoices = () => {
  const server = fakeServer();
  server.invoices = [invoice, memo];
  server.payments = paymentsFixture.map((p) => (p.id === 'p-3' ? { ...p, invoiceId: 'inv-3' } : p));
  return server;
};
const pages = (
  <Switch>
    <Route path={routes.invoice}><InvoicePage /></Route>
    <Route path={routes.receipt}><ReceiptPage /></Route>
  </Switch>
);
const value = (label: string) => within(screen.getByRole('article')).getByText(label).nextElementSibling;

describe('invoice page', () => {
  it('shows the seller (marked as a sample), the buyer, what was sold, VATable sales, VAT 12% and the total to the centavo', async () => {
    renderSubscriptionView(pages, { path: '/subscription/invoices/inv-3', server: withInvoices() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Invoice' })).toBeInTheDocument();
    expect((await screen.findByText('SB-INV-00000003', { selector: 'strong' })).parentElement).toHaveTextContent('SALES INVOICE · SB-INV-00000003');
    expect(screen.getByText('Sine Bisaya Sample Seller')).toBeInTheDocument();
    expect(screen.getByText('VAT Reg. TIN 000-000-000-00000')).toBeInTheDocument();
    expect(screen.getByText('SAMPLE — not a registered seller. Not valid for tax purposes.')).toBeInTheDocument();
    expect(value('Invoice No.')).toHaveTextContent('SB-INV-00000003');
    expect(value('Date issued')).toHaveTextContent(/^12\/15\/2026/);
    expect(value('Billed to')).toHaveTextContent(`${demoUser.firstName} ${demoUser.lastName} (${demoUser.email})`);
    expect(value('Description')).toHaveTextContent('Premium subscription, Monthly plan');
    expect(value('Period')).toHaveTextContent('12/15/2026 to 01/15/2027');
    expect(value('Payment method')).toHaveTextContent('Visa **** 4242');
    expect(value('Reference')).toHaveTextContent('SB-REF-0003');
    expect(value('Maya payment ID')).toHaveTextContent('maya-pay-3');
    expect(value('VATable sales')).toHaveTextContent(/^₱88\.39$/);
    expect(value('VAT (12%)')).toHaveTextContent(/^₱10\.61$/);
    expect(value('Total')).toHaveTextContent(/^₱99\.00$/);
    expect(screen.getByText('Prices are VAT-inclusive.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeEnabled();
  });

  it('a credit memo says what it credited and links to that invoice', async () => {
    const run = renderSubscriptionView(pages, { path: '/subscription/invoices/cm-1', server: withInvoices() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Credit memo' })).toBeInTheDocument();
    expect((await screen.findByText('SB-CM-00000001', { selector: 'strong' })).parentElement).toHaveTextContent('CREDIT MEMO · SB-CM-00000001');
    expect(value('Credit Memo No.')).toHaveTextContent('SB-CM-00000001');
    expect(value('Credits invoice')).toHaveTextContent('SB-INV-00000003');
    expect(value('Total credited')).toHaveTextContent(/^₱99\.00$/);
    await run.user.click(screen.getByRole('link', { name: 'Invoice SB-INV-00000003' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Invoice' })).toBeInTheDocument();
    expect((await screen.findByText('SB-INV-00000003', { selector: 'strong' }))).toBeInTheDocument();
  });

  it("another viewer's or an unknown invoice: the server's message and a way to try again", async () => {
    renderSubscriptionView(pages, { path: '/subscription/invoices/nope', server: withInvoices() });
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not find this invoice.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('an old receipt link of a payment with an invoice opens the invoice; one without keeps its receipt', async () => {
    const run = renderSubscriptionView(pages, { path: '/subscription/receipts/p-3', server: withInvoices() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Invoice' })).toBeInTheDocument();
    expect((await screen.findByText('SB-INV-00000003', { selector: 'strong' }))).toBeInTheDocument();
    // Replaced, not pushed: Back does not return to the old address.
    expect(run.location.history).toEqual(['/subscription/invoices/inv-3']);
  });

  it('a payment made before invoices still shows its receipt', async () => {
    renderSubscriptionView(pages, { path: '/subscription/receipts/p-1', server: withInvoices() });
    expect(await screen.findByRole('article', { name: 'Receipt' })).toBeInTheDocument();
    expect(await screen.findByText('SB-REF-0001')).toBeInTheDocument();
  });
});

describe('invoices on /subscription', () => {
  it('lists every invoice and credit memo, newest first, and the payments panel links a payment to its invoice', async () => {
    renderSubscriptionView(<SubscriptionPage />, { path: '/subscription', server: withInvoices() });
    const list = within(await screen.findByRole('region', { name: 'Invoices and credit memos' }));
    const links = await list.findAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Credit memo SB-CM-00000001', '/subscription/invoices/cm-1'],
      ['Invoice SB-INV-00000003', '/subscription/invoices/inv-3'],
    ]);
    expect(list.getByText('−₱99.00')).toBeInTheDocument();
    const payments = within(screen.getByRole('region', { name: 'Payment records' }));
    expect(payments.getByRole('link', { name: 'Invoice for SB-REF-0003' })).toHaveAttribute('href', '/subscription/invoices/inv-3');
    expect(payments.getByRole('link', { name: 'Receipt for SB-REF-0001' })).toHaveAttribute('href', '/subscription/receipts/p-1');
  });

  it('kept after the subscription ended; none yet says so', async () => {
    const ended = withInvoices();
    ended.status = freeStatus;
    const first = renderSubscriptionView(<SubscriptionPage />, { path: '/subscription', server: ended });
    expect(await within(await screen.findByRole('region', { name: 'Invoices and credit memos' })).findByRole('link', { name: 'Invoice SB-INV-00000003' })).toBeInTheDocument();
    first.unmount();
    renderSubscriptionView(<SubscriptionPage />, { path: '/subscription', server: fakeServer() });
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Invoices and credit memos' })).getByText(/^No invoices yet\./)).toBeInTheDocument());
  });
});
