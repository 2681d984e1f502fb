/** `GET/POST /dev/clock`: read or move the billing clock (server/platform/clock.ts). Dev routes only. */
import { Hono } from 'hono';
import * as z from 'zod/mini';
import { formatDateTime } from '../../src/lib/dates';
import { parseInstant, readClock, setClock, type ClockReading } from '../platform/clock';
import type { AppEnv, Services } from '../context';
import { ok, readBody } from '../platform/http';

const INSTANT_MESSAGE = 'now must be an ISO 8601 date-time with an offset, e.g. 2027-01-15T00:00:00+08:00, or null to reset';

const clockRequestSchema = z.object({
  now: z.nullable(
    z.string({ error: INSTANT_MESSAGE }).check(
      z.maxLength(40, INSTANT_MESSAGE),
      z.refine((value: string) => parseInstant(value) !== null, INSTANT_MESSAGE),
    ),
  ),
});

const shown = (reading: ClockReading) => ({ now: reading.now.toISOString(), source: reading.source });

export function clockRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.get('/clock', async (c) => ok(c, shown(await readClock(services.db))));
  app.post('/clock', async (c) => {
    const body = await readBody(c, clockRequestSchema);
    const at = body.now === null ? null : parseInstant(body.now);
    const reading = await services.db.transaction((tx) => setClock(tx, at));
    const message = body.now === null ? `Clock reset (${reading.source})` : `Clock set to ${formatDateTime(reading.now)} Asia/Manila`;
    return ok(c, shown(reading), message);
  });
  return app;
}
