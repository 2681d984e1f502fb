/**
 * What every route or step change does, keyed on the address (path and query), so each flow's
 * steps (which are URL changes) get it with no code of their own: the document title of the route,
 * the page scrolled to the top, and focus on the new page's heading so a screen reader and a
 * keyboard start there.
 */
import { useEffect, useRef } from 'react';
import { useLocation, useSearch } from 'wouter';

import { documentTitleFor } from './routeTable';
import { takeWrittenInPlace } from './routeFocus';
import { focusFromScript } from './focusFromScript';

/** Focuses the first heading in `main`, now or as soon as a lazily loaded page renders one. */
function focusHeadingWhenShown(main: HTMLElement): () => void {
  const focus = () => {
    // While a lazy page loads, Suspense keeps the old page in the DOM, hidden: skip hidden headings.
    const heading = [...main.querySelectorAll<HTMLElement>('h1')].find((h) => h.getClientRects().length > 0);
    if (!heading) return false;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    focusFromScript(heading, { preventScroll: true });
    return document.activeElement === heading;
  };
  if (focus()) return () => {};
  const observer = new MutationObserver(() => {
    if (focus()) observer.disconnect();
  });
  observer.observe(main, { childList: true, subtree: true });
  return () => observer.disconnect();
}

export function useRouteChange() {
  const [path] = useLocation();
  const search = useSearch();
  const first = useRef(true);
  const shownPath = useRef(path);

  useEffect(() => {
    document.title = documentTitleFor(path);
  }, [path]);

  useEffect(() => {
    const address = search ? `${path}?${search}` : path;
    const samePage = shownPath.current === path;
    shownPath.current = path;
    const inPlace = takeWrittenInPlace() === address;
    // The first page of a visit keeps the browser's own start (top, focus on the document).
    if (first.current) {
      first.current = false;
      return;
    }
    // A choice or a correction written into the address of the page on screen (a payment method
    // picked in the wizard): the person's focus stays on what they just used, if it is still there.
    const focused = document.activeElement;
    if (inPlace && samePage && focused && focused !== document.body && focused.isConnected) return;
    (document.scrollingElement ?? document.documentElement).scrollTop = 0;
    const main = document.getElementById('main');
    return main ? focusHeadingWhenShown(main) : undefined;
  }, [path, search]);
}
