/**
 * "Download my data" on /account (issue 36, product.md#data-export): the viewer asks for a copy of
 * everything we hold about them; a job prepares it (within a minute) while the page waits; once ready,
 * each file (JSON, or a readable HTML page) is downloaded with a single-use link asked for at the press,
 * fetched with the session (never a bare address), and handed to the browser. The copy is offered for
 * 24 hours; after that, or if preparing failed, the viewer asks again.
 */
import { assign, setup } from 'xstate';
import type { DataExportFormat, DataExportState } from '../../api/schemas';
import { m } from '../../i18n';
import { notProvided, placeholder } from '../actors';
import { errorMessageOf, type Text } from '../shared';

export interface DataExportContext {
  /** When the ready copy stops being offered (ISO). */
  expiresAt: string | null;
  format: DataExportFormat | null;
  token: string | null;
  error: Text | null;
}

export type DataExportEvent =
  | { type: 'export.request' }
  | { type: 'export.download'; format: DataExportFormat }
  | { type: 'export.retry' };

/**
 * What a settled offer (offered, saved, failed) answers: a download, or a new copy. While a file is on
 * its way (linking, downloading) the buttons wait, as the view shows them (disabled).
 */
const offerEvents = {
  'export.download': { target: 'linking', actions: { type: 'assignFormat', params: ({ event }: { event: { format: DataExportFormat } }) => ({ format: event.format }) } },
  'export.request': { target: '#dataExport.starting' },
} as const;

export const dataExportMachine = setup({
  types: {
    context: {} as DataExportContext,
    events: {} as DataExportEvent,
  },
  actors: {
    getDataExport: notProvided<'getDataExport'>('getDataExport'),
    startDataExport: notProvided<'startDataExport'>('startDataExport'),
    /** Asks for the export's state until it is no longer being prepared (the view's implementation polls). */
    watchDataExport: placeholder<DataExportState>('watchDataExport'),
    dataExportLink: notProvided<'dataExportLink'>('dataExportLink'),
    downloadDataExport: notProvided<'downloadDataExport'>('downloadDataExport'),
  },
  guards: {
    isPreparing: (_, params: { state: DataExportState }) => params.state.state === 'PREPARING',
    isReady: (_, params: { state: DataExportState }) => params.state.state === 'READY',
    isExpired: (_, params: { state: DataExportState }) => params.state.state === 'EXPIRED',
    isFailed: (_, params: { state: DataExportState }) => params.state.state === 'FAILED',
  },
  actions: {
    assignExport: assign((_, params: { state: DataExportState }) => ({ expiresAt: params.state.expiresAt, error: null })),
    assignError: assign((_, params: { message: Text }) => ({ error: params.message })),
    assignFormat: assign((_, params: { format: DataExportFormat }) => ({ format: params.format, token: null, error: null })),
    assignToken: assign((_, params: { token: string }) => ({ token: params.token })),
    forgetToken: assign({ token: null }),
    /** The view hands the file to the browser's downloads. */
    saveFile: (_, _params: { blob: Blob; format: DataExportFormat }) => {},
  },
}).createMachine({
  id: 'dataExport',
  description:
    'On /account, Download my data asks for a copy of everything held about the viewer; a job prepares it while the page waits; once ready the JSON file or the readable page is downloaded with a single-use link, for 24 hours.',
  meta: {
    title: 'Download my data',
    events: {
      'export.request': 'The person presses Prepare my data (or Prepare a new copy)',
      'export.download': 'The person presses Download (JSON) or Download (readable page)',
      'export.retry': 'The person presses Try again after the state could not be read',
    },
  },
  context: { expiresAt: null, format: null, token: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      description: 'Reading the state of the latest copy',
      meta: { screen: '/account' },
      invoke: {
        id: 'getDataExport',
        src: 'getDataExport',
        onDone: [
          { guard: { type: 'isPreparing', params: ({ event }) => ({ state: event.output }) }, target: 'preparing' },
          { guard: { type: 'isReady', params: ({ event }) => ({ state: event.output }) }, target: 'ready', actions: { type: 'assignExport', params: ({ event }) => ({ state: event.output }) } },
          { guard: { type: 'isExpired', params: ({ event }) => ({ state: event.output }) }, target: 'idle.expired' },
          { guard: { type: 'isFailed', params: ({ event }) => ({ state: event.output }) }, target: 'idle.failed', actions: { type: 'assignError', params: { message: m.we_could_not_prepare_your_data } } },
          { target: 'idle' },
        ],
        onError: { target: 'loadFailed', actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessageOf(event) }) } },
      },
    },
    loadFailed: {
      description: 'The state could not be read; Try again',
      on: { 'export.retry': 'loading' },
    },
    idle: {
      description: 'No copy on offer: Prepare my data',
      initial: 'fresh',
      states: {
        fresh: { description: 'Never asked for, or the offer was replaced' },
        expired: { description: 'The last copy was offered for 24 hours and is gone' },
        failed: { description: 'Preparing or asking failed: the reason, and Prepare my data again' },
      },
      on: { 'export.request': 'starting' },
    },
    starting: {
      description: 'Asking for a copy',
      invoke: {
        id: 'startDataExport',
        src: 'startDataExport',
        onDone: [
          { guard: { type: 'isReady', params: ({ event }) => ({ state: event.output }) }, target: 'ready', actions: { type: 'assignExport', params: ({ event }) => ({ state: event.output }) } },
          { target: 'preparing' },
        ],
        onError: { target: 'idle.failed', actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessageOf(event) }) } },
      },
    },
    preparing: {
      description: 'A job is preparing the copy (within a minute); the page waits',
      invoke: {
        id: 'watchDataExport',
        src: 'watchDataExport',
        onDone: [
          { guard: { type: 'isReady', params: ({ event }) => ({ state: event.output }) }, target: 'ready', actions: { type: 'assignExport', params: ({ event }) => ({ state: event.output }) } },
          { target: 'idle.failed', actions: { type: 'assignError', params: { message: m.we_could_not_prepare_your_data } } },
        ],
        onError: { target: 'idle.failed', actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessageOf(event) }) } },
      },
    },
    ready: {
      description: 'The copy is ready: download the JSON file or the readable page, until it expires',
      initial: 'offered',
      states: {
        offered: { description: 'Both downloads offered, and until when', on: offerEvents },
        linking: {
          description: 'Asking for a single-use link for the file',
          invoke: {
            id: 'dataExportLink',
            src: 'dataExportLink',
            input: ({ context }) => ({ format: context.format! }),
            onDone: { target: 'downloading', actions: { type: 'assignToken', params: ({ event }) => ({ token: event.output.token }) } },
            onError: { target: 'failed', actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessageOf(event) }) } },
          },
        },
        downloading: {
          description: 'Fetching the file with the session and the link',
          exit: 'forgetToken',
          invoke: {
            id: 'downloadDataExport',
            src: 'downloadDataExport',
            input: ({ context }) => ({ token: context.token! }),
            onDone: { target: 'saved', actions: { type: 'saveFile', params: ({ context, event }) => ({ blob: event.output, format: context.format! }) } },
            onError: { target: 'failed', actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessageOf(event) }) } },
          },
        },
        saved: { description: 'Saved: the page says the file went to the downloads', on: offerEvents },
        failed: { description: 'The download failed: why, and the buttons again', on: offerEvents },
      },
    },
  },
});

export type DataExportMachine = typeof dataExportMachine;
