/**
 * An invoice's or credit memo's lines, as the PDF and a BIR auditor read them (issue 34, product.md#invoices):
 * the seller, the buyer, what was sold and for which period, VATable sales, VAT 12% and the total, the
 * method and Maya's reference. Amounts to the centavo (₱88.39), as on the PDF.
 */
import type { TaxDocument } from '../../api/schemas';
import { m } from '../../i18n';
import { formatDate, formatDateTime } from '../../lib/dates';
import { formatInvoiceAmount } from '../../lib/vat';
import { receiptMethod } from './receipt.format';

export interface InvoiceView {
  /** The page's heading: 'Invoice' or 'Credit memo'. */
  heading: string;
  /** The document's own label, as on the PDF: 'SALES INVOICE' (Bisaya: 'Resibo sa Pagbaligya'), or the credit memo's. */
  title: string;
  number: string;
  seller: { name: string; tin: string; address: string };
  /** The sample seller of the embedded default: said on the page as on the PDF. */
  sample: string | null;
  rows: Array<{ label: string; value: string }>;
  amounts: Array<{ label: string; value: string }>;
  total: { label: string; value: string };
  /** A credit memo names the invoice it credits (its page). */
  credits: { number: string; id: string } | null;
  note: string;
  file: string;
}

export function invoiceView(doc: TaxDocument): InvoiceView {
  const memo = doc.kind === 'CREDIT_MEMO';
  const period = doc.periodStart && doc.periodEnd ? m.to({ start: formatDate(doc.periodStart), end: formatDate(doc.periodEnd) }) : null;
  const rows: InvoiceView['rows'] = [
    { label: memo ? m.invoice_pdf_credit_memo_no() : m.invoice_pdf_invoice_no(), value: doc.number },
    { label: m.invoice_pdf_date_issued(), value: formatDateTime(doc.issuedAt) },
    ...(memo && doc.invoiceNumber ? [{ label: m.invoice_pdf_credits_invoice(), value: doc.invoiceNumber }] : []),
    { label: m.billed_to(), value: `${doc.buyer.name} (${doc.buyer.email})${doc.buyer.tin ? ` · ${m.buyer_tin_value({ tin: doc.buyer.tin })}` : ''}` },
    { label: m.invoice_pdf_description(), value: doc.description },
    ...(period ? [{ label: m.period(), value: period }] : []),
    { label: m.payment_method_2(), value: receiptMethod(doc.paymentMethod, doc.card) },
    { label: m.reference(), value: doc.referenceId },
    ...(doc.mayaPaymentId ? [{ label: m.invoice_pdf_maya_payment_id(), value: doc.mayaPaymentId }] : []),
  ];
  return {
    heading: memo ? m.credit_memo() : m.invoice(),
    title: memo ? m.invoice_pdf_credit_memo() : m.invoice_pdf_sales_invoice(),
    number: doc.number,
    seller: { name: doc.seller.name, tin: m.vat_reg_tin_value({ tin: doc.seller.tin }), address: doc.seller.address },
    sample: doc.seller.sample ? m.invoice_pdf_sample() : null,
    rows,
    amounts: [
      { label: m.invoice_pdf_vatable_sales(), value: formatInvoiceAmount(doc.vatableSales, doc.currency) },
      { label: m.invoice_pdf_vat(), value: formatInvoiceAmount(doc.vat, doc.currency) },
    ],
    total: { label: memo ? m.invoice_pdf_total_credited() : m.invoice_pdf_total(), value: formatInvoiceAmount(doc.total, doc.currency) },
    credits: memo && doc.invoiceId && doc.invoiceNumber ? { number: doc.invoiceNumber, id: doc.invoiceId } : null,
    note: m.invoice_pdf_prices_vat_inclusive(),
    file: `${doc.number}.pdf`,
  };
}
