import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createActor } from 'xstate';
import { createHttp } from './api/http';
import { inspectorRequested, startInspector } from './lib/inspector';
import { sessionMachine } from './machines/session/session.machine';
import './styles/global.css';
import { darkTheme } from './styles/theme.css';
import { App } from './views/App';
import { readThemeChoice, resolveThemeClass } from './views/useTheme';

async function boot() {
  // Theme before first paint, so a light-theme viewer never sees a dark flash.
  document.documentElement.classList.add(resolveThemeClass(readThemeChoice()) || darkTheme);

  const inspect = inspectorRequested(window.location.search, import.meta.env.VITE_INSPECT)
    ? await startInspector()
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

void boot();
