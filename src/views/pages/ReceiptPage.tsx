/**
 * A successful payment's receipt (issue 19, beyond the spec): merchant, who paid, plan, period,
 * method, reference, date and amount, as the server keeps them. "Print or save as PDF" uses the
 * browser's print dialog (every browser saves a page as PDF there), printing the receipt alone.
 * A payment with an invoice (issue 34: every payment since invoices) goes to its invoice page: old
 * receipt links keep working.
 */
import { useQuery } from '@tanstack/react-query';
import { Link, Redirect, useParams } from 'wouter';
import { invoiceOfPaymentQuery } from '../../api/invoiceQueries';
import { receiptQuery } from '../../api/queries';
import { m } from '../../i18n';
import { invoicePath } from '../../lib/invoice-paths';
import { routes } from '../../lib/route-paths';
import { receiptView } from './receipt.format';
import { button, card, detailLabel, detailRow, details, detailValue, heading, muted, mediumPage } from '../../styles/ui.css';
import { LoadError } from '../parts/LoadError';
import { useApi } from '../useApi';
import * as css from './receipt.css';
import * as sub from './subscription.css';

export default function ReceiptPage() {
  const { id = '' } = useParams<{ id: string }>();
  const api = useApi();
  const invoice = useQuery(invoiceOfPaymentQuery(api, id));
  // Only a payment without an invoice (made before invoices) is shown as a receipt.
  const receipt = useQuery({ ...receiptQuery(api, id), enabled: invoice.isError });
  const view = receipt.data ? receiptView(receipt.data) : null;
  if (invoice.data) return <Redirect to={invoicePath(invoice.data.id)} replace />;
  return (
    <div className={mediumPage}>
      <Link href={routes.subscription} className={`${sub.backLink} ${css.screenOnly}`}>{m.back_to_subscription()}</Link>
      <article className={`${card} ${css.receipt}`} aria-labelledby="receipt-title">
        <h1 id="receipt-title" className={heading}>{m.receipt()}</h1>
        {(invoice.isPending || receipt.isPending) && !receipt.isError && <p role="status" className={muted}>{m.loading_your_receipt()}</p>}
        <LoadError error={receipt.error} retry={receipt.refetch} className={css.screenOnly} />
        {view && (
          <>
            <p className={css.merchant}>
              <strong>{view.merchant}</strong>
              <span className={muted}>{view.merchantUrl}</span>
            </p>
            <dl className={details}>
              {view.rows.map((row) => (
                <div key={row.label} className={detailRow}>
                  <dt className={detailLabel}>{row.label}</dt>
                  <dd className={detailValue}>{row.value}</dd>
                </div>
              ))}
              <div className={`${detailRow} ${css.totalRow}`}>
                <dt className={detailLabel}>{m.amount_paid()}</dt>
                <dd className={`${detailValue} ${css.total}`}>{view.total}</dd>
              </div>
            </dl>
            <div className={css.screenOnly}>
              <button type="button" className={button.primary} onClick={() => window.print()}>{m.print_or_save_as_pdf()}</button>
            </div>
          </>
        )}
      </article>
    </div>
  );
}
