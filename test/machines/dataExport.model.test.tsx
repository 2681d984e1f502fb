/** The dataExport flow (issue 36): "Download my data" on the account page, walked on the real view. */
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, expect, vi } from 'vitest';
import { ApiError } from '../../src/api/http';
import type { DataExportState } from '../../src/api/schemas';
import { dataExportMachine } from '../../src/machines/dataExport/dataExport.machine';
import { renderAccount } from '../support/account';
import { describeModel } from '../support/model';

const card = () => within(screen.getByRole('region', { name: 'Your data' }));
const state = (value: DataExportState['state']): DataExportState => ({
  state: value, requestedAt: '2026-11-27T07:00:00.000Z',
  readyAt: value === 'READY' ? '2026-11-27T07:00:20.000Z' : null, expiresAt: value === 'READY' ? '2026-11-28T07:00:20.000Z' : null,
});
const REFUSED = 'This download link has been used or has expired. Ask for a new one.';
const saved: Array<{ file: string; href: string }> = [];
/** How many files were saved when the last download began. */
let savedBefore = 0;
/** Set when Prepare is pressed; the ready offer then checks where focus went (cleared on every other look). */
let asked = false;

beforeAll(() => {
  // jsdom has no object URLs and no downloads: the page's hand-over is recorded instead.
  URL.createObjectURL = vi.fn(() => 'blob:data');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ file: this.download, href: this.getAttribute('href') ?? '' });
  });
});

describeModel('dataExport', {
  machine: dataExportMachine,
  events: {
    'export.request': [{ type: 'export.request' }],
    'export.download': [{ type: 'export.download', format: 'json' }, { type: 'export.download', format: 'html' }],
    'export.retry': [{ type: 'export.retry' }],
  },
  invocations: {
    getDataExport: { done: [state('NONE'), state('PREPARING'), state('READY'), state('EXPIRED'), state('FAILED')], error: [new Error('Network error')] },
    startDataExport: { done: [state('PREPARING'), state('READY')], error: [new ApiError('Too many requests', 429)] },
    watchDataExport: { done: [state('READY'), state('FAILED')], error: [new Error('Network error')] },
    dataExportLink: { done: [{ token: 'one-time-token', expiresAt: '2026-11-27T07:05:00.000Z' }], error: [new ApiError('Your data is not ready to download.', 409)] },
    downloadDataExport: { done: [new Blob(['{}'], { type: 'application/json' })], error: [new ApiError(REFUSED, 404)] },
  },
  render: (tools) => {
    asked = false;
    return renderAccount(tools);
  },
  executors: {
    'export.request': async (run) => {
      const button = card().queryByRole('button', { name: 'Prepare my data' }) ?? card().getByRole('button', { name: 'Prepare a new copy' });
      await run.user.click(button);
      asked = true;
    },
    'export.download': async (run, event, tools) => {
      const asked = tools.actors.inputs('dataExportLink').length;
      await run.user.click(card().getByRole('button', { name: event.format === 'json' ? 'Download (JSON)' : 'Download (readable page)' }));
      // The link asked for is for the file pressed.
      await waitFor(() => expect(tools.actors.inputs('dataExportLink').slice(asked)).toEqual([{ format: event.format }]));
    },
    'export.retry': async (run) => run.user.click(card().getByRole('button', { name: 'Try again' })),
  },
  states: {
    loading: () => {
      expect(card().getAllByRole('status')[0]).toHaveTextContent('Checking for a copy of your data…');
      expect(card().queryByRole('button')).not.toBeInTheDocument();
    },
    loadFailed: () => {
      expect(card().getByRole('alert')).toHaveTextContent('Network error');
      expect(card().getByRole('button', { name: 'Try again' })).toBeEnabled();
    },
    'idle.fresh': () => {
      expect(card().getByRole('button', { name: 'Prepare my data' })).toBeEnabled();
      expect(card().queryByRole('alert')).not.toBeInTheDocument();
      expect(card().queryByText(/has expired/)).not.toBeInTheDocument();
    },
    'idle.expired': () => {
      expect(card().getByText('Your last copy was offered for 24 hours and has expired. Prepare a new one.')).toBeInTheDocument();
      expect(card().getByRole('button', { name: 'Prepare my data' })).toBeEnabled();
    },
    'idle.failed': () => {
      expect(card().getByRole('alert')).toHaveTextContent(/We could not prepare your data\. Please try again\.|Too many requests|Network error/);
      expect(card().getByRole('button', { name: 'Prepare my data' })).toBeEnabled();
    },
    starting: () => {
      expect(card().getAllByRole('status')[0]).toHaveTextContent('Preparing your data… This takes up to a minute.');
      expect(card().getByRole('button', { name: 'Prepare my data' })).toBeDisabled();
    },
    preparing: () => {
      expect(card().getAllByRole('status')[0]).toHaveTextContent('Preparing your data… This takes up to a minute.');
      expect(card().getByRole('button', { name: 'Prepare my data' })).toHaveAttribute('aria-busy', 'true');
    },
    'ready.offered': async () => {
      // Asked for on this visit and waited for: focus is on the download once it is there.
      if (asked) await waitFor(() => expect(card().getByRole('button', { name: 'Download (JSON)' })).toHaveFocus());
      asked = false;
      // Said in the card's one status line, so the change from 'Preparing…' is announced.
      expect(card().getAllByRole('status')[0]).toHaveTextContent(/^Your copy is ready until 11\/28\/2026 3:00 pm\. Each download link works once\.$/);
      expect(card().getByRole('button', { name: 'Download (JSON)' })).toBeEnabled();
      expect(card().getByRole('button', { name: 'Download (readable page)' })).toBeEnabled();
      expect(card().queryByRole('alert')).not.toBeInTheDocument();
    },
    'ready.linking': () => {
      expect(card().getByRole('button', { name: 'Downloading...' })).toHaveAttribute('aria-busy', 'true');
      expect(card().getByRole('button', { name: 'Prepare a new copy' })).toBeDisabled();
    },
    'ready.downloading': (_, snapshot) => {
      expect(card().getByRole('button', { name: 'Downloading...' })).toBeDisabled();
      // Fetched with the one-time token of the link just asked for.
      expect(snapshot.context.token).toBe('one-time-token');
      savedBefore = saved.length;
    },
    'ready.saved': async (_, snapshot) => {
      expect(card().getByText('Your data is saved to your downloads.')).toBeInTheDocument();
      // The download code comes on demand (a dynamic import): the file is handed over a moment later.
      await waitFor(() => expect(saved.length).toBe(savedBefore + 1));
      expect(saved.at(-1)).toEqual({ file: `sine-bisaya-data.${snapshot.context.format}`, href: 'blob:data' });
      expect(snapshot.context.token).toBeNull();
    },
    'ready.failed': () => {
      expect(card().getByRole('alert')).toHaveTextContent(/Your data is not ready to download\.|This download link has been used or has expired/);
      expect(card().getByRole('button', { name: 'Download (JSON)' })).toBeEnabled();
    },
  },
});
