/**
 * The sales book (issue 34, product.md#invoices): invoices and credit memos issued in a range of Manila
 * dates, one row each, memos negative, and a totals row equal to the sum of the rows.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renewSubscription, type RenewalDeps } from '../../../server/billing/renewals';
import { manilaDayStart, salesBook, salesBookCsv, SALES_BOOK_HEADER } from '../../../server/billing/salesBook';
import { toCentavos } from '../../../src/lib/vat';
import { SERVER_START_TIMEOUT_MS, type BillingServer } from '../support/billing-helpers';
import { at, deliverWebhook, latestSubscription, MINUTE, PREMIUM, resetSeams, startSeamsServer } from '../support/seams-harness';

let server: BillingServer;
let deps: RenewalDeps;
beforeAll(async () => {
  ({ server, deps } = await startSeamsServer());
}, SERVER_START_TIMEOUT_MS);
beforeEach(() => resetSeams(server));

/** A CSV line's cells (the book's own quoting: "…" with "" inside). */
const cells = (line: string) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((m) => m[1]!.replace(/^"|"$/g, '').replace(/""/g, '"')).slice(0, SALES_BOOK_HEADER.length);

describe('the sales book', () => {
  it('lists every document of the range once, a credit memo negative, and totals that equal the sum of the rows', async () => {
    // A renewal, then its refund in Maya's dashboard: an invoice and its credit memo.
    const sub = await latestSubscription(server, PREMIUM);
    await server.setClock(at(sub.end_date, MINUTE));
    expect(await renewSubscription(deps, sub.id)).toBe('renewed');
    const payment = (await server.db.query<{ id: string }>(`SELECT id FROM sandbox_payments WHERE status = 'PAYMENT_SUCCESS'`)).rows[0]!;
    await deps.gateway.refundPayment(payment.id, { totalAmount: { amount: 99, currency: 'PHP' }, reason: 'Goodwill' });
    expect((await deliverWebhook(server, payment.id)).status).toBe(200);

    const all = (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM tax_documents')).rows[0]!.n;
    expect(all).toBe(8); // six seeded invoices, the renewal's, its memo
    const book = await salesBook(server.db, '2000-01-01', '2100-12-31');
    expect(book.rows).toHaveLength(all);
    expect(new Set(book.rows.map((r) => r.number)).size).toBe(all);
    const memo = book.rows.find((r) => r.kind === 'CREDIT_MEMO')!;
    expect(memo).toMatchObject({ vatable: '-88.39', vat: '-10.61', total: '-99.00', buyerName: 'Juan Dela Cruz' });
    expect(memo.invoiceNumber).toMatch(/^SB-INV-\d{8}$/);
    const sum = (key: 'vatable' | 'vat' | 'total') => book.rows.reduce((n, r) => n + toCentavos(r[key].replace('-', '')) * (r[key].startsWith('-') ? -1 : 1), 0);
    expect(toCentavos(book.totals.total)).toBe(sum('total'));
    expect(toCentavos(book.totals.vatable)).toBe(sum('vatable'));
    expect(toCentavos(book.totals.vat)).toBe(sum('vat'));
    // Seven invoices of ₱99 less one credited: six.
    expect(book.totals).toEqual({ vatable: (6 * 88.39).toFixed(2), vat: (6 * 10.61).toFixed(2), total: '594.00' });

    const csv = salesBookCsv(book).split('\r\n');
    expect(csv.at(-1)).toBe('');
    expect(cells(csv[0]!)).toEqual(SALES_BOOK_HEADER);
    expect(csv).toHaveLength(all + 3); // header, rows, totals, the final line break
    const totalsLine = cells(csv[all + 1]!);
    expect(totalsLine.slice(6, 9)).toEqual([book.totals.vatable, book.totals.vat, book.totals.total]);
    const csvSum = csv.slice(1, all + 1).reduce((n, line) => n + Math.round(Number(cells(line)[8]) * 100), 0);
    expect(csvSum).toBe(toCentavos(book.totals.total));
  });

  it('takes Manila dates: a document belongs to the Manila day it was issued on', async () => {
    expect(manilaDayStart('2026-11-01').toISOString()).toBe('2026-10-31T16:00:00.000Z');
    const documents = (await server.db.query<{ issued_at: Date }>('SELECT issued_at FROM tax_documents ORDER BY issued_at')).rows;
    const first = documents[0]!.issued_at;
    const manilaDay = new Date(first.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
    const dayBefore = new Date(first.getTime() + 8 * 3600_000 - 86_400_000).toISOString().slice(0, 10);
    expect((await salesBook(server.db, manilaDay, manilaDay)).rows.map((r) => r.date)).toContain(manilaDay);
    expect((await salesBook(server.db, '2000-01-01', dayBefore)).rows).toEqual([]);
    expect((await salesBook(server.db, '2000-01-01', dayBefore)).totals).toEqual({ vatable: '0.00', vat: '0.00', total: '0.00' });
    await expect(salesBook(server.db, '2026-11-31', '2026-12-01')).rejects.toThrow('Not a date');
    await expect(salesBook(server.db, '2026-12-01', '2026-11-01')).rejects.toThrow('ends');
  });

  it('never lets a cell be read as a formula, and quotes what must be quoted', async () => {
    const csv = salesBookCsv({
      from: '2026-11-01', to: '2026-11-30', totals: { vatable: '88.39', vat: '10.61', total: '99.00' },
      rows: [{ date: '2026-11-02', number: 'SB-INV-00000001', kind: 'INVOICE', buyerName: '=HYPERLINK("x")', buyerTin: '', description: 'Premium, "Monthly"', vatable: '88.39', vat: '10.61', total: '99.00', invoiceNumber: '' }],
    });
    expect(csv.split('\r\n')[1]).toBe(`2026-11-02,SB-INV-00000001,INVOICE,"'=HYPERLINK(""x"")",,"Premium, ""Monthly""",88.39,10.61,99.00,`);
  });
});
