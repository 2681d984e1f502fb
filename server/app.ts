/** The reference API: every call of product.md#calls in the envelope, with the limits and headers (product.md#security). */
import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { bodyLimit } from 'hono/body-limit';
import { COMMON_PASSWORD_LIST } from '../src/api/commonPasswordList';
import { installCommonPasswords } from '../src/api/commonPasswords';
import { isLocalRequest, resolveClient } from './platform/client';
import { healthRoutes } from './platform/health';
import { fail, HttpError } from './platform/http';
import { securityHeaders } from './platform/secureHeaders';
import { logLine } from './platform/log';
import { bearerMatches, metricsText } from './platform/metrics';
import { requestLog } from './platform/requestLog';
import { accountRoutes } from './identity/account.routes';
import { dataExportRoutes } from './identity/dataExport.routes';
import { deletionRoutes } from './identity/deletion.routes';
import { authRoutes } from './identity/auth.routes';
import { deviceRoutes } from './identity/devices.routes';
import { emailChangeRoutes } from './identity/emailChange.routes';
import { configRoutes } from './platform/appConfig.routes';
import { createMailbox } from './platform/mail';
import { createOtp, createSingleUseTokens } from './identity/codes';
import { paymentRoutes } from './billing/payment.routes';
import { defaultGatewayConfig } from './gateway/config';
import { createMayaClient } from './gateway/maya';
import { subscriptionRoutes, voucherRoutes } from './billing/subscription.routes';
import { createSignInThrottle } from './identity/throttle';
import { uploadRoutes } from './identity/photos.routes';
import { CODE_LINK_TTL_MS, JSON_BODY_LIMIT, type AppDeps, type AppEnv, type Services } from './context';
import { MAX_PHOTO_BYTES, PHOTO_MESSAGES, memoryUploads } from './identity/photos';
import { opsRoutes, OPS_PREFIX } from './ops/routes';
import { randomBytes } from 'node:crypto';

export type { AppDeps } from './context';

/**
 * A 413 is answered before the body is read; the rest of it is still on its way, so the connection
 * cannot be reused: say so, and the server closes it after the answer (Node honours Connection: close).
 */
function tooLarge(c: Context, message: string) {
  return fail(c, 413, message, undefined, { Connection: 'close' });
}

export function createApp(deps: AppDeps) {
  // The password rule checks every new password against the full common-password list (the app loads it on demand).
  installCommonPasswords(COMMON_PASSWORD_LIST);
  const app = new Hono<AppEnv>();
  const log = deps.log ?? logLine;
  const gatewayConfig = deps.gatewayConfig ?? defaultGatewayConfig(0);
  const services: Services = {
    ...deps,
    log,
    uploads: deps.uploads ?? memoryUploads(),
    mailbox: createMailbox(deps.db),
    otp: createOtp(deps.db),
    resetTokens: createSingleUseTokens(deps.db, 'reset_tokens', CODE_LINK_TTL_MS),
    loginLinks: createSingleUseTokens(deps.db, 'login_links', CODE_LINK_TTL_MS),
    signInThrottle: createSignInThrottle(deps.db),
    devRoutes: deps.devRoutes ?? 'local',
    gatewayConfig,
    gateway: createMayaClient(gatewayConfig),
  };
  const notFound = (c: Context) => fail(c, 404, `No route for ${c.req.method} ${c.req.path}`);

  // The request id, its log context, the request's log line and metrics (issue 33): around everything.
  app.use('*', requestLog());
  // First, so every answer carries them (the dev gate's 404s too).
  app.use('*', securityHeaders(deps.scriptHashes ?? []));
  // The metrics on the main port, only for the bearer of METRICS_TOKEN; to anyone else a 404 like any unknown path.
  app.get('/metrics', async (c) => {
    if (!deps.metricsToken || !bearerMatches(c.req.header('authorization'), deps.metricsToken)) return notFound(c);
    const { contentType, body } = await metricsText();
    return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  });

  // Behind proxies (TRUST_PROXY): the client is read once from the X-Forwarded-For they wrote, for the
  // rate limits, the webhook allow-list and the logs (platform/client.ts).
  const proxies = deps.trustProxy;
  if (proxies?.entries.length) {
    app.use('*', async (c, next) => {
      c.set('clientAddress', resolveClient(c, proxies));
      await next();
    });
  }

  // For the load balancer: liveness and readiness (platform/health.ts).
  app.route('/', healthRoutes({ db: deps.db, readiness: deps.readiness }));

  // Dev routes (QA's mailbox, login links, clock, the gateway sandbox) let anyone sign in as anyone:
  // to another machine they do not exist unless DEV_ROUTES=public; DEV_ROUTES=false hides them from all.
  const devGate = createMiddleware(async (c, next) => {
    if (services.devRoutes === 'off' || (services.devRoutes === 'local' && !isLocalRequest(c))) return notFound(c);
    await next();
  });
  for (const path of ['/dev', '/dev/*', '/sandbox', '/sandbox/*']) app.use(path, devGate);

  // JSON bodies are small; the photo upload sets its own larger limit.
  const photoLimit = bodyLimit({ maxSize: MAX_PHOTO_BYTES + 64 * 1024, onError: (ctx) => tooLarge(ctx, PHOTO_MESSAGES.tooLarge) });
  const jsonTooLarge = (ctx: Context) => tooLarge(ctx, 'The request body is too large.');
  const jsonLimit = bodyLimit({ maxSize: JSON_BODY_LIMIT, onError: jsonTooLarge });
  app.use('/api/*', async (c, next) => {
    // A GET or HEAD body is never read; looking for one would build the full Request (issue 10).
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    if (c.req.path === '/api/v1/mobile/account/photo') return photoLimit(c, next);
    // A body of a declared length is judged by it here, as Hono's bodyLimit judges it, but without
    // asking for the body: that builds a whole web Request and its stream (issue 21: about a seventh of
    // this thread's work while a burst of sign-ins arrives), where readBody's c.req.json() reads Node's request directly
    // (@hono/node-server). Node reads no more than the declared length. A body without one (chunked)
    // is counted as it arrives by Hono's bodyLimit.
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      return Number.parseInt(length, 10) > JSON_BODY_LIMIT ? jsonTooLarge(c) : next();
    }
    return jsonLimit(c, next);
  });

  app.route('/', configRoutes(services));
  app.route('/', uploadRoutes(services));
  app.route('/api/v1/mobile/auth', authRoutes(services));
  app.route('/api/v1/mobile/account/export', dataExportRoutes(services));
  app.route('/api/v1/mobile/account/delete', deletionRoutes(services));
  app.route('/api/v1/mobile/account', accountRoutes(services));
  app.route('/api/v1/mobile/account/sessions', deviceRoutes(services));
  app.route('/api/v1/mobile', emailChangeRoutes(services));
  app.route('/api/v1/mobile/subscription', subscriptionRoutes(services));
  app.route('/api/v1/mobile/subscription-voucher', voucherRoutes(services));
  app.route('/api/v1/mobile/payment', paymentRoutes(services));
  // The back office (issue 35): every path below the prefix is a 404 to anyone who is not an operator (server/ops/routes.ts).
  app.route(OPS_PREFIX, opsRoutes(services, (deps.opsKeys ?? [randomBytes(32)]).map((key) => Buffer.from(key))));
  if (services.devRoutes !== 'off') for (const { path, routes } of deps.devModules?.(services) ?? []) app.route(path, routes);

  app.notFound(notFound);
  app.onError((error, c) => {
    if (error instanceof HttpError) return fail(c, error.status, error.message, error.retryAfterSeconds);
    log(`error: ${c.req.method} ${c.req.path}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    return fail(c, 500, 'Something went wrong');
  });
  return app;
}
