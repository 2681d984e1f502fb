/**
 * The invoice reads (issue 34), apart from queries.ts, which the landing loads: only the signed-in pages
 * that show invoices carry them (bundle budget). Their keys stay in queryKeys (invalidated with the payments).
 */
import { queryOptions } from '@tanstack/react-query';
import type { Api } from './endpoints';
import { queryKeys } from './queries';

/** The viewer's invoices and credit memos (issue 34), refreshed with the payments list (its key is under theirs). */
export const invoicesQuery = (api: Api) =>
  queryOptions({ queryKey: queryKeys.invoices, queryFn: ({ signal }) => api.listInvoices(signal) });

/** The invoice of one payment (an old receipt link names the payment); never retried: a payment without one has its receipt. */
export const invoiceOfPaymentQuery = (api: Api, paymentId: string) =>
  queryOptions({ queryKey: ['payment', 'invoice-of', paymentId] as const, queryFn: ({ signal }) => api.invoiceByPayment(paymentId, signal), staleTime: Infinity, retry: false });

/** An issued document never changes (the database refuses): read once per visit. */
export const invoiceQuery = (api: Api, id: string) =>
  queryOptions({ queryKey: queryKeys.invoice(id), queryFn: ({ signal }) => api.getInvoice(id, signal), staleTime: Infinity });
