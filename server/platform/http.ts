/** The `{ success, message, data }` envelope (product.md#envelope) and the errors that become it. */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import * as z from 'zod/mini';
import { requestLanguage } from './language';
import { readsAlikeEverywhere, translate } from './translate';
import { jsonAnswer, type HeaderRecord } from './secureHeaders';

// zod/mini (the shared contract, src/api/schemas.ts) has no default locale: the server answers with
// zod's English text where a rule names no message of its own, as it did with classic zod.
z.config(z.locales.en());

/** A 429 without a better figure asks the client to wait a minute. */
export const DEFAULT_RETRY_AFTER_S = 60;

export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    /** Seconds to wait before trying again, sent as Retry-After (every 429 carries one). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/**
 * The envelope's message in the viewer's language (translate.ts); the data is never translated. A message
 * every language writes alike (a read's 'OK') is sent as it is, without reading the request's language.
 */
const said = (c: Context, message: string) => (readsAlikeEverywhere(message) ? message : translate(message, requestLanguage(c)));

export function ok<T>(c: Context, data: T, message = 'OK', status: ContentfulStatusCode = 200) {
  return jsonAnswer(c, JSON.stringify({ success: true, message: said(c, message), data }), status);
}

/** The same envelope around `json`, data already written as JSON text (server/platform/jsonList.ts). */
export function okJson(c: Context, json: string, message = 'OK') {
  return jsonAnswer(c, `{"success":true,"message":${JSON.stringify(said(c, message))},"data":${json}}`, 200);
}

/** `headers`: more for this answer (a 429's Retry-After is added here); never set with `c.header`, which the envelope does not carry. */
export function fail(c: Context, status: ContentfulStatusCode, message: string, retryAfterSeconds?: number, headers?: HeaderRecord) {
  const retryAfter = status === 429 ? { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds ?? DEFAULT_RETRY_AFTER_S))) } : undefined;
  return jsonAnswer(c, JSON.stringify({ success: false, message: said(c, message), data: null }), status, retryAfter || headers ? { ...headers, ...retryAfter } : undefined);
}

export const JSON_ONLY = 'Content-Type must be application/json';

/** True for `application/json`, with or without parameters, in any case. */
export function isJson(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * Reads a JSON body and validates it with the shared schema; the first message is the answer.
 * Only `application/json` is read: other types are what a cross-site form may send without a preflight.
 */
export async function readBody<T>(c: Context, schema: z.ZodMiniType<T>): Promise<T> {
  if (!isJson(c.req.header('Content-Type'))) throw new HttpError(415, JSON_ONLY);
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new HttpError(400, 'The request body must be valid JSON.');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]?.message ?? 'Invalid request.');
  return parsed.data;
}
