import { useEffect, useState } from 'react';

/**
 * Loads a part (a lazyPage) once the browser has had an idle moment since mount, and says when it is in
 * (at once where the browser cannot tell idleness, as in jsdom); nothing while `enabled` is false (a guest
 * never needs the account menu). For code a page needs only on a person's later action (a dialog, the
 * account menu): loaded then, it neither shares a slow phone's network with the page's own code nor runs
 * before the page is painted (issue 21). Whatever shows the part renders it at once if the person gets
 * there first (parts/OnDemand.tsx); a failed load here leaves that render to try again.
 */
export function useLoadedWhenIdle(part: { load: () => Promise<unknown> }, enabled = true): { loaded: boolean; loadNow: () => Promise<void> } {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    const load = () => void part.load().then(() => { if (live) setLoaded(true); }, () => undefined);
    if (typeof requestIdleCallback !== 'function') {
      load();
      return () => { live = false; };
    }
    const id = requestIdleCallback(load, { timeout: 2000 });
    return () => {
      live = false;
      cancelIdleCallback(id);
    };
  }, [part, enabled]);
  /** Loads it now (a person asked for it); rejects if it cannot come. */
  const loadNow = () => part.load().then(() => setLoaded(true));
  return { loaded, loadNow };
}
