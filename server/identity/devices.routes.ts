/** The viewer's signed-in devices (issue 36; devices.ts does the work). */
import { Hono } from 'hono';
import type { AppEnv, Services } from '../context';
import { HttpError, ok } from '../platform/http';
import { DEVICE_MESSAGES, listDevices, signOutDevice, signOutOthers } from './devices';
import { requireAuth } from './requireAuth';

/** Mounted at /api/v1/mobile/account/sessions. */
export function deviceRoutes(services: Services) {
  const { db, tokens } = services;
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(services));

  app.get('/', async (c) => ok(c, { sessions: await listDevices(db, c.get('userId'), c.get('sessionId')) }));

  app.post('/sign-out-others', async (c) =>
    ok(c, { signedOut: await signOutOthers(db, tokens, c.get('userId'), c.get('sessionId')) }, DEVICE_MESSAGES.signedOutOthers),
  );

  app.delete('/:id', async (c) => {
    if (!(await signOutDevice(tokens, c.get('userId'), c.req.param('id')))) throw new HttpError(404, DEVICE_MESSAGES.notFound);
    return ok(c, null, DEVICE_MESSAGES.signedOut);
  });

  return app;
}
