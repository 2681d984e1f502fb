import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createActor, waitFor } from 'xstate';
import { createLazyApi } from './api/lazyApi';
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
  const api = createLazyApi(http);

  const app = (
    <StrictMode>
      <App services={{ http, api, session }} overrides={inspect ? { inspect } : {}} />
    </StrictMode>
  );
  // The public routes come prerendered for a guest (issue 10, scripts/build/prerender.ts): a guest
  // hydrates that HTML; a signed-in viewer, or a URL with a query the guest HTML did not have,
  // gets a fresh render instead of a hydration mismatch.
  const container = document.getElementById('root')!;
  await waitFor(session, (s) => !s.matches('loading'));
  if (container.firstChild && session.getSnapshot().matches('signedOut') && !window.location.search && !inspect) {
    // Let the browser paint the prerendered page first (a frame), then hydrate.
    await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    hydrateRoot(container, app);
  } else {
    container.textContent = '';
    createRoot(container).render(app);
  }
}

void boot();
