/**
 * "Download my data" on /account (issue 36, product.md#data-export): the dataExport flow. Each file is
 * fetched with the session and a single-use link, as a blob, and handed to the browser's downloads.
 */
import { useEffect, useRef, useState } from 'react';
import { fromPromise } from 'xstate';
import type { Api } from '../../../api/endpoints';
import type { DataExportState } from '../../../api/schemas';
import { m } from '../../../i18n';
import { fromCall } from '../../../machines/actors';
import { connectDataExport, dataExportMachine } from '../../../machines/dataExport';
import { button, card, muted } from '../../../styles/ui.css';
import { ErrorBox } from '../../parts/ErrorBox';
import { useApi } from '../../useApi';
import { useConnect, useFlow } from '../../useFlow';
import * as css from '../account.css';
import { actions } from './accountData.css';

/** The download code comes when a file is saved (it is shared by pages that would otherwise list it in the landing's preload map). */
const saveLater = (blob: Blob, name: string) => void import('../../saveFile').then(({ saveFile }) => saveFile(blob, name));

/** How often the page asks whether the copy is ready. */
export const EXPORT_POLL_MS = 2000;

/** Asks for the export's state until it is no longer being prepared. */
function watchExport(api: Api) {
  return async ({ signal }: { signal: AbortSignal }): Promise<DataExportState> => {
    for (;;) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, EXPORT_POLL_MS);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason);
        }, { once: true });
      });
      const state = await api.getDataExport(signal);
      if (state.state !== 'PREPARING') return state;
    }
  };
}

function actorsFor(api: Api) {
  return {
    getDataExport: fromCall(api.getDataExport),
    startDataExport: fromCall(api.startDataExport),
    watchDataExport: fromPromise<DataExportState>(({ signal }) => watchExport(api)({ signal })),
    dataExportLink: fromCall(api.dataExportLink),
    downloadDataExport: fromCall(api.downloadDataExport),
  };
}

const fileName = (format: 'json' | 'html') => `sine-bisaya-data.${format}`;

export default function DataSection() {
  const api = useApi();
  const [actors] = useState(() => actorsFor(api));
  const flow = useFlow(dataExportMachine, { actors, actions: { saveFile: (_, { blob, format }) => saveLater(blob, fileName(format)) } });
  const view = useConnect(flow, connectDataExport);
  const busy = view.busyFormat !== null;
  // When the copy the person asked for becomes ready while they wait (focus on the disabled button, or
  // lost with it), focus goes to the download.
  const firstDownload = useRef<HTMLButtonElement>(null);
  const lastPhase = useRef(view.phase);
  const asked = useRef(false);
  const request = () => {
    asked.current = true;
    view.request();
  };
  useEffect(() => {
    const waited = lastPhase.current === 'preparing';
    lastPhase.current = view.phase;
    const focusLost = document.activeElement === document.body || document.activeElement?.hasAttribute('disabled');
    if (asked.current && waited && view.phase === 'ready' && focusLost) firstDownload.current?.focus();
  }, [view.phase]);
  // One status line, always there, so each change of phase is announced (a live region added with its text may not be).
  const status =
    view.phase === 'loading' ? m.checking_for_a_copy_of_your_data()
    : view.phase === 'preparing' ? m.preparing_your_data()
    : view.phase === 'ready' ? m.your_copy_is_ready_until({ date: view.offeredUntil ?? '' })
    : '';
  return (
    <section className={card} aria-labelledby="data-title">
      <h2 id="data-title" className={css.cardTitle}>{m.your_data()}</h2>
      <p>{m.download_my_data_intro()}</p>
      <p role="status">{status}</p>
      {view.error && <ErrorBox message={view.error} />}
      {view.phase === 'loadFailed' && <button type="button" className={button.secondary} onClick={view.retry}>{m.try_again()}</button>}
      {view.expired && <p className={muted}>{m.your_last_copy_expired()}</p>}
      {view.phase === 'idle' && <button type="button" className={button.primary} onClick={request}>{m.prepare_my_data()}</button>}
      {view.phase === 'preparing' && <button type="button" className={button.primary} disabled aria-busy="true">{m.prepare_my_data()}</button>}
      {view.phase === 'ready' && (
        <>
          <div className={actions}>
            {(['json', 'html'] as const).map((format) => (
              <button
                key={format} ref={format === 'json' ? firstDownload : undefined} type="button" className={format === 'json' ? button.primary : button.secondary}
                disabled={busy} aria-busy={view.busyFormat === format} onClick={() => view.download(format)}
              >
                {view.busyFormat === format ? m.downloading_your_data() : format === 'json' ? m.download_json() : m.download_readable_page()}
              </button>
            ))}
          </div>
          <p role="status" className={muted}>{view.saved}</p>
          <button type="button" className={button.secondary} disabled={busy} onClick={request}>{m.prepare_a_new_copy()}</button>
        </>
      )}
    </section>
  );
}
