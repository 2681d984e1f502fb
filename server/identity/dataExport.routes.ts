/**
 * "Download my data" calls (issue 36, docs/product.md#data-export), under /api/v1/mobile/account/export:
 * - POST   /export              starts an export (a job prepares it) and answers its state;
 * - GET    /export              the state of the latest one;
 * - POST   /export/link         {format: 'json'|'html'}: a single-use download token for a ready export;
 * - GET    /export/download?token=…   the file, once, with the owner's bearer token as well.
 */
import { Hono } from 'hono';
import { z } from 'zod/mini';
import type { AppEnv, Services } from '../context';
import { ok, readBody } from '../platform/http';
import { startExportJob } from './accountJobs';
import { downloadExport, EXPORT_MESSAGES, exportLink, exportState, requestExport } from './dataExport';
import { requireAuth } from './requireAuth';

const linkRequestSchema = z.object({ format: z.enum(['json', 'html']) });

export function dataExportRoutes(services: Services) {
  const { db } = services;
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(services));

  app.post('/', async (c) => {
    const userId = c.get('userId');
    const { id, start } = await requestExport(db, userId);
    if (start) await startExportJob(services.jobs, { db, gateway: services.gateway, log: services.log }, id);
    return ok(c, await exportState(db, userId), EXPORT_MESSAGES.started, 202);
  });

  app.get('/', async (c) => ok(c, await exportState(db, c.get('userId'))));

  app.post('/link', async (c) => {
    const { format } = await readBody(c, linkRequestSchema);
    return ok(c, await exportLink(db, c.get('userId'), format));
  });

  app.get('/download', async (c) => {
    const token = c.req.query('token') ?? '';
    const file = await downloadExport(db, c.get('userId'), token);
    const day = new Date().toISOString().slice(0, 10);
    return c.body(file.body, 200, {
      'Content-Type': file.format === 'json' ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
      'Content-Disposition': `attachment; filename="sine-bisaya-data-${day}.${file.format}"`,
      'Cache-Control': 'no-store',
    });
  });
  return app;
}
