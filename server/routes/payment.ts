/** Payment calls. For now the viewer's payment records (ours, design.md); the gateway comes later. */
import { Hono } from 'hono';
import type { AppEnv, Services } from '../context';
import { ok } from '../http';
import { listPayments } from '../payments';
import { requireAuth } from './middleware';

export function paymentRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(services));
  app.get('/history', async (c) => ok(c, await listPayments(services.db, c.get('userId'))));
  return app;
}
