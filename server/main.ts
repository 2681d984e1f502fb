/** `npm start`: one process serving the built SPA, /app-config.json and the API on PORT (8080). */
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createApp } from './app';
import { openDatabase } from './db';
import { createTokens, loadSecret } from './tokens';
import { diskUploads, memoryUploads } from './uploads';

const port = Number(process.env.PORT ?? 8080);
const dataDir = process.env.DATA_DIR ?? '.data';
const serveSpa = process.env.SERVE_SPA !== 'false';
const distDir = resolve(process.env.DIST_DIR ?? 'dist');

const db = await openDatabase(dataDir === ':memory:' ? dataDir : resolve(dataDir));
const tokens = createTokens(db, loadSecret(dataDir === ':memory:' ? dataDir : resolve(dataDir)));
const app = createApp({
  db,
  tokens,
  publicBaseUrl: process.env.PUBLIC_BASE_URL,
  uploads: dataDir === ':memory:' ? memoryUploads() : diskUploads(resolve(dataDir, 'uploads')),
  devRoutes: process.env.DEV_ROUTES !== 'false',
});

if (serveSpa) {
  const indexFile = join(distDir, 'index.html');
  if (!existsSync(indexFile)) {
    console.error(`No built app at ${indexFile}: run \`npm run build\` (npm start does it for you).`);
    process.exit(1);
  }
  const indexHtml = readFileSync(indexFile, 'utf8');
  app.use('/assets/*', serveStatic({ root: distDir, onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable') }));
  app.use('*', serveStatic({ root: distDir }));
  // Client-side routes: any other GET that is not the API gets the app shell.
  app.get('*', (c, next) => (c.req.path.startsWith('/api/') ? next() : c.html(indexHtml)));
}

serve({ fetch: app.fetch, port }, (info) => {
  console.info(`Sine Bisaya is running on http://localhost:${info.port} (data: ${dataDir})`);
});
