/** What the invoice page's Download PDF shows (issue 34); pure. */
import type { SnapshotFrom } from 'xstate';
import { m } from '../../i18n';
import type { InvoicePdfEvent, InvoicePdfMachine, InvoicePdfRequest } from './invoicePdf.machine';

export interface InvoicePdfView {
  label: string;
  busy: boolean;
  /** Said after a download ('SB-INV-00000001.pdf is saved to your downloads.'), in a status region. */
  saved: string | null;
  error: string | null;
  download: () => void;
}

export function connectInvoicePdf(snapshot: SnapshotFrom<InvoicePdfMachine>, send: (event: InvoicePdfEvent) => void, request: InvoicePdfRequest): InvoicePdfView {
  const busy = snapshot.matches('downloading');
  return {
    label: busy ? m.downloading_pdf() : m.download_pdf(),
    busy,
    saved: snapshot.matches('saved') ? m.pdf_saved({ file: snapshot.context.request?.file ?? request.file }) : null,
    error: snapshot.matches('failed') ? m.the_pdf_could_not_be_downloaded({ reason: snapshot.context.error ?? '' }) : null,
    download: () => send({ type: 'pdf.download', ...request }),
  };
}
