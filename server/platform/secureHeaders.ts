/**
 * The security headers of product.md#security on every answer, cheaply on the envelope (issue 21).
 *
 * Hono's `secureHeaders` sets its dozen headers one by one on the finished response, which turns the
 * response's plain header record into a `Headers` object for @hono/node-server to read back: about
 * 5 % of a read's CPU. The envelope (`ok`/`fail`, http.ts) is instead built with the same headers in
 * its own plain record, and the middleware passes over it; every other answer (static files, the
 * sandbox's pages, a redirect) gets them from Hono's middleware as before. The record is worked out
 * once, by Hono's middleware itself, so both paths send exactly the same headers.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

export type HeaderRecord = Readonly<Record<string, string>>;

/** Envelopes that already carry the security headers. */
const complete = new WeakSet<Response>();
const nothingNext = async () => {};

/** Whether this answer is an envelope built by jsonAnswer (its headers, X-Request-Id included, are all set). */
export const isEnvelope = (response: Response): boolean => complete.has(response);

export function securityHeaders(scriptHashes: readonly string[]): MiddlewareHandler<{ Variables: { envelopeHeaders: HeaderRecord } }> {
  const hono = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...scriptHashes.map((hash) => `'sha256-${hash}'`)],
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
  });
  let record: HeaderRecord | undefined;
  const recorded = (async () => {
    const headers = new Headers();
    await hono({ res: { headers } } as unknown as Context, nothingNext);
    record = Object.freeze(Object.fromEntries(headers));
    return record;
  })();
  return async (c, next) => {
    c.set('envelopeHeaders', record ?? (await recorded));
    await next();
    if (!complete.has(c.res)) await hono(c, nothingNext);
  };
}

/**
 * A JSON answer carrying the security headers (when the middleware above ran) and `extra`, in one
 * plain record: @hono/node-server writes it as it is.
 */
export function jsonAnswer(c: Context, body: string, status: number, extra?: HeaderRecord): Response {
  const secure = c.get('envelopeHeaders') as HeaderRecord | undefined;
  if (!secure) return c.body(body, status as never, { 'Content-Type': 'application/json', ...extra });
  // The request's id (platform/requestLog.ts), in the same record: no Headers object is made for it.
  const requestId = c.get('requestId') as string | undefined;
  const headers = requestId ? { ...secure, 'content-type': 'application/json', 'x-request-id': requestId, ...extra } : { ...secure, 'content-type': 'application/json', ...extra };
  const response = new Response(body, { status, headers });
  complete.add(response);
  return response;
}
