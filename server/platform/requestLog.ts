/**
 * Every request (issue 33): a request id, the log context around it, one JSON line and the HTTP metrics.
 *
 * - The id: the client's `X-Request-Id` when it is a safe token (≤ 64 of [A-Za-z0-9._-]), else a new
 *   UUID; it is answered in `X-Request-Id` (the envelope puts it in its own header record,
 *   secureHeaders.ts jsonAnswer; every other answer gets it here) and carried by every line logged
 *   while the request runs (log.ts withLogContext): its gateway calls, its mails, its errors.
 * - The line: method, route pattern, path (the query's names only: its values may be an email or a
 *   code), status, duration in ms, client address (client.ts clientAddress).
 * - The metrics: http_requests_total{method,route,status} and http_request_duration_seconds{method,route},
 *   the route being Hono's matched pattern (bounded), "unmatched" for a 404 no route answered.
 */
import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { clientAddress } from './client';
import { log, withLogContext } from './log';
import { countRequest } from './metrics';
import { isEnvelope } from './secureHeaders';

/** Routes asked all the time by machines (health checks, metrics scrapes). */
const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * New ids: this process's random prefix and a counter (`3f9a1c2e-1a`), unique across processes and
 * restarts, without a random UUID's cost on every request.
 */
const PROCESS_PREFIX = randomUUID().slice(0, 8);
let issued = 0;

/** The id a request is known by: the client's own when it is safe to repeat, else a new one. */
export function requestIdOf(header: string | undefined): string {
  return header !== undefined && SAFE_ID.test(header) ? header : `${PROCESS_PREFIX}-${(++issued).toString(36)}`;
}

/** The route pattern that answered; "unmatched" when no route did (only the catch-all middlewares ran, and a 404). */
export function routeLabel(c: Context): string {
  const routes = matchedRoutes(c);
  const route = routes[c.req.routeIndex];
  if (!route) return 'unmatched';
  if (route.method === 'ALL' && route.path.endsWith('*') && c.res.status === 404) return 'unmatched';
  return route.path;
}

/** A path parameter whose value is a credential (a card token, a link's token, a code): its name is logged instead. */
const SECRET_PARAM = /token|code|secret|key|otp|pass/i;

/** The path with every secret parameter's value replaced by its name (`/cards/:cardTokenId/…`). */
function maskedPath(path: string, route: string): string {
  if (!route.includes(':')) return path;
  const pattern = route.split('/');
  if (!pattern.some((segment) => segment.startsWith(':') && SECRET_PARAM.test(segment))) return path;
  const segments = path.split('/');
  for (let i = 0; i < pattern.length && i < segments.length; i++) {
    const segment = pattern[i]!;
    if (segment === '*') break;
    if (segment.startsWith(':') && SECRET_PARAM.test(segment)) segments[i] = segment.replace(/[{?].*$/, '');
  }
  return segments.join('/');
}

/** The path (its secret parameters masked), with the query's names but none of its values. */
function pathOf(c: Context, route: string): string {
  const path = maskedPath(c.req.path, route);
  const url = c.req.url;
  const q = url.indexOf('?');
  if (q < 0) return path;
  const names = [...new URLSearchParams(url.slice(q + 1)).keys()];
  return names.length ? `${path}?${names.join('&')}` : path;
}

export function requestLog(): MiddlewareHandler<{ Variables: { requestId: string } }> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = requestIdOf(c.req.header('x-request-id'));
    c.set('requestId', requestId);
    await withLogContext({ requestId }, next);
    let response = c.res;
    if (!isEnvelope(response)) {
      try {
        response.headers.set('X-Request-Id', requestId);
      } catch {
        // Immutable headers (a Response.redirect, a fetched answer): a copy takes the header.
        response = new Response(response.body, response);
        response.headers.set('X-Request-Id', requestId);
        c.res = response;
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const route = routeLabel(c);
    const { method } = c.req;
    const status = response.status;
    countRequest(method, route, status, seconds);
    const line = { requestId, method, route, path: pathOf(c, route), status, ms: Math.round(seconds * 10_000) / 10, client: clientAddress(c) };
    // A balancer asks for health every second, Prometheus scrapes: their lines only at LOG_LEVEL=debug (unless they fail).
    if (QUIET_ROUTES.has(route) && status < 400) log().debug(line, 'request');
    else log().info(line, 'request');
  };
}
