/**
 * The offline inspector (issue 12), loaded by src/main.tsx only when `?inspect=local` or the stored
 * toggle asks for it: a store fed by XState's inspection API, and its panel in a root of its own,
 * outside the app's tree, so it survives every navigation and never re-renders the app.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { INSPECT_PARAM, INSPECT_STORAGE_KEY } from '../lib/inspector';
import { Panel } from './Panel';
import { createInspectorStore } from './store';

export function startLocalInspector(doc: Document = document) {
  const store = createInspectorStore();
  const host = doc.createElement('div');
  host.id = 'inspector-root';
  doc.body.appendChild(host);

  const turnOff = () => {
    try {
      localStorage.removeItem(INSPECT_STORAGE_KEY);
    } catch {
      // Nothing stored.
    }
    const url = new URL(window.location.href);
    url.searchParams.set(INSPECT_PARAM, 'off');
    window.location.replace(url);
  };

  createRoot(host).render(
    <StrictMode>
      <Panel store={store} onTurnOff={turnOff} />
    </StrictMode>,
  );
  return { inspect: store.inspect, store };
}
