/**
 * The sales book (issue 34, product.md#invoices): every invoice and credit memo issued in a range of
 * Manila dates, one row each in the order issued, then a totals row equal to the rows' sums. A credit
 * memo's amounts are written negative here (the documents themselves carry positive amounts), so the
 * totals are the period's net sales. For now a command (`npm run sales-book`), later the console.
 */
import { MANILA_OFFSET_MS } from '../../src/lib/product';
import { fromCentavos, toCentavos } from '../../src/lib/vat';
import type { Queryable } from '../platform/db';

export interface SalesBookRow {
  /** The Manila date issued, YYYY-MM-DD. */
  date: string;
  number: string;
  kind: 'INVOICE' | 'CREDIT_MEMO';
  buyerName: string;
  buyerTin: string;
  description: string;
  vatable: string;
  vat: string;
  total: string;
  /** A credit memo: the invoice it credits. */
  invoiceNumber: string;
}

export interface SalesBook {
  from: string;
  to: string;
  rows: SalesBookRow[];
  totals: { vatable: string; vat: string; total: string };
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A Manila calendar day's first instant (UTC): 2026-11-01 → 2026-10-31T16:00:00Z. */
export function manilaDayStart(day: string): Date {
  const match = DAY.exec(day);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  if (!date || date.toISOString().slice(0, 10) !== day) throw new Error(`Not a date (YYYY-MM-DD): "${day}"`);
  return new Date(date.getTime() - MANILA_OFFSET_MS);
}

const manilaDate = (at: Date) => new Date(at.getTime() + MANILA_OFFSET_MS).toISOString().slice(0, 10);

/** The documents issued from `from` to `to` (Manila dates, both included). */
export async function salesBook(q: Queryable, from: string, to: string): Promise<SalesBook> {
  const start = manilaDayStart(from);
  const end = new Date(manilaDayStart(to).getTime() + 24 * 60 * 60 * 1000);
  if (end <= start) throw new Error(`The range ends (${to}) before it starts (${from})`);
  const found = await q.query<{
    issued_at: Date; number: string; kind: 'INVOICE' | 'CREDIT_MEMO'; buyer_name: string; buyer_tin: string | null; description: string;
    vatable: string; vat: string; total: string; invoice_number: string | null;
  }>(
    `SELECT d.issued_at, d.number, d.kind, d.buyer_name, d.buyer_tin, d.description, d.vatable::text AS vatable, d.vat::text AS vat, d.total::text AS total,
       (SELECT i.number FROM tax_documents i WHERE i.id = d.invoice_id) AS invoice_number
     FROM tax_documents d WHERE d.issued_at >= $1 AND d.issued_at < $2 ORDER BY d.issued_at, d.kind DESC, d.serial`,
    [start, end],
  );
  const sums = { vatable: 0, vat: 0, total: 0 };
  const rows = found.rows.map((row): SalesBookRow => {
    const sign = row.kind === 'CREDIT_MEMO' ? -1 : 1;
    const cents = { vatable: sign * toCentavos(row.vatable), vat: sign * toCentavos(row.vat), total: sign * toCentavos(row.total) };
    sums.vatable += cents.vatable;
    sums.vat += cents.vat;
    sums.total += cents.total;
    return {
      date: manilaDate(row.issued_at), number: row.number, kind: row.kind, buyerName: row.buyer_name, buyerTin: row.buyer_tin ?? '', description: row.description,
      vatable: fromCentavos(cents.vatable), vat: fromCentavos(cents.vat), total: fromCentavos(cents.total), invoiceNumber: row.invoice_number ?? '',
    };
  });
  return { from, to, rows, totals: { vatable: fromCentavos(sums.vatable), vat: fromCentavos(sums.vat), total: fromCentavos(sums.total) } };
}

export const SALES_BOOK_HEADER = ['Date', 'Number', 'Kind', 'Buyer name', 'Buyer TIN', 'Description', 'VATable sales', 'VAT', 'Total', 'Invoice credited'];

/** A text cell: quoted when it must be, and never read as a formula by a spreadsheet (a leading = + - @ gets a '). */
function cell(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The book as CSV (RFC 4180, CRLF): the header, a row per document, and the totals row. */
export function salesBookCsv(book: SalesBook): string {
  const lines = [SALES_BOOK_HEADER.map(cell).join(',')];
  for (const row of book.rows) {
    lines.push([
      cell(row.date), cell(row.number), cell(row.kind), cell(row.buyerName), cell(row.buyerTin), cell(row.description),
      row.vatable, row.vat, row.total, cell(row.invoiceNumber),
    ].join(','));
  }
  lines.push([cell(`Total ${book.from} to ${book.to}`), cell(`${book.rows.length} documents`), '', '', '', '', book.totals.vatable, book.totals.vat, book.totals.total, ''].join(','));
  return `${lines.join('\r\n')}\r\n`;
}
