/**
 * An invoice or credit memo (issue 34, product.md#invoices), as the server issued it and will never
 * change it: seller, buyer, what was sold and for which period, VATable sales, VAT 12% and the total.
 * "Download PDF" asks for the PDF in the page's language (the invoicePdf flow); "Print" prints the page.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { invoiceQuery } from '../../api/invoiceQueries';
import { currentLocale, m } from '../../i18n';
import { invoicePath } from '../../lib/invoice-paths';
import { routes } from '../../lib/route-paths';
import { fromCall } from '../../machines/actors';
import { connectInvoicePdf, invoicePdfMachine, type InvoicePdfRequest } from '../../machines/invoicePdf';
import { button, card, detailLabel, detailRow, details, detailValue, heading, muted, mediumPage } from '../../styles/ui.css';
import { ErrorBox } from '../parts/ErrorBox';
import { LoadError } from '../parts/LoadError';
import { useApi } from '../useApi';
import { useConnect, useFlow } from '../useFlow';
import { invoiceView, type InvoiceView } from './invoice.format';
import * as css from './receipt.css';
import * as sub from './subscription.css';

/** The download code comes when a file is saved (it is shared by pages that would otherwise list it in the landing's preload map). */
const saveLater = (blob: Blob, name: string) => void import('../saveFile').then(({ saveFile }) => saveFile(blob, name));

function PdfButton({ request }: { request: InvoicePdfRequest }) {
  const api = useApi();
  const [actors] = useState(() => ({ downloadInvoicePdf: fromCall(api.downloadInvoicePdf) }));
  const flow = useFlow(invoicePdfMachine, { actors, actions: { saveFile: (_, { blob, file }) => saveLater(blob, file) } });
  const view = useConnect(flow, connectInvoicePdf, request);
  return (
    <>
      <button type="button" className={button.primary} disabled={view.busy} aria-busy={view.busy} onClick={view.download}>{view.label}</button>
      <p role="status" className={muted}>{view.saved}</p>
      {view.error && <ErrorBox message={view.error} />}
    </>
  );
}

function Document({ view, id }: { view: InvoiceView; id: string }) {
  return (
    <>
      <p className={css.merchant}>
        <span className={muted}>{m.sold_by()}</span>
        <strong>{view.seller.name}</strong>
        <span>{view.seller.tin}</span>
        <span>{view.seller.address}</span>
      </p>
      {view.sample && <p className={css.sample}>{view.sample}</p>}
      <dl className={details}>
        {view.rows.map((row) => (
          <div key={row.label} className={detailRow}>
            <dt className={detailLabel}>{row.label}</dt>
            <dd className={detailValue}>{row.value}</dd>
          </div>
        ))}
        {view.amounts.map((row) => (
          <div key={row.label} className={`${detailRow} ${row === view.amounts[0] ? css.totalRow : ''}`}>
            <dt className={detailLabel}>{row.label}</dt>
            <dd className={detailValue}>{row.value}</dd>
          </div>
        ))}
        <div className={detailRow}>
          <dt className={detailLabel}>{view.total.label}</dt>
          <dd className={`${detailValue} ${css.total}`}>{view.total.value}</dd>
        </div>
      </dl>
      <p className={muted}>{view.note}</p>
      {view.credits && (
        <p className={css.screenOnly}>
          <Link href={invoicePath(view.credits.id)}>{m.document_number({ kind: m.invoice(), number: view.credits.number })}</Link>
        </p>
      )}
      <div className={`${css.screenOnly} ${css.actions}`}>
        <PdfButton request={{ id, lang: currentLocale() === 'ceb' ? 'ceb' : 'en', file: view.file }} />
        <button type="button" className={button.secondary} onClick={() => window.print()}>{m.print()}</button>
      </div>
    </>
  );
}

export default function InvoicePage() {
  const { id = '' } = useParams<{ id: string }>();
  const api = useApi();
  const doc = useQuery(invoiceQuery(api, id));
  const view = doc.data ? invoiceView(doc.data) : null;
  return (
    <div className={mediumPage}>
      <Link href={routes.subscription} className={`${sub.backLink} ${css.screenOnly}`}>{m.back_to_subscription()}</Link>
      <article className={`${card} ${css.receipt}`} aria-labelledby="invoice-title">
        <h1 id="invoice-title" className={heading}>{view ? view.heading : m.invoice()}</h1>
        {view && <p className={css.documentNumber}>{view.title} · <strong>{view.number}</strong></p>}
        {doc.isPending && <p role="status" className={muted}>{m.loading_your_invoice()}</p>}
        <LoadError error={doc.error} retry={doc.refetch} className={css.screenOnly} />
        {view && <Document view={view} id={id} />}
      </article>
    </div>
  );
}
