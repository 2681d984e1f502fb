/** The reference API: every call of spec §7 in the envelope, with the design's limits and headers. */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import type { Db } from './db';
import { fail, HttpError } from './http';
import { accountRoutes } from './routes/account';
import { authRoutes } from './routes/auth';
import { configRoutes } from './routes/config';
import type { Tokens } from './tokens';

export interface AppDeps {
  db: Db;
  tokens: Tokens;
  /** The public address of the app, for links the server writes (defaults to the request's origin). */
  publicBaseUrl?: string | undefined;
  log?: (line: string) => void;
}

export type AppEnv = { Variables: { userId: string } };

export const JSON_BODY_LIMIT = 64 * 1024;

export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const log = deps.log ?? ((line: string) => console.info(line));

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
    if (c.req.path === '/api/v1/mobile/account/photo') return next();
    return bodyLimit({ maxSize: JSON_BODY_LIMIT, onError: (ctx) => fail(ctx, 413, 'The request body is too large.') })(c, next);
  });

  app.route('/', configRoutes(deps));
  app.route('/api/v1/mobile/auth', authRoutes(deps));
  app.route('/api/v1/mobile/account', accountRoutes(deps));

  app.notFound((c) => fail(c, 404, `No route for ${c.req.method} ${c.req.path}`));
  app.onError((error, c) => {
    if (error instanceof HttpError) return fail(c, error.status, error.message);
    log(`error: ${c.req.method} ${c.req.path}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    return fail(c, 500, 'Something went wrong');
  });
  return app;
}
