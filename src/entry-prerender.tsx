/**
 * Build-time prerendering (issue 10; run by scripts/build/prerender.ts in Node, never shipped): the
 * public routes as a guest sees them, waiting for their lazy pages, so they paint before JavaScript.
 * The client hydrates the same tree (src/main.tsx) with the same guest session.
 */
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { createActor, waitFor } from 'xstate';
import { createHttp } from './api/http';
import { documentTitleFor } from './views/routeTable';
import { sessionMachine } from './machines/session/session.machine';
import { darkTheme, lightTheme } from './styles/theme.css';
import { App } from './views/App';
import { m, overwriteGetLocale, type Locale } from './i18n';

export { darkTheme, lightTheme };
export { STORAGE_KEYS } from './lib/storage';
export { EARLY_ROUTES } from './api/earlyReads';
export { DISPLAY_TIME_ZONE } from './lib/product';

export { PRERENDERED_ROUTES } from './views/routeTable';

/** The words of index.html itself, in a language (the page's description and the skip link). */
export function documentTexts(locale: Locale): { description: string; skipLink: string } {
  return { description: m.sine_bisaya_stream_bisaya_language({}, { locale }), skipLink: m.skip_to_content({}, { locale }) };
}

/** Renders a route as a guest sees it, in a language (messages are read while rendering). */
export async function renderRoute(path: string, locale: Locale = 'en'): Promise<{ html: string; title: string }> {
  overwriteGetLocale(() => locale);
  const session = createActor(sessionMachine).start();
  await waitFor(session, (s) => !s.matches('loading'));
  const http = createHttp({ host: '', getToken: () => null, onUnauthorized: () => {} });
  const { prelude } = await prerender(
    <StrictMode>
      <App services={{ http, session }} ssrPath={path} />
    </StrictMode>,
  );
  const html = await new Response(prelude).text();
  session.stop();
  return { html, title: documentTitleFor(path) };
}
