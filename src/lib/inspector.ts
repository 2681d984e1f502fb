/**
 * The opt-in inspectors for QA (issue 12):
 * - `?inspect=local` (or the panel's stored toggle): the offline panel in src/inspector, loaded only
 *   then, never in a route's bundle;
 * - `?inspect` (any other value, or VITE_INSPECT=true at build time): the Stately inspector in a
 *   popup, where there is internet; a toast says so when its window cannot open.
 * Once on, the flag stays in the address across the app's navigation (and a reload keeps it).
 * Everything either inspector shows is passed through maskSecrets first: no password, code, token or
 * card leaves.
 */
import type { InspectionEvent } from 'xstate';
import { maskSecrets } from './mask';

export { INSPECT_PARAM, INSPECT_STORAGE_KEY, inspectMode, type InspectMode } from './inspectMode';
import { INSPECT_PARAM, inspectMode, type InspectMode } from './inspectMode';

export const STATELY_BLOCKED_MESSAGE =
  'The Stately inspector could not open its window (pop-ups blocked or offline). Allow pop-ups, or use ?inspect=local for the offline inspector.';

export function inspectorRequested(search: string, flag: string | undefined): boolean {
  return inspectMode(search, flag, null) !== null;
}

/** The same address with the inspector's flag in it (kept as it is when already there). */
export function withInspectFlag(url: string, mode: InspectMode, base: string): string {
  const target = new URL(url, base);
  if (target.origin !== new URL(base).origin || target.searchParams.has(INSPECT_PARAM)) return url;
  target.searchParams.set(INSPECT_PARAM, mode === 'local' ? 'local' : '');
  return `${target.pathname}${target.search}${target.hash}`;
}

/**
 * Keeps the flag in the address: every pushState/replaceState the router makes gets it back.
 * Returns the undo (for tests).
 */
export function keepInspectFlag(mode: InspectMode, win: Window = window): () => void {
  const { history } = win;
  const push = history.pushState;
  const replace = history.replaceState;
  const flagged = (url: string | URL | null | undefined) =>
    url === null || url === undefined ? url : withInspectFlag(String(url), mode, win.location.href);
  history.pushState = function pushState(data, unused, url) {
    return push.call(this, data, unused, flagged(url));
  };
  history.replaceState = function replaceState(data, unused, url) {
    return replace.call(this, data, unused, flagged(url));
  };
  return () => {
    history.pushState = push;
    history.replaceState = replace;
  };
}

/**
 * The Stately inspector; `onBlocked` runs when its window cannot open (a blocked pop-up: without
 * internet the window opens but shows the browser's error page, which this page cannot read).
 */
export async function startInspector(onBlocked?: () => void): Promise<(event: InspectionEvent) => void> {
  const { createBrowserInspector } = await import('@statelyai/inspect');
  // The inspector opens its window through this one, so a refused window.open is seen here.
  const opener = {
    open: (url?: string | URL, target?: string) => {
      const opened = window.open(url, target);
      if (!opened) onBlocked?.();
      return opened;
    },
    addEventListener: window.addEventListener.bind(window),
    removeEventListener: window.removeEventListener.bind(window),
  } as unknown as Window;
  const inspector = createBrowserInspector({
    window: opener,
    sanitizeContext: (context) => maskSecrets(context),
    sanitizeEvent: (event) => maskSecrets(event),
  });
  return (event: InspectionEvent) => inspector.inspect.next?.(event);
}
