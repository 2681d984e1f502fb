/**
 * Download an invoice's or credit memo's PDF (issue 34, product.md#invoices): the PDF is asked for in
 * the page's language (its legally required labels in English beside it); the file is handed to the
 * browser to save, and the page says where it went; a failure is said beside the button, which stays
 * there to try again.
 */
import { assign, setup } from 'xstate';
import { notProvided } from '../actors';
import { errorMessageOf } from '../shared';

export interface InvoicePdfRequest {
  id: string;
  lang: 'en' | 'ceb';
  /** The file's name ('SB-INV-00000001.pdf'). */
  file: string;
}

export interface InvoicePdfContext {
  request: InvoicePdfRequest | null;
  error: string | null;
}

export type InvoicePdfEvent = { type: 'pdf.download' } & InvoicePdfRequest;

export const invoicePdfMachine = setup({
  types: {
    context: {} as InvoicePdfContext,
    events: {} as InvoicePdfEvent,
  },
  actors: {
    downloadInvoicePdf: notProvided<'downloadInvoicePdf'>('downloadInvoicePdf'),
  },
  actions: {
    assignRequest: assign(({ event }) => ({ request: { id: event.id, lang: event.lang, file: event.file }, error: null })),
    assignError: assign((_, params: { message: string }) => ({ error: params.message })),
    /** The view hands the file to the browser (an object URL and a download link). */
    saveFile: (_, _params: { blob: Blob; file: string }) => {},
  },
}).createMachine({
  id: 'invoicePdf',
  description:
    'On an invoice page, Download PDF asks the server for the PDF in the page language; the file is saved by the browser and the page says so; a failure is shown beside the button.',
  meta: {
    title: 'Download an invoice PDF',
    events: {
      'pdf.download': 'The person presses Download PDF',
    },
  },
  context: { request: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      description: 'The invoice with Download PDF',
      meta: { screen: '/subscription/invoices/:id' },
      on: { 'pdf.download': { target: 'downloading', actions: 'assignRequest' } },
    },
    downloading: {
      description: 'Asking for the PDF',
      invoke: {
        id: 'downloadInvoicePdf',
        src: 'downloadInvoicePdf',
        input: ({ context }) => ({ id: context.request!.id, lang: context.request!.lang }),
        onDone: {
          target: 'saved',
          actions: { type: 'saveFile', params: ({ context, event }) => ({ blob: event.output, file: context.request!.file }) },
        },
        onError: {
          target: 'failed',
          actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessageOf(event) }) },
        },
      },
    },
    saved: {
      description: 'Saved: the page says the file went to the downloads',
      on: { 'pdf.download': { target: 'downloading', actions: 'assignRequest' } },
    },
    failed: {
      description: 'Showing why the PDF could not be downloaded',
      on: { 'pdf.download': { target: 'downloading', actions: 'assignRequest' } },
    },
  },
});

export type InvoicePdfMachine = typeof invoicePdfMachine;
