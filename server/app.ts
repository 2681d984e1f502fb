/** The reference API: every call of spec §7 in the envelope, with the design's limits and headers. */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import { fail, HttpError } from './http';
import { accountRoutes } from './routes/account';
import { authRoutes } from './routes/auth';
import { configRoutes } from './routes/config';
import { createMailbox } from './mailbox';
import { createOtp, createSingleUseTokens } from './otp';
import { devRoutes } from './routes/dev';
import { paymentRoutes } from './routes/payment';
import { subscriptionRoutes, voucherRoutes } from './routes/subscription';
import { uploadRoutes } from './routes/uploads';
import { CODE_LINK_TTL_MS, JSON_BODY_LIMIT, type AppDeps, type AppEnv, type Services } from './context';
import { MAX_PHOTO_BYTES, memoryUploads } from './uploads';

export type { AppDeps } from './context';

export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const log = deps.log ?? ((line: string) => console.info(line));
  const services: Services = {
    ...deps,
    log,
    uploads: deps.uploads ?? memoryUploads(),
    mailbox: createMailbox(deps.db, log),
    otp: createOtp(deps.db),
    resetTokens: createSingleUseTokens(deps.db, 'reset_tokens', CODE_LINK_TTL_MS),
    loginLinks: createSingleUseTokens(deps.db, 'login_links', CODE_LINK_TTL_MS),
  };

  app.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        connectSrc: ["'self'"],
      },
      referrerPolicy: 'strict-origin-when-cross-origin',
      xContentTypeOptions: 'nosniff',
      xFrameOptions: 'DENY',
    }),
  );

  // JSON bodies are small; the photo upload sets its own larger limit.
  app.use('/api/*', async (c, next) => {
    if (c.req.path === '/api/v1/mobile/account/photo') {
      return bodyLimit({ maxSize: MAX_PHOTO_BYTES + 64 * 1024, onError: (ctx) => fail(ctx, 413, 'Photo must be 5 MB or smaller.') })(c, next);
    }
    return bodyLimit({ maxSize: JSON_BODY_LIMIT, onError: (ctx) => fail(ctx, 413, 'The request body is too large.') })(c, next);
  });

  app.route('/', configRoutes(services));
  app.route('/', uploadRoutes(services));
  app.route('/api/v1/mobile/auth', authRoutes(services));
  app.route('/api/v1/mobile/account', accountRoutes(services));
  app.route('/api/v1/mobile/subscription', subscriptionRoutes(services));
  app.route('/api/v1/mobile/subscription-voucher', voucherRoutes(services));
  app.route('/api/v1/mobile/payment', paymentRoutes(services));
  if (deps.devRoutes !== false) app.route('/dev', devRoutes(services));

  app.notFound((c) => fail(c, 404, `No route for ${c.req.method} ${c.req.path}`));
  app.onError((error, c) => {
    if (error instanceof HttpError) return fail(c, error.status, error.message);
    log(`error: ${c.req.method} ${c.req.path}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    return fail(c, 500, 'Something went wrong');
  });
  return app;
}
