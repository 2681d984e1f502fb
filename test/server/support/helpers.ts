import { PGlite } from '@electric-sql/pglite';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { inject } from 'vitest';
import { createApp, type AppDeps } from '../../../server/app';
import { devModules } from '../../../server/dev';
import { sandboxSigningKeys } from '../../../server/sandbox/keys';
import { pgliteDb, type Db } from '../../../server/platform/db';
import { openPreparedDatabase } from '../../../server/startup';
import { defaultGatewayConfig } from '../../../server/gateway/config';
import { createTokens } from '../../../server/identity/tokens';

/** The bindings @hono/node-server gives a request, reduced to what `getConnInfo` reads. */
export const fromAddress = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });

/** The address requests come from unless a test says otherwise: this machine, as QA and the e2e tests. */
export const LOOPBACK = '127.0.0.1';

export interface CallOptions {
  body?: unknown;
  raw?: string;
  token?: string;
  /** The client's address (default: loopback). */
  client?: string;
  headers?: Record<string, string>;
}

let cloneTemplate: Promise<() => Promise<Db>> | undefined;

/**
 * The database `openPreparedDatabase(':memory:')` opens (migrated and seeded), as a copy of the run's template
 * (test/support/pglite-template.ts) instead of initdb, migrations and seed each time; on PostgreSQL
 * (DATABASE_URL) a throwaway database, from openPreparedDatabase itself. A file compiles PGlite's WebAssembly once.
 */
export async function openTestDatabase(): Promise<Db> {
  const template = inject('pgliteTemplate');
  if (!template) return openPreparedDatabase(':memory:');
  cloneTemplate ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [data, pgliteWasm, initdbWasm, fsData] = await Promise.all(
      [template, join(dist, 'pglite.wasm'), join(dist, 'initdb.wasm'), join(dist, 'pglite.data')].map((file) => readFile(file)),
    );
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all([WebAssembly.compile(pgliteWasm!), WebAssembly.compile(initdbWasm!)]);
    const loadDataDir = new Blob([data!]);
    const fsBundle = new Blob([fsData!]);
    return async () => {
      const lite = new PGlite({ loadDataDir, fsBundle, pgliteWasmModule, initdbWasmModule });
      await lite.waitReady;
      return pgliteDb(lite);
    };
  })();
  return (await cloneTemplate)();
}

export async function startTestServer(
  options: Partial<Pick<AppDeps, 'devRoutes' | 'publicBaseUrl' | 'scriptHashes' | 'trustProxy' | 'readiness'>> & {
    /** Maya's webhook addresses, checked as in production (default: any, as for the local sandbox). */
    webhookIps?: string[];
  } = {},
) {
  const db: Db = await openTestDatabase();
  const logs: string[] = [];
  // The real Maya client talks to the sandbox of this very app, through app.request from loopback.
  // Webhooks are checked with the sandbox's public key, as the server does at start (serve.ts).
  const signing = await sandboxSigningKeys(db);
  const base = defaultGatewayConfig(0, [signing.publicPem]);
  base.webhook.allowedIps = options.webhookIps ?? [];
  const gatewayConfig = { ...base, fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
    Promise.resolve(hono.request(input instanceof Request ? input : String(input), init, fromAddress(LOOPBACK)))) as typeof fetch };
  const hono = createApp({
    devModules,
    gatewayConfig,
    db,
    tokens: createTokens(db, randomBytes(32)),
    log: (line) => logs.push(line),
    publicBaseUrl: options.publicBaseUrl ?? 'http://localhost',
    devRoutes: options.devRoutes ?? 'local',
    scriptHashes: options.scriptHashes,
    trustProxy: options.trustProxy,
    readiness: options.readiness,
  });
  /** The app, with each request coming from `client` (loopback unless told). */
  const app = {
    request: (input: string, init?: RequestInit, client: string = LOOPBACK) => Promise.resolve(hono.request(input, init, fromAddress(client))),
    routes: hono.routes,
  };
  const call = async (method: string, path: string, options: CallOptions = {}) => {
    const headers: Record<string, string> = {};
    if (options.body !== undefined || options.raw !== undefined) headers['Content-Type'] = 'application/json';
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    Object.assign(headers, options.headers);
    const response = await app.request(
      path,
      { method, headers, body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)) },
      options.client,
    );
    const json = (await response.json().catch(() => null)) as { success: boolean; message: string; data: any } // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read nested fields freely | null;
    return { status: response.status, json: json!, headers: response.headers };
  };
  const mail = async (to: string) => {
    const response = await app.request(`/dev/mailbox.json?to=${encodeURIComponent(to)}`);
    return (await response.json()) as Array<{ to: string; subject: string; text: string; otp: string | null; sentAt: string }>;
  };
  /** Moves every send of this email back in time, as if the 60 s wait had passed. */
  const ageSends = async (email: string, seconds = 61) => {
    await db.query(`UPDATE otp_sends SET sent_at = sent_at - ($2 || ' seconds')::interval WHERE email = $1`, [email, String(seconds)]);
  };
  const signIn = async (email: string, password = 'Bisaya-Demo-2026', client?: string) =>
    call('POST', '/api/v1/mobile/auth/sign-in-email', { body: { email, password }, client });
  return { db, app, call, signIn, logs, mail, ageSends, signingKey: signing.privatePem };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/** An app's request handler as a fetch that gives up when the client's signal says so, as a real fetch does. */
export function abortableFetch(app: { request: (input: string, init?: RequestInit) => Response | Promise<Response> }): typeof fetch {
  return ((input: RequestInfo | URL, init?: RequestInit) =>
    new Promise<Response>((resolve, reject) => {
      const signal = init?.signal;
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      Promise.resolve(app.request(String(input), init)).then(resolve, reject);
    })) as typeof fetch;
}
