/**
 * The API for a lazy page. Imported only by lazy pages, so the endpoints and zod travel in their
 * chunks, never in the landing page's (the budget of `npm run bench`).
 */
import { createApi, type Api } from '../api/endpoints';
import type { Http } from '../api/http';
import { useServices } from './services';

const apis = new WeakMap<Http, Api>();

export function useApi(): Api {
  const { http } = useServices();
  let api = apis.get(http);
  if (!api) apis.set(http, (api = createApi(http)));
  return api;
}
