/**
 * Invoices and credit memos (issue 34, product.md#invoices), through the API: one invoice per
 * successful payment, issued in the payment's own transaction; a credit memo when a paid payment is
 * refunded; the list, one document, the invoice of a payment, the PDF read back as text in both
 * languages; the invoice mail; documents never edited or deleted; the buyer's TIN on the account.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { issueInvoice, writeSeller } from '../../../server/billing/invoices';
import { renewSubscription, type RenewalDeps } from '../../../server/billing/renewals';
import { SERVER_START_TIMEOUT_MS, type BillingServer } from '../support/billing-helpers';
import { pdfText } from '../support/pdf-text';
import {
  at, CANCELED, deliverWebhook, expectMoneyInvariant, FREE, latestSubscription, mailTo, MINUTE, newRecords, PREMIUM, resetSeams, startSeamsServer, verifiedCard,
} from '../support/seams-harness';
import { checkMoneyInvariants, MoneyInvariantError } from '../support/money-invariants';
import { CONSENT } from '../support/consent';

/** Rule (e) of the money invariants: every sale documented once, every reversal of one by a memo, numbers without gaps. */
async function expectDocumented() {
  try {
    await checkMoneyInvariants((sql, params) => server.db.query(sql, params));
  } catch (error) {
    if (!(error instanceof MoneyInvariantError)) throw error;
    expect(error.violations.filter((v) => v.rule === 'e')).toEqual([]);
  }
}

let server: BillingServer;
let deps: RenewalDeps;

beforeAll(async () => {
  ({ server, deps } = await startSeamsServer());
}, SERVER_START_TIMEOUT_MS);
beforeEach(async () => {
  await resetSeams(server);
  await server.db.query(`UPDATE users SET language = 'en', tin = NULL`);
});

const V1 = '/api/v1/mobile';
const invoices = async (email: string, lang = 'en') =>
  (await server.call('GET', `${V1}/payment/invoices`, { token: await server.tokenOf(email), headers: { 'Accept-Language': lang } })).json;
const pdfOf = async (email: string, id: string, lang: string) => server.app.request(`${V1}/payment/invoices/${id}/pdf?lang=${lang}`, { headers: { Authorization: `Bearer ${await server.tokenOf(email)}` } });
const seriesLast = async (series: string) => Number((await server.db.query<{ last: string }>('SELECT last::text AS last FROM document_series WHERE series = $1', [series])).rows[0]!.last);

async function buyMonthlyByCard(email: string) {
  const card = await verifiedCard(server, email);
  const bought = await server.as(email).post('/payment/vault/create', { ...CONSENT, planId: 1, cardToken: card });
  expect(bought.status, bought.json.message).toBe(200);
  return (await newRecords(server, email))[0]!;
}

describe('invoices', () => {
  it("the seed's paid payments have their invoices, numbered in the order paid; a voucher has none", async () => {
    const premium = await invoices(PREMIUM);
    expect(premium.success).toBe(true);
    expect(premium.data.items.map((d: { kind: string }) => d.kind)).toEqual(['INVOICE', 'INVOICE', 'INVOICE']);
    const numbers = premium.data.items.map((d: { number: string }) => d.number);
    expect(numbers.every((n: string) => /^SB-INV-\d{8}$/.test(n))).toBe(true);
    // Newest first.
    const dates = premium.data.items.map((d: { issuedAt: string }) => Date.parse(d.issuedAt));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    expect([...numbers].sort().reverse()).toEqual(numbers);
    expect(premium.data.items[0]).toMatchObject({
      seller: { sample: true, tin: '000-000-000-00000' }, buyer: { name: 'Juan Dela Cruz', email: PREMIUM, tin: null },
      vatableSales: '88.39', vat: '10.61', vatRate: '0.12', total: '99.00', currency: 'PHP', paymentMethod: 'MAYA_VAULT', card: { type: 'Visa', last4: '1381' },
      planName: 'Monthly', invoiceId: null, invoiceNumber: null,
    });
    expect((await invoices(CANCELED)).data.items).toHaveLength(2);
    expect((await invoices(FREE)).data.items).toHaveLength(1);
    expect((await invoices('voucher@example.com')).data.items).toEqual([]);
    // Six seeded paid payments (free 1, premium 3, canceled 2): six numbers, no gap.
    expect(await seriesLast('INVOICE')).toBe(6);
    await expectDocumented();
  });

  it('a card purchase gets the next number in its own transaction, linked from the payment history, and mailed as an invoice', async () => {
    const before = await seriesLast('INVOICE');
    const record = await buyMonthlyByCard(FREE);
    expect(record.status).toBe('PAYMENT_SUCCESS');
    expect(await seriesLast('INVOICE')).toBe(before + 1);

    const byPayment = await server.as(FREE).get(`/payment/invoices/by-payment/${record.id}`);
    expect(byPayment.status, byPayment.json.message).toBe(200);
    const invoice = byPayment.json.data;
    expect(invoice).toMatchObject({
      kind: 'INVOICE', number: `SB-INV-${String(before + 1).padStart(8, '0')}`, paymentId: record.id, referenceId: record.reference_id,
      description: 'Premium subscription, Monthly plan', vatableSales: '88.39', vat: '10.61', total: '99.00', buyer: { name: 'Maria Santos', email: FREE },
    });
    expect(invoice.periodStart).not.toBeNull();
    expect(invoice.mayaPaymentId).toMatch(/.+/);
    expect((await server.as(FREE).get(`/payment/invoices/${invoice.id}`)).json.data).toEqual(invoice);

    const history = (await server.as(FREE).get('/payment/history')).json.data as Array<{ id: string; invoiceId: string | null }>;
    expect(history.find((p) => p.id === record.id)?.invoiceId).toBe(invoice.id);
    expect(history.filter((p) => p.id !== record.id).every((p) => p.invoiceId === null || typeof p.invoiceId === 'string')).toBe(true);

    const mail = (await mailTo(server, FREE)).at(-1)!;
    expect(mail.subject).toBe(`Sine Bisaya: invoice ${invoice.number} for your Monthly payment`);
    expect(mail.body).toContain('Amount: ₱99, VAT included, paid with your saved card.');
    expect(mail.body).toContain(`Your invoice ${invoice.number}, to view or download as PDF: http://localhost/subscription/invoices/${invoice.id}`);
    await expectMoneyInvariant(server);
    await expectDocumented();
  });

  it('names the seller of the settings (not a sample) from then on; issued documents keep the seller they were issued under', async () => {
    const earlier = (await invoices(PREMIUM)).data.items[0];
    await writeSeller(server.db, { name: 'Sine Bisaya Media Inc.', tin: '123-456-789-00000', address: '1 Osmeña Blvd, Cebu City 6000' });
    try {
      const record = await buyMonthlyByCard(FREE);
      const invoice = (await server.as(FREE).get(`/payment/invoices/by-payment/${record.id}`)).json.data;
      expect(invoice.seller).toEqual({ name: 'Sine Bisaya Media Inc.', tin: '123-456-789-00000', address: '1 Osmeña Blvd, Cebu City 6000', sample: false });
      const text = await pdfText(new Uint8Array(await (await pdfOf(FREE, invoice.id, 'en')).arrayBuffer()));
      expect(text).toContain('Sine Bisaya Media Inc.');
      expect(text).toContain('VAT Reg. TIN: 123-456-789-00000');
      expect(text).not.toContain('SAMPLE');
      expect((await server.as(PREMIUM).get(`/payment/invoices/${earlier.id}`)).json.data.seller).toEqual(earlier.seller);
    } finally {
      await writeSeller(server.db, null);
    }
  });

  it('in Bisaya: the mail, the description and the plan name', async () => {
    await server.db.query(`UPDATE users SET language = 'ceb' WHERE email = $1`, [FREE]);
    const record = await buyMonthlyByCard(FREE);
    const mail = (await mailTo(server, FREE)).at(-1)!;
    expect(mail.subject).toMatch(/^Sine Bisaya: invoice SB-INV-\d{8} para sa imong bayad sa Binulan nga plan$/);
    expect(mail.body).toContain('Kantidad: ₱99, apil na ang VAT, gibayad gamit ang');
    expect(mail.body).toContain('Ang imong invoice SB-INV-');
    const ceb = (await invoices(FREE, 'ceb')).data.items.find((d: { paymentId: string }) => d.paymentId === record.id);
    expect(ceb).toMatchObject({ description: 'Premium subscription, Binulan nga plan', planName: 'Binulan' });
  });

  it('a renewal by the engine is invoiced as one', async () => {
    const sub = await latestSubscription(server, PREMIUM);
    await server.setClock(at(sub.end_date, MINUTE));
    expect(await renewSubscription(deps, sub.id)).toBe('renewed');
    const newest = (await invoices(PREMIUM)).data.items[0];
    expect(newest).toMatchObject({ description: 'Premium subscription renewal, Monthly plan', total: '99.00' });
    expect(Date.parse(newest.periodStart)).toBe(sub.end_date.getTime());
    expect((await invoices(PREMIUM, 'ceb')).data.items[0].description).toBe('Pag-renew sa Premium subscription, Binulan nga plan');
    await expectDocumented();
  });

  it("another viewer's invoice, an unknown one and a malformed id all answer 404 alike", async () => {
    const theirs = (await invoices(PREMIUM)).data.items[0];
    const paths = [`/payment/invoices/${theirs.id}`, `/payment/invoices/${theirs.id}/pdf`, `/payment/invoices/by-payment/${theirs.paymentId}`,
      '/payment/invoices/00000000-0000-4000-8000-000000000000', '/payment/invoices/not-an-id', '/payment/invoices/by-payment/nope'];
    for (const path of paths) {
      const answer = await server.as(FREE).get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.json.message, path).toBe('We could not find this invoice.');
    }
    expect((await server.call('GET', `${V1}/payment/invoices`)).status).toBe(401);
  });

  it('downloads as a PDF whose text names the seller, TIN, number, VAT and total, in English and in Bisaya', async () => {
    await server.call('PUT', `${V1}/account/profile`, { token: await server.tokenOf(PREMIUM), body: { firstName: 'Juan', lastName: 'Dela Cruz', tin: '123-456-789-00000' } });
    const sub = await latestSubscription(server, PREMIUM);
    await server.setClock(at(sub.end_date, MINUTE));
    expect(await renewSubscription(deps, sub.id)).toBe('renewed');
    const invoice = (await invoices(PREMIUM)).data.items[0];

    const english = await pdfOf(PREMIUM, invoice.id, 'en');
    expect(english.status).toBe(200);
    expect(english.headers.get('Content-Type')).toBe('application/pdf');
    expect(english.headers.get('Content-Disposition')).toBe(`attachment; filename="${invoice.number}.pdf"`);
    const bytes = new Uint8Array(await english.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const text = await pdfText(bytes);
    for (const expected of [
      'SALES INVOICE', invoice.number, 'Sine Bisaya (SAMPLE — not a registered seller)', 'VAT Reg. TIN: 000-000-000-00000', 'SAMPLE — not a registered seller. Not valid for tax purposes.',
      'Billed to: Juan Dela Cruz', `Email: ${PREMIUM}`, 'TIN: 123-456-789-00000', 'Premium subscription renewal, Monthly plan ₱99.00',
      'VATable sales ₱88.39', 'VAT (12%) ₱10.61', 'Total ₱99.00', 'Payment method: Visa •••• 1381', `Reference: ${invoice.referenceId}`, 'Prices are VAT-inclusive.',
    ]) expect(text, expected).toContain(expected);
    expect(text).not.toContain('Resibo');

    const bisaya = await pdfText(new Uint8Array(await (await pdfOf(PREMIUM, invoice.id, 'ceb')).arrayBuffer()));
    for (const expected of [
      'SALES INVOICE / Resibo sa Pagbaligya', invoice.number, 'VAT Reg. TIN / TIN nga rehistrado sa VAT: 000-000-000-00000', 'Billed to / Gisingil kang: Juan Dela Cruz',
      'Pag-renew sa Premium subscription, Binulan nga plan ₱99.00', 'VATable sales / VATable nga baligya ₱88.39', 'VAT (12%) ₱10.61', 'Total / Kinatibuk-an ₱99.00',
    ]) expect(bisaya, expected).toContain(expected);
  });

  it("a refund of a paid payment (in Maya's dashboard) gets a credit memo naming the invoice, with its own number", async () => {
    const sub = await latestSubscription(server, PREMIUM);
    await server.setClock(at(sub.end_date, MINUTE));
    expect(await renewSubscription(deps, sub.id)).toBe('renewed');
    const invoice = (await invoices(PREMIUM)).data.items[0];
    const memosBefore = await seriesLast('CREDIT_MEMO');
    const payment = (await server.db.query<{ id: string }>(`SELECT id FROM sandbox_payments WHERE status = 'PAYMENT_SUCCESS'`)).rows[0]!;
    await deps.gateway.refundPayment(payment.id, { totalAmount: { amount: 99, currency: 'PHP' }, reason: 'Goodwill, from the dashboard' });
    expect((await deliverWebhook(server, payment.id)).status).toBe(200);
    // A second delivery changes nothing.
    expect((await deliverWebhook(server, payment.id)).status).toBe(200);

    const items = (await invoices(PREMIUM)).data.items;
    const memo = items.find((d: { kind: string }) => d.kind === 'CREDIT_MEMO');
    expect(items.filter((d: { kind: string }) => d.kind === 'CREDIT_MEMO')).toHaveLength(1);
    expect(memo).toMatchObject({
      number: `SB-CM-${String(memosBefore + 1).padStart(8, '0')}`, invoiceId: invoice.id, invoiceNumber: invoice.number, paymentId: invoice.paymentId,
      vatableSales: '88.39', vat: '10.61', total: '99.00',
    });
    expect(items[0].id).toBe(memo.id);
    expect(await seriesLast('CREDIT_MEMO')).toBe(memosBefore + 1);
    const text = await pdfText(new Uint8Array(await (await pdfOf(PREMIUM, memo.id, 'en')).arrayBuffer()));
    for (const expected of ['CREDIT MEMO', memo.number, `Credits invoice: ${invoice.number} (${invoice.id})`, 'Total credited ₱99.00']) expect(text, expected).toContain(expected);
    await expectDocumented();
  });

  it('are never edited or deleted: the database refuses', async () => {
    const invoice = (await invoices(PREMIUM)).data.items[0];
    await expect(server.db.query(`UPDATE tax_documents SET total = 1 WHERE id = $1`, [invoice.id])).rejects.toThrow(/never edited or deleted/);
    await expect(server.db.query(`DELETE FROM tax_documents WHERE id = $1`, [invoice.id])).rejects.toThrow(/never edited or deleted/);
    await expect(server.db.query(`DELETE FROM payment_records WHERE id = $1`, [invoice.paymentId])).rejects.toThrow();
    expect((await invoices(PREMIUM)).data.items[0]).toEqual(invoice);
  });

  it('a rolled-back transaction gives its number back', async () => {
    const failed = (await server.db.query<{ id: string }>(
      `SELECT r.id FROM payment_records r JOIN users u ON u.id = r.user_id WHERE u.email = $1 AND r.status = 'PAYMENT_FAILED' LIMIT 1`, [PREMIUM])).rows[0]!;
    const before = await seriesLast('INVOICE');
    await expect(server.db.transaction(async (tx) => {
      await tx.query(`UPDATE payment_records SET status = 'PAYMENT_SUCCESS' WHERE id = $1`, [failed.id]);
      expect(await issueInvoice(tx, failed.id)).toMatch(/./);
      throw new Error('fault after the number was taken');
    })).rejects.toThrow('fault after the number was taken');
    expect(await seriesLast('INVOICE')).toBe(before);
    expect((await server.db.query('SELECT 1 FROM tax_documents WHERE payment_record_id = $1', [failed.id])).rows).toEqual([]);
    // The next invoice takes that number.
    await buyMonthlyByCard(FREE);
    expect(await seriesLast('INVOICE')).toBe(before + 1);
  });
});

describe("the buyer's TIN", () => {
  const put = async (body: Record<string, unknown>, lang = 'en') =>
    server.call('PUT', `${V1}/account/profile`, { token: await server.tokenOf(FREE), body: { firstName: 'Maria', lastName: 'Santos', ...body }, headers: { 'Accept-Language': lang } });

  it('is taken in the form 000-000-000-00000 (branch 3 to 5 digits), kept when absent, removed when empty, and named on invoices after', async () => {
    for (const bad of ['123456789', '123-456-789', '123-456-789-12', '123-456-789-123456', 'abc-def-ghi-jkl', ' 123-456-789-0000x']) {
      const refused = await put({ tin: bad });
      expect(refused.status, bad).toBe(400);
      expect(refused.json.message, bad).toBe('Enter your TIN as 000-000-000-00000 (a branch code of 3 to 5 digits).');
    }
    expect((await put({ tin: '123' }, 'ceb')).json.message).toBe('Isulod ang imong TIN sama niini: 000-000-000-00000 (3 hangtod 5 ka numero ang branch code).');
    expect((await put({ tin: ' 123-456-789-000 ' })).json.data.tin).toBe('123-456-789-000');
    expect((await put({})).json.data.tin).toBe('123-456-789-000');
    expect((await server.as(FREE).get('/account/profile')).json.data.tin).toBe('123-456-789-000');
    expect((await put({ tin: '' })).json.data.tin).toBeNull();
    expect((await put({ tin: '987-654-321-00001' })).json.data.tin).toBe('987-654-321-00001');

    const record = await buyMonthlyByCard(FREE);
    const invoice = (await server.as(FREE).get(`/payment/invoices/by-payment/${record.id}`)).json.data;
    expect(invoice.buyer).toEqual({ name: 'Maria Santos', email: FREE, tin: '987-654-321-00001' });
    // A snapshot: a later change of the TIN does not change an issued invoice.
    await put({ tin: null });
    expect((await server.as(FREE).get(`/payment/invoices/${invoice.id}`)).json.data.buyer.tin).toBe('987-654-321-00001');
  });
});
