/**
 * Addresses of invoices (issue 34), apart from route-paths.ts, which the landing loads: only the
 * signed-in pages that link to an invoice carry them (bundle budget).
 */
import { receiptPath, routes } from './route-paths';

/** The address of an invoice's or credit memo's page. */
export const invoicePath = (documentId: string) => routes.invoice.replace(':id', encodeURIComponent(documentId));

/** Where a payment's paper is: its invoice when it has one, else its receipt (a payment made before invoices). */
export const paymentPaperPath = (payment: { id: string; invoiceId?: string | null }) => (payment.invoiceId ? invoicePath(payment.invoiceId) : receiptPath(payment.id));
