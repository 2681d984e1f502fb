/**
 * The one request function of the app (product.md#envelope, product.md#errors): adds the bearer token unless a call switches
 * authentication off, unwraps the `{ success, message, data }` envelope and turns every failure into
 * an `ApiError` carrying the message a person should read.
 */
import type * as z from 'zod/mini';
import { m } from '../i18n';

/** The messages of a failure without the server's own words, in the language in use when it happens (call them). */
export const FALLBACK_MESSAGE = m.something_went_wrong;
export const NETWORK_MESSAGE = m.network_error;

export class ApiError extends Error {
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

export interface HttpConfig {
  /** The API host; '' means the app's own origin. */
  host: string;
  getToken: () => string | null;
  /** Called on every 401 so the session can discard its token (product.md#session-state). */
  onUnauthorized: () => void;
  fetch?: typeof fetch;
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Multipart bodies (the photo upload) are sent as they are. */
  form?: FormData;
  /** false switches the bearer token off for this call. */
  auth?: boolean;
  schema: z.ZodMiniType<T>;
  signal?: AbortSignal;
}

export interface Envelope {
  success: boolean;
  message: string;
  data: unknown;
}

function isEnvelope(value: unknown): value is Partial<Envelope> {
  return typeof value === 'object' && value !== null;
}

function messageOf(body: unknown): string | undefined {
  if (!isEnvelope(body)) return undefined;
  const message = body.message;
  return typeof message === 'string' && message.trim() ? message : undefined;
}

/**
 * The message for a request that never got an answer (product.md#errors): the error's own message, with
 * 'Network error' as the fallback. A browser's fetch failure is a TypeError whose text is for
 * developers ('Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Load failed'),
 * so it reads 'Network error' too.
 */
export function networkMessageOf(error: unknown): string {
  if (error instanceof TypeError) return NETWORK_MESSAGE();
  return error instanceof Error && error.message.trim() ? error.message : NETWORK_MESSAGE();
}

export type Http = ReturnType<typeof createHttp>;

/** What the boot script keeps of an early read: the answer's status and its body, read as it arrived. */
interface EarlyAnswer {
  s: number;
  b: string;
}

/**
 * A read the boot script started as the page arrived (src/api/earlyReads.ts, issue 21): taken once, and
 * only with the same session token it was sent with; anything else is asked for as usual. Its body was
 * read while the page's JavaScript downloaded, so taking it costs the page no wait for the network.
 */
function takeEarlyRead(path: string, authorization: string | undefined): Promise<EarlyAnswer> | undefined {
  const early = (globalThis as { __sbEarly?: { t: string; q: Record<string, Promise<EarlyAnswer> | undefined> } }).__sbEarly;
  const read = early?.q[path];
  if (!read || !early || authorization !== `Bearer ${early.t}`) return undefined;
  early.q[path] = undefined;
  return read;
}

/** An early read's body, parsed as `response.json()` would be; not JSON counts as no body. */
function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export function createHttp(config: HttpConfig) {
  const doFetch = config.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));

  /** Sends a request and returns the parsed envelope, throwing an ApiError for a non-OK answer. */
  async function send(path: string, options: Omit<RequestOptions<unknown>, 'schema'>): Promise<Partial<Envelope>> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    let body: BodyInit | undefined;
    if (options.form) body = options.form;
    else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    if (options.auth !== false) {
      const token = config.getToken();
      if (token) headers.Authorization = `Bearer ${token}`;
    }

    const early = (options.method ?? 'GET') === 'GET' && !config.host ? takeEarlyRead(path, headers.Authorization) : undefined;
    // An early read that failed on the network is simply asked for again.
    const answer = early && (await early.catch(() => undefined));
    let status: number;
    let parsed: unknown;
    if (answer) {
      status = answer.s;
      parsed = parseBody(answer.b);
    } else {
      let response: Response;
      try {
        response = await doFetch(`${config.host}${path}`, {
          method: options.method ?? 'GET',
          headers,
          body,
          signal: options.signal,
        });
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') throw error;
        throw new ApiError(networkMessageOf(error));
      }
      status = response.status;
      // A body that is not JSON (a proxy's HTML error page) counts as no body.
      parsed = await response.json().catch(() => null);
    }

    if (status === 401) config.onUnauthorized();
    if (status < 200 || status > 299) throw new ApiError(messageOf(parsed) ?? FALLBACK_MESSAGE(), status);
    if (!isEnvelope(parsed)) throw new ApiError(FALLBACK_MESSAGE(), status);
    return parsed;
  }

  async function request<T>(path: string, options: RequestOptions<T>): Promise<T> {
    const envelope = await send(path, options);
    if (envelope.success !== true) throw new ApiError(messageOf(envelope) ?? FALLBACK_MESSAGE());
    const data = options.schema.safeParse(envelope.data);
    if (!data.success) throw new ApiError(FALLBACK_MESSAGE());
    return data.data;
  }

  /** Like request, but answers with the envelope's message too (calls whose message is the result). */
  async function requestWithMessage<T>(path: string, options: RequestOptions<T>): Promise<{ data: T; message: string }> {
    const envelope = await send(path, options);
    if (envelope.success !== true) throw new ApiError(messageOf(envelope) ?? FALLBACK_MESSAGE());
    const data = options.schema.safeParse(envelope.data);
    if (!data.success) throw new ApiError(FALLBACK_MESSAGE());
    return { data: data.data, message: messageOf(envelope) ?? '' };
  }

  /**
   * A file (issue 34: an invoice's PDF) with the bearer token, as a Blob; a failure's envelope message
   * (or the fallback) as an ApiError, a 401 ending the session as for any call.
   */
  async function requestBlob(path: string, options: { signal?: AbortSignal } = {}): Promise<Blob> {
    const headers: Record<string, string> = { Accept: 'application/pdf, application/json' };
    const token = config.getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    let response: Response;
    try {
      response = await doFetch(`${config.host}${path}`, { method: 'GET', headers, signal: options.signal });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(networkMessageOf(error));
    }
    if (response.status === 401) config.onUnauthorized();
    if (!response.ok) throw new ApiError(messageOf(await response.json().catch(() => null)) ?? FALLBACK_MESSAGE(), response.status);
    return response.blob();
  }

  return { request, requestWithMessage, requestBlob };
}
