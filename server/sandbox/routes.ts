/** Mounts the local Maya sandbox (api.ts) at /sandbox/maya; the app gates it as a dev route. */
import { Hono } from 'hono';
import { createSandbox, type SandboxDeps } from './api';

export function sandboxRoutes(deps: SandboxDeps) {
  const app = new Hono();
  app.route('/maya', createSandbox(deps));
  return app;
}
