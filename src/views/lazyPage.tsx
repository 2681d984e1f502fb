import { lazy, type ComponentType } from 'react';

/** A component loaded on demand that can also be loaded ahead of its first render (`load`). */
export type LazyPage<P extends object = object> = ComponentType<P> & { load: () => Promise<unknown> };

/**
 * React.lazy, plus `load()` to start (or join) the module's loading ahead of time. Once the module is in,
 * the component renders it directly instead of suspending: a first render that suspends commits its
 * Suspense fallback, and React then holds the page back until 300 ms after that fallback appeared (it
 * batches reveals), so a page whose code is already here should not suspend at all (issue 21, main.tsx).
 */
export function lazyPage<P extends object = object>(importer: () => Promise<{ default: ComponentType<P> }>): LazyPage<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const load = () => (loading ??= importer().then((module) => {
    loaded = module.default;
    return module;
  }));
  const Lazy = lazy(load);
  function LazyPageComponent(props: P) {
    // Never a switch between the two after a commit: Lazy commits only once resolved, when `loaded` is set.
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return Object.assign(LazyPageComponent, { load });
}
