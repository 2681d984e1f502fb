/** The server process: one process serving the built SPA, /app-config.json and the API on PORT (8080). */
import { serve } from '@hono/node-server';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { createApp } from './app';
import { startBillingEngine } from './billing/engine';
import { lateJobQueue, startAccountJobs } from './identity/accountJobs';
import { createMayaClient } from './gateway/maya';
import { createMailer } from './platform/mail';
import { isLocalSandbox } from './gateway/config';
import { openPreparedDatabase } from './startup';
import { writeSeller } from './billing/invoices';
import { readSettings, type Settings } from './settings';
import { builtScriptHashes, staticSite } from './platform/static';
import { createTokens, loadSecret } from './identity/tokens';
import { deriveOpsKey } from './ops/auth';
import { diskUploads, memoryUploads } from './identity/photos';
import { configureLogger, log, logLine } from './platform/log';
import { serveMetrics } from './platform/metrics';

let settings: Settings;
try {
  settings = readSettings(process.env);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
const { port, dataDir, serveSpa, distDir, appEnv } = settings;
// Logs and metrics (issue 33): LOG_LEVEL, LOG_FORMAT, METRICS_PORT, METRICS_TOKEN (platform/log.ts, platform/metrics.ts), read with the rest.
configureLogger(settings.log);
const metricsSettings = settings.metrics;

let db: Awaited<ReturnType<typeof openPreparedDatabase>>;
try {
  db = await openPreparedDatabase(dataDir, undefined, appEnv);
  // The seller invoices name (SELLER_*; the sample when unset, product.md#invoices).
  await writeSeller(db, settings.seller);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
const encode = (secret: string) => new TextEncoder().encode(secret);
const jwtSecret = loadSecret(dataDir);
const tokens = createTokens(db, jwtSecret, settings.jwtPreviousSecrets.map(encode));
let stopping = false;
// The dev modules (QA's mailbox, clock, statechart gallery, the Maya sandbox) are loaded only when dev routes are on.
const devModules = settings.devRoutes === 'off' ? undefined : (await import('./dev')).devModules;
// The local sandbox signs its webhooks with a key pair kept in the database; the API checks them with its public key.
if (isLocalSandbox(settings.gateway)) {
  const { sandboxSigningKeys } = await import('./sandbox/keys');
  settings.gateway.webhook.publicKeys = [(await sandboxSigningKeys(db)).publicPem];
}
// The account's jobs (exports, removals at Maya) share the billing engine's queue, started below.
const accountJobs = lateJobQueue();
const app = createApp({
  jobs: accountJobs,
  dpo: settings.dpo,
  devModules,
  scriptHashes: serveSpa ? builtScriptHashes(distDir) : [],
  db,
  tokens,
  publicBaseUrl: settings.publicBaseUrl,
  uploads: dataDir === ':memory:' ? memoryUploads() : diskUploads(resolve(dataDir, 'uploads')),
  devRoutes: settings.devRoutes,
  gatewayConfig: settings.gateway,
  trustProxy: settings.trustProxy,
  // The server listens only once the engine has started (below), so readiness never asks it before.
  readiness: () => ({ jobs: stopping ? 'stopping' : engine.health(), process: stopping ? 'stopping' : 'ok' }),
  metricsToken: metricsSettings.token,
  // Operators' TOTP secrets are sealed with a key from the same secret; the previous ones still open them (server/ops/auth.ts).
  opsKeys: [jwtSecret, ...settings.jwtPreviousSecrets.map(encode)].map(deriveOpsKey),
});

if (serveSpa) {
  if (!existsSync(join(distDir, 'index.html'))) {
    console.error(`No built app at ${join(distDir, 'index.html')}: run \`npm run build\` (npm start does it for you).`);
    process.exit(1);
  }
  // From memory, precompressed, cached (server/platform/static.ts); other GETs that are not the API get the shell.
  app.use('*', staticSite(distDir));
}

// Renewals, retries, reminders and end notices run on the job queue as the billing clock makes them due.
const engine = await startBillingEngine({
  db, gateway: createMayaClient(settings.gateway), log: logLine, publicBaseUrl: settings.publicBaseUrl, mailer: createMailer(db),
}, settings.billing);
accountJobs.attach(engine.boss);
const stopAccountJobs = await startAccountJobs(engine.boss, { db, gateway: createMayaClient(settings.gateway), log: logLine });

const server = serve({ fetch: app.fetch, port }, (info) => {
  const dev = settings.devRoutes === 'local' ? 'this machine only' : settings.devRoutes === 'public' ? 'every client (DEV_ROUTES=public)' : 'off';
  const mode = appEnv === 'production' ? 'production; ' : '';
  log().info(`Sine Bisaya is running on http://localhost:${info.port} (${mode}data: ${db.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : dataDir}; dev routes: ${dev}; links: ${settings.publicBaseUrl})`);
}) as Server;
const metricsServer = metricsSettings.port === null ? null : await serveMetrics(metricsSettings.port);
if (metricsServer) log().info(`Metrics on http://localhost:${metricsSettings.port}/metrics`);

// Idle RSS (issue 10): PGlite creates a database by running initdb in a second WebAssembly instance
// (always with DATA_DIR=:memory:, on disk only the first time); its memories — ~300 MB — are garbage
// once the database is up, but an idle server allocates too little for V8 to collect them. One full
// collection after start returns them (two turns apart: the instance is released asynchronously).
// `npm start` and `npm run serve` run node with --expose-gc (package.json); without it nothing is done.
const collect = (globalThis as { gc?: () => void }).gc;
if (db.kind === 'pglite' && collect) {
  setImmediate(() => {
    collect();
    setTimeout(collect, 100).unref();
  });
}

// SIGTERM (docker stop, systemd, CI) and Ctrl-C: stop taking requests, drop idle keep-alive
// connections, let requests in flight finish, close the database, exit 0.
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log().info(`${signal}: stopping…`);
  metricsServer?.close();
  await new Promise<void>((resolveClose) => {
    server.close(() => resolveClose());
    server.closeIdleConnections();
    // A request that will not finish (a slow client) does not hold the stop up for long.
    setTimeout(() => server.closeAllConnections(), 5000).unref();
  });
  // The database is closed even when the engine's stop fails; the first failure is the one reported.
  await stopAccountJobs();
  const engineStopped = await engine.stop().then(() => null, (error: unknown) => ({ error }));
  await db.close();
  if (engineStopped) throw engineStopped.error;
  log().info('Stopped: server and database closed.');
  process.exit(0);
}
function stopOn(signal: string) {
  stop(signal).catch((error: unknown) => {
    console.error(`${signal}: stopping failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
process.once('SIGTERM', () => stopOn('SIGTERM'));
process.once('SIGINT', () => stopOn('SIGINT'));
