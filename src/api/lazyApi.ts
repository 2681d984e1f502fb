/**
 * The API with its contract (zod schemas) loaded on first use, so the landing page does not carry
 * the schemas it never calls. Every endpoint function is async, so callers see no difference.
 */
import type { Api } from './endpoints';
import type { Http } from './http';

export function createLazyApi(http: Http): Api {
  let loaded: Promise<Api> | undefined;
  const load = () => (loaded ??= import('./endpoints').then(({ createApi }) => createApi(http)));
  return new Proxy({} as Api, {
    get: (_target, name) => async (...args: unknown[]) => {
      const api = await load();
      const call = api[name as keyof Api] as (...a: unknown[]) => Promise<unknown>;
      return call(...args);
    },
  });
}
