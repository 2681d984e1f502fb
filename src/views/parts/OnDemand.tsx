/**
 * A part whose code loads on demand (a confirmation dialog, the account menu; issue 21): `fallback` while
 * its code loads, and also if it cannot load, when `onError` is told (to close what asked for it and say
 * why). A change of `resetKey` after a failure (the part asked for again) loads it afresh.
 * react-error-boundary's ErrorBoundary catches the failed load, which would otherwise unmount the whole app.
 */
import { Suspense, type ReactNode } from 'react';
import { ErrorBoundary } from 'react-error-boundary';

export function OnDemand({ part, fallback, onError, resetKey, children }: {
  /** The lazyPage shown inside, asked for afresh when `resetKey` changes after a failure. */
  part: { load: () => Promise<unknown> };
  fallback: ReactNode;
  onError: (error: unknown) => void;
  resetKey: unknown;
  children: ReactNode;
}) {
  return (
    <ErrorBoundary fallback={fallback} onError={onError} resetKeys={[resetKey]} onReset={() => void part.load().catch(() => undefined)}>
      <Suspense fallback={fallback}>{children}</Suspense>
    </ErrorBoundary>
  );
}
