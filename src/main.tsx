import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createActor, waitFor } from 'xstate';
import { createHttp } from './api/http';
import { applyDocumentLanguage, currentLocale } from './i18n';
import { INSPECT_STORAGE_KEY, inspectMode } from './lib/inspectMode';
import { sessionMachine } from './machines/session/session.machine';
import './styles/global.css';
import { darkTheme } from './styles/theme.css';
import { App, loadPageCode } from './views/App';
import { notify } from './views/Toasts';
import { readThemeChoice, resolveThemeClass } from './views/useTheme';

/** How long the first render of a signed-in page waits for the page's code (issue 21). */
const PAGE_CODE_WAIT_MS = 1000;

async function boot() {
  // Theme before first paint, so a light-theme viewer never sees a dark flash.
  document.documentElement.classList.add(resolveThemeClass(readThemeChoice()) || darkTheme);
  // The page was served in the language the server read (the `lang` cookie, then Accept-Language);
  // the app renders in the one the browser chose (the same order): if they differ, it renders afresh.
  const servedIn = document.documentElement.lang;
  applyDocumentLanguage();

  // QA's inspectors (src/lib/inspector.ts), loaded only when asked for; the flag stays in the address.
  const mode = inspectMode(window.location.search, import.meta.env.VITE_INSPECT, storedInspectMode());
  const inspectors = mode ? await import('./lib/inspector') : null;
  if (mode) inspectors?.keepInspectFlag(mode);
  const inspect =
    mode === 'local'
      ? (await import('./inspector')).startLocalInspector().inspect
      : mode === 'stately' && inspectors
        ? await inspectors.startInspector(() => void notify('error', inspectors.STATELY_BLOCKED_MESSAGE, 'inspector'))
        : undefined;

  // Created once at start-up (product.md#state-ownership), provided to every view.
  const session = createActor(sessionMachine, { inspect }).start();
  const http = createHttp({
    host: import.meta.env.VITE_API_HOST ?? '',
    getToken: () => session.getSnapshot().context.token,
    onUnauthorized: () => session.send({ type: 'session.unauthorized' }),
  });

  const app = (
    <StrictMode>
      <App services={{ http, session }} overrides={inspect ? { inspect } : {}} />
    </StrictMode>
  );
  // The public routes come prerendered for a first-time guest (issue 10, scripts/build/prerender.ts):
  // such a guest hydrates that HTML; anyone the page would differ for (signed in, welcomed back, a
  // query the HTML did not have) gets a fresh render instead of a hydration mismatch.
  const container = document.getElementById('root')!;
  await waitFor(session, (s) => !s.matches('loading'));
  const asPrerendered = session.getSnapshot().matches('signedOut') && !session.getSnapshot().context.welcomeBack;
  if (container.firstChild && asPrerendered && servedIn === currentLocale() && !window.location.search && !inspect) {
    // Let the browser paint the prerendered page first (a frame), then hydrate.
    await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    hydrateRoot(container, app);
    releaseWhenHydrated(container);
  } else {
    // A signed-in viewer's page code (preloaded by the boot script on the pages it knows) before the first
    // render, so the page renders at once with its data instead of after a loading fallback (issue 21);
    // waited for a second at most, so a slow network still gets the header and the loading state. A
    // prerendered page stays on screen meanwhile.
    if (session.getSnapshot().matches('signedIn')) {
      await Promise.race([loadPageCode(window.location.pathname), new Promise((resolve) => setTimeout(resolve, PAGE_CODE_WAIT_MS))]);
    }
    container.textContent = '';
    createRoot(container).render(app);
    document.documentElement.setAttribute('data-ready', '');
  }
}

/**
 * The prerendered page's form controls stay disabled (scripts/build/prerender.ts, boot script) until
 * React has hydrated them (its lazy page included); then each gets its own state back, and
 * <html data-ready> lets forms submit.
 */
function releaseWhenHydrated(container: HTMLElement) {
  const locked = [...container.querySelectorAll<HTMLInputElement>('[data-boot-lock]')];
  const hydrated = (element: Element) => Object.keys(element).some((key) => key.startsWith('__reactFiber$'));
  const release = () => {
    if (!locked.every((element) => !element.isConnected || hydrated(element))) {
      requestAnimationFrame(release);
      return;
    }
    for (const element of locked) {
      element.disabled = element.getAttribute('data-boot-lock') === '1';
      element.removeAttribute('data-boot-lock');
    }
    document.documentElement.setAttribute('data-ready', '');
  };
  release();
}

function storedInspectMode(): string | null {
  try {
    return localStorage.getItem(INSPECT_STORAGE_KEY);
  } catch {
    return null;
  }
}

void boot();
