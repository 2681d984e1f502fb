import { createMiddleware } from 'hono/factory';
import type { AppEnv, Services } from '../context';
import { fail } from '../platform/http';

/** Bearer-token authentication: a missing or invalid token is a 401 in the envelope. */
export function requireAuth(deps: Services) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const header = c.req.header('Authorization') ?? '';
    const match = /^Bearer (.+)$/.exec(header);
    const session = match ? await deps.tokens.verify(match[1]!) : null;
    if (!session) return fail(c, 401, 'Your session has expired. Please log in again.');
    c.set('userId', session.userId);
    c.set('sessionId', session.sessionId);
    await next();
  });
}
