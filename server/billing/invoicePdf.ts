/**
 * An invoice or credit memo as a PDF (issue 34, product.md#invoices), made with pdfkit: maintained,
 * runs in Node without a browser, and embeds (subsets) a TrueType font, which the peso sign needs
 * (U+20B1 is in none of the 14 standard PDF fonts): DejaVu Sans (server/billing/fonts, its licence
 * beside it). In the reader's language with the English labels the BIR requires: an English PDF
 * has the English alone, a Bisaya one the English first and the Bisaya beside ("SALES INVOICE / Resibo sa
 * Pagbaligya"). Dates are Manila dates, written by the app's formatter (src/lib/dates.ts).
 */
import PDFDocument from 'pdfkit';
import { join } from 'node:path';
import type { TaxDocument } from '../../src/api/schemas';
import { formatDate } from '../../src/lib/dates';
import { DISPLAY_TIME_ZONE } from '../../src/lib/product';
import { formatInvoiceAmount, VAT_RATE_PERCENT } from '../../src/lib/vat';
import type { Language } from '../platform/language';
import { translate } from '../platform/translate';

const FONTS = join(import.meta.dirname, 'fonts');
const REGULAR = join(FONTS, 'DejaVuSans.ttf');
const BOLD = join(FONTS, 'DejaVuSans-Bold.ttf');

/** The PDF's English words (catalog messages: their Bisaya is written beside them on a Bisaya PDF). */
export const PDF_LABELS = {
  invoice: 'SALES INVOICE',
  memo: 'CREDIT MEMO',
  sample: 'SAMPLE — not a registered seller. Not valid for tax purposes.',
  tin: 'VAT Reg. TIN',
  invoiceNumber: 'Invoice No.',
  memoNumber: 'Credit Memo No.',
  datePaid: 'Date paid',
  dateIssued: 'Date issued',
  creditsInvoice: 'Credits invoice',
  billedTo: 'Billed to',
  email: 'Email',
  buyerTin: 'TIN',
  description: 'Description',
  period: 'Period',
  amount: 'Amount',
  vatable: 'VATable sales',
  vat: `VAT (${VAT_RATE_PERCENT}%)`,
  total: 'Total',
  totalCredited: 'Total credited',
  method: 'Payment method',
  reference: 'Reference',
  mayaId: 'Maya payment ID',
  vatIncluded: 'Prices are VAT-inclusive.',
} as const;

const METHOD_NAMES: Record<TaxDocument['paymentMethod'], string> = {
  MAYA_VAULT: 'Card', MAYA_WALLET: 'Maya Wallet', MAYA_CHECKOUT: 'Maya Checkout', VOUCHER: 'Voucher',
};

/** English first, then the reader's language beside it when it reads otherwise. */
function bilingual(english: string, language: Language): string {
  const other = translate(english, language);
  return other === english ? english : `${english} / ${other}`;
}

/** The document as a PDF file's bytes. `doc` is the contract's shape, its words already in `language`. */
export async function invoicePdf(doc: TaxDocument, language: Language): Promise<Buffer> {
  const label = (key: keyof typeof PDF_LABELS) => bilingual(PDF_LABELS[key], language);
  const day = (iso: string) => formatDate(iso, DISPLAY_TIME_ZONE, language);
  const money = (amount: string) => formatInvoiceAmount(amount, doc.currency);
  const memo = doc.kind === 'CREDIT_MEMO';
  const pdf = new PDFDocument({
    size: 'A4', margin: 50, font: REGULAR,
    info: {
      Title: `${memo ? PDF_LABELS.memo : PDF_LABELS.invoice} ${doc.number}`, Author: doc.seller.name, Subject: doc.description,
      CreationDate: new Date(doc.issuedAt),
    },
    lang: language === 'ceb' ? 'ceb' : 'en',
  });
  pdf.registerFont('regular', REGULAR);
  pdf.registerFont('bold', BOLD);
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  const left = pdf.page.margins.left;
  const width = pdf.page.width - left - pdf.page.margins.right;
  const rule = () => {
    pdf.moveDown(0.5);
    pdf.moveTo(left, pdf.y).lineTo(left + width, pdf.y).lineWidth(0.5).strokeColor('#999999').stroke();
    pdf.moveDown(0.5);
  };
  /** A label and its value on one line (the value on the right for money). */
  const line = (name: string, value: string, options: { right?: boolean; bold?: boolean } = {}) => {
    const y = pdf.y;
    pdf.font(options.bold ? 'bold' : 'regular').fontSize(10).fillColor('#000000');
    if (options.right) {
      pdf.text(name, left, y, { width: width * 0.65 });
      const after = pdf.y;
      pdf.text(value, left + width * 0.65, y, { width: width * 0.35, align: 'right' });
      pdf.y = Math.max(after, pdf.y);
    } else {
      pdf.text(`${name}: ${value}`, left, y, { width });
    }
    pdf.x = left;
  };

  // Heading: the kind and the number.
  pdf.font('bold').fontSize(16).text(label(memo ? 'memo' : 'invoice'), { width });
  pdf.font('regular').fontSize(12).text(doc.number, { width });
  if (doc.seller.sample) {
    pdf.moveDown(0.5);
    pdf.font('bold').fontSize(11).fillColor('#b00020').text(label('sample'), { width });
    pdf.fillColor('#000000');
  }
  pdf.moveDown(0.8);
  // The seller.
  pdf.font('bold').fontSize(11).text(doc.seller.name, { width });
  pdf.font('regular').fontSize(10);
  pdf.text(`${label('tin')}: ${doc.seller.tin}`, { width });
  pdf.text(doc.seller.address, { width });
  rule();
  // The document.
  line(label(memo ? 'memoNumber' : 'invoiceNumber'), doc.number);
  line(label(memo ? 'dateIssued' : 'datePaid'), day(doc.issuedAt));
  if (memo && doc.invoiceNumber) line(label('creditsInvoice'), `${doc.invoiceNumber} (${doc.invoiceId})`);
  line(label('billedTo'), doc.buyer.name);
  line(label('email'), doc.buyer.email);
  if (doc.buyer.tin) line(label('buyerTin'), doc.buyer.tin);
  rule();
  // What was sold.
  line(label('description'), label('amount'), { right: true, bold: true });
  pdf.moveDown(0.3);
  line(doc.description, money(doc.total), { right: true });
  if (doc.periodStart && doc.periodEnd) line(label('period'), `${day(doc.periodStart)} – ${day(doc.periodEnd)}`);
  rule();
  line(label('vatable'), money(doc.vatableSales), { right: true });
  line(label('vat'), money(doc.vat), { right: true });
  line(label(memo ? 'totalCredited' : 'total'), money(doc.total), { right: true, bold: true });
  rule();
  const method = doc.card ? `${doc.card.type} •••• ${doc.card.last4}` : translate(METHOD_NAMES[doc.paymentMethod], language);
  line(label('method'), method);
  line(label('reference'), doc.referenceId);
  if (doc.mayaPaymentId) line(label('mayaId'), doc.mayaPaymentId);
  pdf.moveDown(0.8);
  pdf.font('regular').fontSize(9).fillColor('#444444').text(label('vatIncluded'), { width });
  pdf.end();
  return done;
}
