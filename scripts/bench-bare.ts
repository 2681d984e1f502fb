/** The yardstick of `npm run bench:api`: a bare Hono app answering fixed JSON on @hono/node-server. */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono();
const body = { success: true, message: 'OK', data: { planId: 1, planName: 'Monthly', planType: 'PREMIUM', status: 'ACTIVE' } };
app.get('/bare', (c) => c.json(body));
const server = serve({ fetch: app.fetch, port: Number(process.env.BARE_PORT ?? 4291), hostname: '127.0.0.1' });
process.on('SIGTERM', () => server.close(() => process.exit(0)));
