import { Hono } from 'hono';
import type { AppEnv, Services } from '../context';
import { fail } from '../platform/http';
import { contentTypeOf } from './photos';

/** Serves stored photos with their sniffed type; unknown names are a 404. */
export function uploadRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.get('/uploads/:name', (c) => {
    const name = c.req.param('name');
    const type = contentTypeOf(name);
    const bytes = type ? services.uploads.read(name) : null;
    if (!type || !bytes) return fail(c, 404, 'No such photo');
    return c.body(new Uint8Array(bytes), 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=31536000, immutable' });
  });
  return app;
}
