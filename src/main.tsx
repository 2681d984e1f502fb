import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createActor } from 'xstate';
import { createHttp } from './api/http';
import { INSPECT_STORAGE_KEY, STATELY_BLOCKED_MESSAGE, inspectMode, keepInspectFlag, startInspector } from './lib/inspector';
import { sessionMachine } from './machines/session/session.machine';
import './styles/global.css';
import { darkTheme } from './styles/theme.css';
import { App } from './views/App';
import { notify } from './views/Toasts';
import { readThemeChoice, resolveThemeClass } from './views/useTheme';

async function boot() {
  // Theme before first paint, so a light-theme viewer never sees a dark flash.
  document.documentElement.classList.add(resolveThemeClass(readThemeChoice()) || darkTheme);

  // QA's inspectors (src/lib/inspector.ts), loaded only when asked for; the flag stays in the address.
  const mode = inspectMode(window.location.search, import.meta.env.VITE_INSPECT, storedInspectMode());
  if (mode) keepInspectFlag(mode);
  const inspect =
    mode === 'local'
      ? (await import('./inspector')).startLocalInspector().inspect
      : mode === 'stately'
        ? await startInspector(() => void notify('error', STATELY_BLOCKED_MESSAGE, 'inspector'))
        : undefined;

  // Created once at start-up (design: the session actor), provided to every view.
  const session = createActor(sessionMachine, { inspect }).start();
  const http = createHttp({
    host: import.meta.env.VITE_API_HOST ?? '',
    getToken: () => session.getSnapshot().context.token,
    onUnauthorized: () => session.send({ type: 'session.unauthorized' }),
  });

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App services={{ http, session }} overrides={inspect ? { inspect } : {}} />
    </StrictMode>,
  );
}

function storedInspectMode(): string | null {
  try {
    return localStorage.getItem(INSPECT_STORAGE_KEY);
  } catch {
    return null;
  }
}

void boot();
