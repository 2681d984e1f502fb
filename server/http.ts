/** The `{ success, message, data }` envelope (spec §7) and the errors that become it. */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';

export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
  ) {
    super(message);
  }
}

export function ok<T>(c: Context, data: T, message = 'OK', status: ContentfulStatusCode = 200) {
  return c.json({ success: true, message, data }, status);
}

export function fail(c: Context, status: ContentfulStatusCode, message: string) {
  return c.json({ success: false, message, data: null }, status);
}

/** Reads a JSON body and validates it with the shared schema; the first message is the answer. */
export async function readBody<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
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
