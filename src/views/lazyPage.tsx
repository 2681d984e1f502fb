import { lazy, type ComponentType } from 'react';

/** A component loaded on demand that can also be loaded ahead of its first render (`load`). */
export type LazyPage<P extends object = object> = ComponentType<P> & { load: () => Promise<unknown> };

/**
 * React.lazy, plus `load()` to start (or join) the module's loading ahead of time. Once the module is in,
 * the component renders it directly instead of suspending: a first render that suspends commits its
 * Suspense fallback, and React then holds the page back until 300 ms after that fallback appeared (it
 * batches reveals), so a page whose code is already here should not suspend at all (issue 21, main.tsx).
 * A failed load reaches the render as an error (its error boundary), and the next `load()` asks again.
 */
export function lazyPage<P extends object = object>(importer: () => Promise<{ default: ComponentType<P> }>): LazyPage<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  let failed = false;
  const importOnce = () => (loading ??= importer().then(
    (module) => {
      loaded = module.default;
      return module;
    },
    (error: unknown) => {
      loading = undefined;
      failed = true;
      throw error;
    },
  ));
  // React's own attempts join the one import; after a failure they keep meeting it (no retry loop while
  // offline) until `load()` is called again, which asks afresh (parts/OnDemand.tsx does, when asked again).
  let Lazy = lazy(importOnce);
  const load = () => {
    if (failed) {
      failed = false;
      Lazy = lazy(importOnce);
    }
    return importOnce();
  };
  function LazyPageComponent(props: P) {
    // Never a switch between the two after a commit: Lazy commits only once resolved, when `loaded` is set.
    const Loaded = loaded;
    const Waiting = Lazy;
    return Loaded ? <Loaded {...props} /> : <Waiting {...props} />;
  }
  return Object.assign(LazyPageComponent, { load });
}
