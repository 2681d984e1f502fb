import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv, Services } from '../context';
import { fail, HttpError } from '../platform/http';

const SESSION_EXPIRED = 'Your session has expired. Please log in again.';

/**
 * Bearer-token authentication: a missing or invalid token is a 401 in the envelope.
 *
 * `readChecksSession` (issue 21), for a GET whose read checks the session in its own statement
 * (`viewerRead` below, `sessionGuardSql`): where the session check is a database round trip
 * (PostgreSQL), only the signature is checked here and `uncheckedSession` names the session the read
 * must check. Should the route answer without having checked it, it is checked after all, and a
 * closed session still gets the 401 instead of the answer.
 */
export function requireAuth(deps: Services, { readChecksSession = false } = {}) {
  const deferred = readChecksSession && deps.tokens.readsCheckSessions;
  return createMiddleware<AppEnv>(async (c, next) => {
    const header = c.req.header('Authorization') ?? '';
    const match = /^Bearer (.+)$/.exec(header);
    const session = match ? await (deferred ? deps.tokens.signed(match[1]!) : deps.tokens.verify(match[1]!)) : null;
    if (!session) return fail(c, 401, SESSION_EXPIRED);
    c.set('userId', session.userId);
    c.set('sessionId', session.sessionId);
    c.set('uncheckedSession', deferred ? session.sessionId : null);
    // Issue 36: the devices list's "last used", written at most once a minute per session.
    await deps.tokens.touch(session.sessionId);
    await next();
    if (c.get('uncheckedSession') !== null && !(await deps.tokens.isOpen(session))) c.res = fail(c, 401, SESSION_EXPIRED);
  });
}

/**
 * A read as the viewer, for a route behind `requireAuth(…, { readChecksSession: true })`. `read` gets
 * the session it must check in its statement (null: already checked) and answers null when it found
 * nothing: nothing proves the session open then, so it is checked (closed: a 401) and read again.
 */
export async function viewerRead<T>(c: Context<AppEnv>, deps: Services, read: (uncheckedSession: string | null) => Promise<T | null>): Promise<T> {
  const unchecked = c.get('uncheckedSession');
  const answer = await read(unchecked);
  if (answer !== null || unchecked === null) {
    c.set('uncheckedSession', null);
    if (answer === null) throw new Error('A read with its session checked found nothing to answer');
    return answer;
  }
  if (!(await deps.tokens.isOpen({ userId: c.get('userId'), sessionId: unchecked }))) throw new HttpError(401, SESSION_EXPIRED);
  c.set('uncheckedSession', null);
  return viewerRead(c, deps, read);
}
