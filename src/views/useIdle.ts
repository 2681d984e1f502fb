import { useEffect, useState } from 'react';

/**
 * True once the browser has had an idle moment since mount (at once where it cannot tell, as in jsdom).
 * For code a page needs only on a person's later action (a dialog, the account menu): asked for then,
 * it does not share a slow phone's network with the page's own code, nor run before the page is painted
 * (issue 21). Whatever shows it renders it at once if the person gets there first.
 */
export function useIdleSinceMount(): boolean {
  const [idle, setIdle] = useState(() => typeof requestIdleCallback !== 'function');
  useEffect(() => {
    if (idle) return;
    const id = requestIdleCallback(() => setIdle(true), { timeout: 2000 });
    return () => cancelIdleCallback(id);
  }, [idle]);
  return idle;
}
