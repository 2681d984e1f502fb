/**
 * What every route or step change does, keyed on the address (path and query), so each flow's
 * steps (which are URL changes) get it with no code of their own: the document title of the route,
 * the page scrolled to the top, and focus on the new page's heading so a screen reader and a
 * keyboard start there.
 */
import { useEffect, useRef } from 'react';
import { useLocation, useSearch } from 'wouter';
import { PRODUCT_NAME } from '../lib/product';
import { routes } from '../lib/route-paths';

/** Each route's own title; a route added to the app gets a line here (the subscription pages too). */
export const ROUTE_TITLES: Record<string, string> = {
  [routes.home]: PRODUCT_NAME,
  [routes.terms]: 'Terms and Conditions',
  [routes.privacy]: 'Privacy Policy',
  [routes.login]: 'Sign In',
  [routes.register]: 'Sign Up',
  [routes.registerVerify]: 'Verify Email',
  [routes.forgotPassword]: 'Forgot Password',
  [routes.forgotPasswordVerify]: 'Enter OTP',
  [routes.forgotPasswordReset]: 'Reset Password',
  [routes.authLink]: 'Signing In',
  [routes.payment]: 'Payment Result',
  [routes.account]: 'Account',
  [routes.subscription]: 'Subscription',
  [routes.redeemVoucher]: 'Redeem Voucher',
  [routes.changePlan]: 'Change Plan',
  [routes.changePaymentMethod]: 'Change Payment Method',
  [routes.subscribe]: 'Subscribe',
  [routes.receipt]: 'Receipt',
};
export const NOT_FOUND_TITLE = 'Page Not Found';
const RECEIPT_PATH = new RegExp(`^${routes.receipt.replace(':id', '[^/]+')}$`);

export function documentTitleFor(path: string): string {
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
  // A route with a parameter (a receipt) is found by its pattern.
  const pattern = RECEIPT_PATH.test(normalized) ? routes.receipt : normalized;
  const title = ROUTE_TITLES[pattern] ?? NOT_FOUND_TITLE;
  return title === PRODUCT_NAME ? PRODUCT_NAME : `${title} · ${PRODUCT_NAME}`;
}

/** Focuses the first heading in `main`, now or as soon as a lazily loaded page renders one. */
function focusHeadingWhenShown(main: HTMLElement): () => void {
  const focus = () => {
    // While a lazy page loads, Suspense keeps the old page in the DOM, hidden: skip hidden headings.
    const heading = [...main.querySelectorAll<HTMLElement>('h1')].find((h) => h.getClientRects().length > 0);
    if (!heading) return false;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: true });
    return document.activeElement === heading;
  };
  if (focus()) return () => {};
  const observer = new MutationObserver(() => {
    if (focus()) observer.disconnect();
  });
  observer.observe(main, { childList: true, subtree: true });
  return () => observer.disconnect();
}

/** The address a flow wrote in place (goToAction with `replace`), until the route change effect sees it. */
let writtenInPlace: string | null = null;

/** The next change to `address` is written in place: if it stays on the same page, focus and scroll stay. */
export function keepFocusFor(address: string): void {
  writtenInPlace = address;
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
    const inPlace = writtenInPlace === address;
    writtenInPlace = null;
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
