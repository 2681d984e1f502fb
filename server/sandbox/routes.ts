/** Mounts the local Maya sandbox (gateway/sandbox.ts) at /sandbox/maya; app.ts gates it as a dev route. */
import { Hono } from 'hono';
import type { AppEnv, Services } from '../context';
import { createSandbox } from './api';

export function sandboxRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.route('/maya', createSandbox(services));
  return app;
}
