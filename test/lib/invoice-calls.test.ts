/** The invoice calls of the contract (issue 34): paths, the bearer token, the schemas, and the PDF as a Blob. */
import { describe, expect, it, vi } from 'vitest';
import { createApi } from '../../src/api/endpoints';
import { createHttp } from '../../src/api/http';
import { queryKeys } from '../../src/api/queries';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function client(fetchImpl: typeof fetch) {
  const onUnauthorized = vi.fn();
  return { api: createApi(createHttp({ host: '', fetch: fetchImpl, getToken: () => 'tok', onUnauthorized })), onUnauthorized };
}

const invoice = {
  id: 'd1', kind: 'INVOICE', number: 'SB-INV-00000001', issuedAt: '2026-11-21T11:05:00.000Z', paymentId: 'p1', invoiceId: null, invoiceNumber: null,
  seller: { name: 'Sine Bisaya (SAMPLE — not a registered seller)', tin: '000-000-000-00000', address: 'Sample address', sample: true },
  buyer: { name: 'Maria Santos', email: 'free@example.com', tin: null }, description: 'Premium subscription, Monthly plan', planName: 'Monthly',
  periodStart: null, periodEnd: null, vatableSales: '88.39', vat: '10.61', vatRate: '0.12', total: '99.00', currency: 'PHP',
  paymentMethod: 'MAYA_VAULT', card: { type: 'Visa', last4: '1381' }, referenceId: 'SB-1', mayaPaymentId: null,
};

describe('invoice calls', () => {
  it('list, one, and by payment: parsed by the contract', async () => {
    const fetchImpl = vi.fn(async (url: string) => json(200, { success: true, message: 'OK', data: url.endsWith('/invoices') ? { items: [invoice] } : invoice }));
    const { api } = client(fetchImpl as unknown as typeof fetch);
    await expect(api.listInvoices()).resolves.toEqual({ items: [invoice] });
    await expect(api.getInvoice('d1')).resolves.toEqual(invoice);
    await expect(api.invoiceByPayment('p 1')).resolves.toEqual(invoice);
    expect(fetchImpl.mock.calls.map((call) => call[0])).toEqual([
      '/api/v1/mobile/payment/invoices', '/api/v1/mobile/payment/invoices/d1', '/api/v1/mobile/payment/invoices/by-payment/p%201',
    ]);
  });

  it('refuses an answer that is not the contract', async () => {
    const { api } = client((async () => json(200, { success: true, message: 'OK', data: { ...invoice, total: 99 } })) as unknown as typeof fetch);
    await expect(api.getInvoice('d1')).rejects.toThrow('Something went wrong');
  });

  it('downloads the PDF with the bearer token, as a Blob; a failure reads as the server said', async () => {
    const fetchImpl = vi.fn(async () => new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), { status: 200, headers: { 'Content-Type': 'application/pdf' } }));
    const { api } = client(fetchImpl as unknown as typeof fetch);
    const blob = await api.downloadInvoicePdf({ id: 'd1', lang: 'ceb' });
    expect(blob.type).toBe('application/pdf');
    expect(new TextDecoder().decode(await blob.arrayBuffer())).toBe('%PDF');
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/mobile/payment/invoices/d1/pdf?lang=ceb');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok');

    const missing = client((async () => json(404, { success: false, message: 'We could not find this invoice.' })) as unknown as typeof fetch);
    await expect(missing.api.downloadInvoicePdf({ id: 'x', lang: 'en' })).rejects.toThrow('We could not find this invoice.');
    const expired = client((async () => json(401, { success: false, message: 'Session expired' })) as unknown as typeof fetch);
    await expect(expired.api.downloadInvoicePdf({ id: 'x', lang: 'en' })).rejects.toThrow('Session expired');
    expect(expired.onUnauthorized).toHaveBeenCalled();
  });

  it("keys the invoice list under the payments key, so invalidating payments refreshes it", () => {
    expect(queryKeys.invoices.slice(0, queryKeys.payments.length)).toEqual([...queryKeys.payments]);
  });
});
