/** "Delete my account" (issue 36, docs/product.md#erasure): POST /api/v1/mobile/account/delete {password, confirmation}. */
import { Hono } from 'hono';
import { z } from 'zod/mini';
import type { AppEnv, Services } from '../context';
import { clientAddress } from '../platform/client';
import { ok, readBody } from '../platform/http';
import { deleteAccount, DELETION_MESSAGES } from './deletion';
import { requireAuth } from './requireAuth';

const deletionRequestSchema = z.object({ password: z.string().check(z.maxLength(1024)), confirmation: z.string().check(z.maxLength(320)) });

export function deletionRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(services));
  app.post('/', async (c) => {
    const body = await readBody(c, deletionRequestSchema);
    await deleteAccount(services, c.get('userId'), body, clientAddress(c));
    return ok(c, null, DELETION_MESSAGES.deleted);
  });
  return app;
}
