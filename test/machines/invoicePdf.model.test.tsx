/** The invoicePdf flow (issue 34): Download PDF on the invoice page, walked on the real view. */
import { screen, waitFor } from '@testing-library/react';
import { beforeAll, expect, vi } from 'vitest';
import { Route } from 'wouter';
import { ApiError } from '../../src/api/http';
import { routes } from '../../src/lib/route-paths';
import { invoicePdfMachine } from '../../src/machines/invoicePdf/invoicePdf.machine';
import InvoicePage from '../../src/views/pages/InvoicePage';
import { describeModel } from '../support/model';
import { fakeServer, invoiceDoc, renderSubscriptionView } from '../support/subscription';

const FILE = 'SB-INV-00000003.pdf';
const REFUSED = 'We could not find this invoice.';
/** What the page handed to the browser's downloads: each link's file name and address. */
const saved: Array<{ file: string; href: string }> = [];
/** How many files were saved when the last download began. */
let savedBefore = 0;

beforeAll(() => {
  // jsdom has no object URLs and no downloads: the page's hand-over is recorded instead.
  URL.createObjectURL = vi.fn(() => 'blob:invoice');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ file: this.download, href: this.getAttribute('href') ?? '' });
  });
});

const button = (name: string) => screen.getByRole('button', { name });

describeModel('invoicePdf', {
  machine: invoicePdfMachine,
  events: {
    'pdf.download': [{ type: 'pdf.download', id: 'inv-3', lang: 'en', file: FILE }],
  },
  invocations: {
    downloadInvoicePdf: { done: [new Blob(['%PDF-1.7'], { type: 'application/pdf' })], error: [new ApiError(REFUSED, 404)] },
  },
  render: ({ actors, inspect }) => {
    const server = fakeServer();
    server.invoices = [invoiceDoc('inv-3', 'p-3', 'SB-INV-00000003')];
    return renderSubscriptionView(<Route path={routes.invoice}><InvoicePage /></Route>, {
      path: '/subscription/invoices/inv-3', server, overrides: { actors: actors.actors, inspect },
    });
  },
  executors: {
    'pdf.download': async (run, event, tools) => {
      const asked = tools.actors.inputs('downloadInvoicePdf').length;
      await run.user.click(await screen.findByRole('button', { name: 'Download PDF' }, { timeout: 5000 }));
      // The PDF asked for is this invoice's, in the page's language.
      await waitFor(() => expect(tools.actors.inputs('downloadInvoicePdf').slice(asked)).toEqual([{ id: event.id, lang: event.lang }]));
    },
  },
  states: {
    idle: async () => {
      expect(await screen.findByRole('button', { name: 'Download PDF' }, { timeout: 5000 })).toBeEnabled();
      expect(screen.getByRole('status', { name: '' })).toBeEmptyDOMElement();
      expect(screen.queryByText(/could not be downloaded/)).not.toBeInTheDocument();
    },
    downloading: () => {
      expect(button('Downloading PDF...')).toBeDisabled();
      expect(button('Downloading PDF...')).toHaveAttribute('aria-busy', 'true');
      savedBefore = saved.length;
    },
    saved: async () => {
      expect(await screen.findByText(`${FILE} is saved to your downloads.`)).toBeInTheDocument();
      // The download code comes on demand (a dynamic import): the file is handed over a moment later.
      await waitFor(() => expect(saved.length).toBe(savedBefore + 1));
      expect(saved.at(-1)).toEqual({ file: FILE, href: 'blob:invoice' });
      expect(button('Download PDF')).toBeEnabled();
    },
    failed: async () => {
      expect(await screen.findByRole('alert')).toHaveTextContent(`The PDF could not be downloaded: ${REFUSED}`);
      expect(button('Download PDF')).toBeEnabled();
    },
  },
});
