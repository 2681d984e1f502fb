/**
 * Toasts without a cost to the landing page: react-toastify and its container load with the first
 * notification. A toast is raised only once the container is mounted for good: react-toastify hands
 * its waiting queue to the first container that subscribes, and under StrictMode that first one is
 * torn down at once, which lost the first toast of a page.
 * A toast belongs to the page it is about (review finding 23; ToastArea.tsx, loaded with the first toast).
 */
import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';

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
 * Shows a toast. With a `key` (a flow's name), a later toast of the same key replaces the one still
 * on screen, so a flow that ends in one outcome leaves one toast, not one per step.
 */
export function notify(kind: ToastKind, message: string, key?: string): Promise<void> {
  if (!requested) {
    requested = true;
    listeners.forEach((listener) => listener());
  }
  const at = performance.now();
  return Promise.all([import('./ToastArea'), whenMounted()]).then(([area]) => area.show(kind, message, key, at));
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
  return show ? (
    <Suspense fallback={null}>
      <ToastHost />
    </Suspense>
  ) : null;
}
