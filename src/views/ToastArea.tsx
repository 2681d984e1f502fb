/** The toast area (product.md#toasts as the app configures it): top-right, close button, 4000 ms, at most 3. */
import { useEffect, useRef } from 'react';
import { toast, ToastContainer, type CloseButtonProps } from 'react-toastify';
import { useLocation } from 'wouter';
import { m } from '../i18n';
import './toasts.css';

export const TOAST_DURATION_MS = 4000;
export const TOAST_LIMIT = 3;

/**
 * A toast belongs to the page it is about (review finding 23): it follows the move to another page that
 * comes with it (a voucher redeemed, then the subscription page) and is dismissed at the next one (the
 * sign-up code's 'OTP sent successfully!' is not true any more on /subscription). A move this soon after
 * the toast was asked for is the one that comes with it (the flow's own step), not the person's next page.
 */
export const TOAST_FOLLOWS_MS = 1000;
/** How long after a page change the page's toasts are looked at (a toast asked for with the move lands first). */
const TOAST_SETTLE_MS = 150;
/** The toasts on screen, by id, with when each was asked for. */
const raised = new Map<string, number>();
let shownCount = 0;

/** Shows a toast asked for at `at` (Toasts.tsx's notify); with a `key`, it replaces the key's toast still on screen. */
export function show(kind: 'success' | 'error' | 'info', message: string, key: string | undefined, at: number) {
  const id = key ?? `toast-${(shownCount += 1)}`;
  if (key && toast.isActive(key)) toast.update(key, { render: message, type: kind });
  else toast[kind](message, { toastId: id, onClose: () => raised.delete(id) });
  raised.set(id, at);
}

/** The page changed: the toasts raised for the page before it are no longer true; those raised with the move stay. */
function useDismissedOnPageChange() {
  const [path] = useLocation();
  const shownPath = useRef(path);
  useEffect(() => {
    if (shownPath.current === path) return;
    shownPath.current = path;
    const changedAt = performance.now();
    // A toast asked for with the move may still be on its way (notify loads this area, then shows): the
    // page's toasts are looked at a moment later, so that one replaces its key's toast instead of being
    // dismissed with it (seen: a flow's 'charged now' toast replaced by its outcome as the page changed).
    const timer = setTimeout(() => {
      for (const [id, at] of raised) {
        if (changedAt - at < TOAST_FOLLOWS_MS) continue;
        raised.delete(id);
        toast.dismiss(id);
      }
    }, TOAST_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [path]);
}

/** react-toastify's own close button, with its name in the language in use (the library's says 'close'). */
function CloseButton({ closeToast, theme }: CloseButtonProps) {
  return (
    <button
      type="button" className={`Toastify__close-button Toastify__close-button--${theme}`} aria-label={m.close()}
      onClick={(event) => { event.stopPropagation(); closeToast(true); }}
    >
      <svg aria-hidden="true" viewBox="0 0 14 16">
        <path fillRule="evenodd" d="M7.71 8.23l3.75 3.75-1.48 1.48-3.75-3.75-3.75 3.75L1 11.98l3.75-3.75L1 4.48 2.48 3l3.75 3.75L9.98 3l1.48 1.48-3.75 3.75z" />
      </svg>
    </button>
  );
}

export default function ToastArea() {
  useDismissedOnPageChange();
  return (
    <ToastContainer
      position="top-right" autoClose={TOAST_DURATION_MS} limit={TOAST_LIMIT} closeButton={CloseButton} newestOnTop theme="colored"
      aria-label={m.notifications_alt_t()}
    />
  );
}
