/** What the account page's "Download my data" shows (issue 36); pure. */
import type { SnapshotFrom } from 'xstate';
import type { DataExportFormat } from '../../api/schemas';
import { formatDateTime } from '../../lib/dates';
import { m } from '../../i18n';
import { textOf } from '../shared';
import type { DataExportEvent, DataExportMachine } from './dataExport.machine';

export type DataExportPhase = 'loading' | 'loadFailed' | 'idle' | 'preparing' | 'ready';

export function connectDataExport(snapshot: SnapshotFrom<DataExportMachine>, send: (event: DataExportEvent) => void) {
  const { context } = snapshot;
  const phase: DataExportPhase = snapshot.matches('loading')
    ? 'loading'
    : snapshot.matches('loadFailed')
      ? 'loadFailed'
      : snapshot.matches('ready')
        ? 'ready'
        : snapshot.matches('preparing') || snapshot.matches('starting')
          ? 'preparing'
          : 'idle';
  const busyFormat = snapshot.matches({ ready: 'linking' }) || snapshot.matches({ ready: 'downloading' }) ? context.format : null;
  const failed = snapshot.matches({ idle: 'failed' }) || snapshot.matches({ ready: 'failed' }) || snapshot.matches('loadFailed');
  return {
    phase,
    starting: snapshot.matches('starting'),
    expired: snapshot.matches({ idle: 'expired' }),
    /** Until when the ready copy is offered, written in the reader's language. */
    offeredUntil: context.expiresAt ? formatDateTime(context.expiresAt) : null,
    busyFormat,
    saved: snapshot.matches({ ready: 'saved' }) ? m.your_data_is_saved_to_your_downloads() : null,
    error: failed && context.error ? textOf(context.error) : null,
    request: () => send({ type: 'export.request' }),
    download: (format: DataExportFormat) => send({ type: 'export.download', format }),
    retry: () => send({ type: 'export.retry' }),
  };
}
