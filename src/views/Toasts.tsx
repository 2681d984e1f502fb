/**
 * Toasts without a cost to the landing page: react-toastify and its container load with the first
 * notification. Toasts raised before the container mounts are queued by react-toastify and shown.
 */
import { lazy, Suspense, useSyncExternalStore } from 'react';

export type ToastKind = 'success' | 'error' | 'info';

const ToastArea = lazy(() => import('./ToastArea'));
let requested = false;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function notify(kind: ToastKind, message: string): Promise<void> {
  if (!requested) {
    requested = true;
    listeners.forEach((listener) => listener());
  }
  return import('react-toastify').then(({ toast }) => {
    toast[kind](message);
  });
}

export function Toasts() {
  const show = useSyncExternalStore(subscribe, () => requested, () => false);
  return show ? (
    <Suspense fallback={null}>
      <ToastArea />
    </Suspense>
  ) : null;
}
