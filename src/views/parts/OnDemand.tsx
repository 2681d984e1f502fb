/**
 * A part whose code loads on demand (a confirmation dialog; issue 21): `fallback` while its code loads,
 * and also if it cannot load: then `onFailed` closes what asked for it, and a toast says why ('Network
 * error'). A change of `resetKey` after a failure (the part asked for again) loads it afresh.
 * react-error-boundary's ErrorBoundary catches the failed load, which would otherwise unmount the whole app.
 */
import { Suspense, type ReactNode } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { networkMessageOf } from '../../api/http';
import { m } from '../../i18n';
import { notify } from '../Toasts';

export function OnDemand({ part, fallback, onFailed, resetKey, children }: {
  /** The lazyPage shown inside, asked for afresh when `resetKey` changes after a failure. */
  part: { load: () => Promise<unknown> };
  fallback: ReactNode;
  onFailed: () => void;
  resetKey: unknown;
  children: ReactNode;
}) {
  return (
    <ErrorBoundary fallback={fallback} onError={(error) => { onFailed(); void notify('error', networkMessageOf(error)); }} resetKeys={[resetKey]} onReset={() => void part.load().catch(() => undefined)}>
      <Suspense fallback={fallback}>{children}</Suspense>
    </ErrorBoundary>
  );
}

/**
 * While a dialog's code comes after its opener was pressed: the dialog's backdrop (`className`, the page's),
 * over the page, saying it is loading (nothing moves).
 */
export function DialogLoading({ className }: { className: string }) {
  return (
    <div className={className} aria-busy="true">
      <p role="status" className="visually-hidden">{m.loading()}</p>
    </div>
  );
}
