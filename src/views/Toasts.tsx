/**
 * Toasts without a cost to the landing page: react-toastify and its container load with the first
 * notification. A toast is raised only once the container is mounted for good: react-toastify hands
 * its waiting queue to the first container that subscribes, and under StrictMode that first one is
 * torn down at once, which lost the first toast of a page.
 * A toast belongs to the page it is about (review finding 23): it follows the move to another page that
 * comes with it (a voucher redeemed, then the subscription page), and is dismissed at the next one (the
 * sign-up code's 'OTP sent successfully!' is not true any more on /subscription).
 */
import { lazy, Suspense, useEffect, useRef, useSyncExternalStore } from 'react';
import { useLocation } from 'wouter';

export type ToastKind = 'success' | 'error' | 'info';

const ToastArea = lazy(() => import('./ToastArea'));
let requested = false;
const listeners = new Set<() => void>();
let mounted = false;
const waiting: Array<() => void> = [];

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function whenMounted(): Promise<void> {
  return mounted ? Promise.resolve() : new Promise((resolve) => waiting.push(resolve));
}

/**
 * A move to another page this soon after a toast was raised is the one that comes with it (the flow's
 * own step: the same transition raises the toast and moves), not the person's next page.
 */
export const TOAST_FOLLOWS_MS = 1000;
/** The toasts on screen, by id, with when each was asked for. */
const raised = new Map<string | number, number>();
const clock = () => performance.now();
let shownCount = 0;

/** The page changed: the toasts raised for the page before it are no longer true; those raised with the move stay. */
async function pageChanged() {
  if (!raised.size) return;
  const { toast } = await import('react-toastify');
  const now = clock();
  for (const [id, at] of raised) {
    if (now - at < TOAST_FOLLOWS_MS) continue;
    raised.delete(id);
    toast.dismiss(id);
  }
}

/**
 * Shows a toast. With a `key` (a flow's name), a later toast of the same key replaces the one still
 * on screen, so a flow that ends in one outcome leaves one toast, not one per step.
 */
export function notify(kind: ToastKind, message: string, key?: string): Promise<void> {
  if (!requested) {
    requested = true;
    listeners.forEach((listener) => listener());
  }
  const at = clock();
  const id = key ?? `toast-${(shownCount += 1)}`;
  return Promise.all([import('react-toastify'), whenMounted()]).then(([{ toast }]) => {
    if (key && toast.isActive(key)) toast.update(key, { render: message, type: kind });
    else toast[kind](message, { toastId: id, onClose: () => raised.delete(id) });
    raised.set(id, at);
  });
}

function ToastHost() {
  // Runs after the container has subscribed; the timer skips StrictMode's mount-unmount-mount.
  useEffect(() => {
    const timer = setTimeout(() => {
      mounted = true;
      waiting.splice(0).forEach((resolve) => resolve());
    });
    return () => {
      clearTimeout(timer);
      mounted = false;
    };
  }, []);
  return <ToastArea />;
}

export function Toasts() {
  const show = useSyncExternalStore(subscribe, () => requested, () => false);
  const [path] = useLocation();
  const shownPath = useRef(path);
  useEffect(() => {
    if (shownPath.current === path) return;
    shownPath.current = path;
    void pageChanged();
  }, [path]);
  return show ? (
    <Suspense fallback={null}>
      <ToastHost />
    </Suspense>
  ) : null;
}
