/**
 * The invoices and credit memos list on /subscription (issue 34), apart from invoice.format.ts so the
 * subscription page does not carry the invoice page's words (bundle budget).
 */
import type { TaxDocument } from '../../api/schemas';
import { m } from '../../i18n';
import { formatDate } from '../../lib/dates';
import { formatInvoiceAmount } from '../../lib/vat';

export const documentKindLabel = (kind: TaxDocument['kind']) => (kind === 'INVOICE' ? m.invoice() : m.credit_memo());

/** The invoices list on /subscription: number, kind, date and total of each document, newest first. */
export function invoiceListRows(docs: readonly TaxDocument[]) {
  return [...docs]
    .sort((a, b) => Date.parse(b.issuedAt) - Date.parse(a.issuedAt) || b.number.localeCompare(a.number))
    .map((doc) => ({
      id: doc.id,
      kind: documentKindLabel(doc.kind),
      number: doc.number,
      date: formatDate(doc.issuedAt),
      description: doc.description,
      total: formatInvoiceAmount(doc.total, doc.currency),
      memo: doc.kind === 'CREDIT_MEMO',
    }));
}
