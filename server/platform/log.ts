/**
 * The process's one logger (issue 33): pino, JSON lines for machines, pino-pretty for a terminal.
 *
 * - Settings (`readLogSettings`): LOG_LEVEL trace..fatal (default info); LOG_FORMAT json | pretty
 *   (default: pretty when stdout is a terminal, json otherwise). A bad value throws one clear line.
 * - Context: a request (server/platform/requestLog.ts) or a job (billing/engine.ts) runs inside
 *   `withLogContext`; every line written inside it carries its `requestId` / `jobId` (pino's mixin
 *   reads the AsyncLocalStorage), whoever writes it.
 * - `logLine(text)`: the `log: (line: string) => void` the services and the billing deps have always
 *   taken, written through pino with the context.
 * - No secret in a log line: the fields named in SECRET_KEYS are censored (at the top and two levels
 *   down; see maskFields for why not pino's `redact`), and `maskSecrets` masks what looks like a JWT, a
 *   card number (13–19 digits) or an `sk-`/`pk-` key in every message and every string field.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LogSettings {
  level: LogLevel;
  format: LogFormat;
}

/** LOG_LEVEL and LOG_FORMAT; throws an Error of one line for a value that is not one of them. */
export function readLogSettings(env: Record<string, string | undefined>, stdoutIsTty: boolean = process.stdout.isTTY === true): LogSettings {
  const level = (env.LOG_LEVEL ?? '').trim().toLowerCase() || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.LOG_LEVEL}").`);
  }
  const format = (env.LOG_FORMAT ?? '').trim().toLowerCase() || (stdoutIsTty ? 'pretty' : 'json');
  if (!(LOG_FORMATS as readonly string[]).includes(format)) {
    throw new Error(`LOG_FORMAT must be json or pretty (got "${env.LOG_FORMAT}").`);
  }
  return { level: level as LogLevel, format: format as LogFormat };
}

/* ----------------------------------------------------------------- secrets */

/** Field names whose values never reach a log line, wherever they appear in a logged object. */
export const SECRET_KEYS = [
  'password', 'newPassword', 'currentPassword', 'oldPassword', 'token', 'accessToken', 'refreshToken', 'idToken',
  'authorization', 'Authorization', 'cookie', 'Cookie', 'set-cookie', 'otp', 'code', 'secret', 'secretKey', 'publicKey',
  'privateKey', 'jwtSecret', 'cardNumber', 'number', 'cvc', 'cvv', 'pan', 'expiry', 'expMonth', 'expYear', 'card',
  'paymentTokenId', 'cardTokenId', 'passkey', 'smtpUrl', 'databaseUrl',
];
const CENSOR = '[redacted]';
const SECRET_KEY_SET = new Set(SECRET_KEYS.flatMap((key) => [key, key.toLowerCase()]));

/** A JWT (three base64url parts, the first a JSON header), a card-like run of 13–19 digits, an sk-/pk- key. */
const SECRET_TEXT = /\beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]{5,}|(?<![\w-])(?:\d[ -]?){12,18}\d(?![\w-])|\b[sp]k-[\w-]{8,}/g;

/** The text with every JWT, card number and sk-/pk- key in it masked. */
export function maskSecrets(text: string): string {
  return text.replace(SECRET_TEXT, (found) => (found.startsWith('eyJ') ? '[jwt]' : /^[sp]k-/.test(found) ? `${found.slice(0, 3)}[key]` : '[card]'));
}

/** Fields of ours that are never secret (the masks above skip them: a UUID could look like digits). */
const TRUSTED_FIELDS = new Set(['requestId', 'jobId', 'route', 'method', 'status', 'ms', 'level', 'time']);

/**
 * The line's fields with every secret field censored (at the top and two levels down) and every string
 * masked; the object itself is left as it was (a copy is made only where something changes).
 *
 * This is the redaction pino's `redact` option would do: with the SECRET_KEYS at three depths (its
 * wildcard paths) it cost about 100 µs a line, doubling a read's CPU (bench:api, issue 33); this
 * walk of the few fields a line has costs a few.
 */
function maskFields(object: Record<string, unknown>, depth = 0): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null;
  for (const key in object) {
    if (TRUSTED_FIELDS.has(key)) continue;
    const value = object[key];
    let masked: unknown = value;
    if (SECRET_KEY_SET.has(key)) masked = value === undefined || value === null ? value : CENSOR;
    else if (typeof value === 'string') masked = maskSecrets(value);
    else if (depth < 2 && value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Error)) masked = maskFields(value as Record<string, unknown>, depth + 1);
    if (masked !== value) (copy ??= { ...object })[key] = masked;
  }
  return copy ?? object;
}

/* ----------------------------------------------------------------- context */

export interface LogContext {
  requestId?: string;
  jobId?: string;
}

const context = new AsyncLocalStorage<LogContext>();

/** Runs `fn` with `ids` added to the context: every line logged inside it (and what it awaits) carries them. */
export function withLogContext<T>(ids: LogContext, fn: () => T): T {
  const outer = context.getStore();
  return context.run(outer ? { ...outer, ...ids } : ids, fn);
}

/** The request and job ids of the code running now (empty outside a request or a job). */
export const logContext = (): LogContext => context.getStore() ?? {};

/* ----------------------------------------------------------------- the logger */

/**
 * Standard output for JSON lines, written in chunks of at least 4 KB (a write per line cost about a
 * tenth of a read's CPU in bench:api) and at least every half second, so a quiet server's lines are not
 * held back; pino flushes what is left when the process exits.
 */
function bufferedStdout(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const flusher = setInterval(() => {
    try {
      destination.flush();
    } catch {
      // Not ready yet (the descriptor opens asynchronously), or being written: the next tick flushes.
    }
  }, 500);
  // jsdom's setInterval (the web tests that import server modules) answers a number, which has no unref.
  (flusher as { unref?: () => void }).unref?.();
  return destination;
}

function build(settings: LogSettings, destination?: DestinationStream): Logger {
  const stream =
    destination ??
    (settings.format === 'pretty'
      ? pretty({
          sync: true, colorize: process.stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', singleLine: true,
          // For a person at a terminal: a request is one short line (GET /path 200 12.3 ms), a Maya call
          // another; the ids and the client address are in the JSON lines (LOG_FORMAT=json).
          ignore: 'pid,hostname,requestId,jobId,method,route,path,status,ms,client,gateway,outcome',
          messageFormat: (line, messageKey) => {
            const text = String(line[messageKey] ?? '');
            if (text === 'request') return `${String(line.method)} ${String(line.path)} ${String(line.status)} ${String(line.ms)} ms`;
            if (text === 'gateway call') return `Maya ${String(line.gateway)}: ${String(line.method)} ${String(line.status)} ${String(line.outcome)} ${String(line.ms)} ms`;
            return line.outcome === undefined ? text : `${text} ${String(line.outcome)}`;
          },
        })
      : bufferedStdout());
  return pino(
    {
      level: settings.level,
      // The request's or job's ids, on every line written inside one. A new object each time: pino
      // merges the line's own fields into what the mixin answers.
      mixin: () => {
        const ids = context.getStore();
        return ids ? { ...ids } : {};
      },
      hooks: {
        // Free text: the message (first string argument) is masked before pino formats it.
        logMethod(args, method) {
          for (let i = 0; i < args.length; i++) if (typeof args[i] === 'string') (args as unknown[])[i] = maskSecrets(args[i] as string);
          return method.apply(this, args);
        },
      },
      formatters: { log: (object) => maskFields(object) },
    },
    stream,
  );
}

/** Until serve.ts configures it (a bad setting is refused there, with its line): from the environment, or the defaults. */
function initialSettings(): LogSettings {
  try {
    return readLogSettings(process.env);
  } catch {
    return { level: 'info', format: process.stdout.isTTY === true ? 'pretty' : 'json' };
  }
}
let current: Logger = build(initialSettings());

/**
 * Sets the process's logger (serve.ts at start; tests with their own destination, e.g. a buffer).
 * Answers the logger it replaced, to put back.
 */
export function configureLogger(settings: LogSettings, destination?: DestinationStream): Logger {
  const previous = current;
  current = build(settings, destination);
  return previous;
}

/** Puts back a logger `configureLogger` answered. */
export function restoreLogger(logger: Logger): void {
  current = logger;
}

/** The process's logger as it is now (a module-level binding would miss a later configureLogger). */
export const log = (): Logger => current;

/** The `log: (line: string) => void` of the services and billing deps: one info line through pino, with the context. */
export const logLine = (line: string): void => current.info(line);
