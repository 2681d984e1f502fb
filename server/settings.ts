/** `npm start`'s settings, read once from the environment and checked (a bad value stops the start). */
import { resolve } from 'node:path';
import { defaultGatewayConfig, type GatewayConfig } from './gateway/config';
import { MAYA_WEBHOOK_IPS, MAYA_WEBHOOK_KEYS, mayaEnvironment } from './gateway/mayaKeys';

/** Dev routes (/dev/*, /sandbox/*): this machine only (default), every client (a shared QA host), or none. */
export type DevRoutes = 'local' | 'public' | 'off';

export interface Settings {
  port: number;
  dataDir: string;
  serveSpa: boolean;
  distDir: string;
  /** The address people use to reach the app: links the server writes and /app-config.json use it. */
  publicBaseUrl: string;
  devRoutes: DevRoutes;
  /** MAYA_BASE_URL, MAYA_PUBLIC_KEY, MAYA_SECRET_KEY, MAYA_WEBHOOK_PUBLIC_KEYS, MAYA_WEBHOOK_IPS; default: the local sandbox. */
  gateway: GatewayConfig;
  /**
   * The billing engine: how often due work is looked for (BILLING_SWEEP_MS), how many jobs run at once
   * (BILLING_CONCURRENCY), and how often the reconciler is queued (BILLING_RECONCILE_MS).
   */
  billing: { sweepMs: number; concurrency: number; reconcileMs: number };
}

function wholeNumber(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const value = env[name];
  if (value === undefined || value.trim() === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) throw new Error(`${name} must be a whole number from ${min} to ${max}, not "${value}"`);
  return number;
}

const DEV_ROUTES: Record<string, DevRoutes> = { local: 'local', true: 'local', public: 'public', false: 'off', off: 'off' };

export function readSettings(env: Record<string, string | undefined>): Settings {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not "${env.PORT}"`);

  const devRoutes = DEV_ROUTES[(env.DEV_ROUTES ?? 'local').trim().toLowerCase()];
  if (!devRoutes) throw new Error(`DEV_ROUTES must be local (default), public or false, not "${env.DEV_ROUTES}"`);

  // Never the request's Host header: without PUBLIC_BASE_URL, the address the server listens on.
  let publicBaseUrl = `http://localhost:${port}`;
  if (env.PUBLIC_BASE_URL) {
    let url: URL;
    try {
      url = new URL(env.PUBLIC_BASE_URL);
    } catch {
      throw new Error(`PUBLIC_BASE_URL must be an http(s) address, not "${env.PUBLIC_BASE_URL}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`PUBLIC_BASE_URL must be an http(s) address, not "${env.PUBLIC_BASE_URL}"`);
    publicBaseUrl = url.origin;
  }

  const gateway = defaultGatewayConfig(port);
  if (env.MAYA_BASE_URL) {
    let url: URL;
    try {
      url = new URL(env.MAYA_BASE_URL);
    } catch {
      throw new Error(`MAYA_BASE_URL must be an http(s) address, not "${env.MAYA_BASE_URL}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`MAYA_BASE_URL must be an http(s) address, not "${env.MAYA_BASE_URL}"`);
    if (!env.MAYA_PUBLIC_KEY || !env.MAYA_SECRET_KEY) throw new Error('MAYA_BASE_URL needs MAYA_PUBLIC_KEY and MAYA_SECRET_KEY');
    gateway.baseUrl = url.href.replace(/\/+$/, '');
    // The keys go with Maya's address; the local sandbox answers only to its own.
    gateway.publicKey = env.MAYA_PUBLIC_KEY;
    gateway.secretKey = env.MAYA_SECRET_KEY;
    // Webhooks are believed when Maya's keys for that environment verify them, from Maya's addresses.
    const environment = mayaEnvironment(gateway.baseUrl);
    const keys = env.MAYA_WEBHOOK_PUBLIC_KEYS?.match(/-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g) ?? (environment ? [...MAYA_WEBHOOK_KEYS[environment]] : []);
    if (!keys.length) throw new Error('MAYA_WEBHOOK_PUBLIC_KEYS (PEM) is needed for a Maya address other than its sandbox or production');
    const ips = env.MAYA_WEBHOOK_IPS?.split(',').map((ip) => ip.trim()).filter(Boolean);
    gateway.webhook = {
      publicKeys: keys,
      allowedIps: ips?.length === 1 && ips[0] === 'any' ? [] : (ips ?? (environment ? [...MAYA_WEBHOOK_IPS[environment]] : [])),
    };
  }

  const dataDir = env.DATA_DIR ?? '.data';
  return {
    port,
    dataDir: dataDir === ':memory:' ? dataDir : resolve(dataDir),
    serveSpa: env.SERVE_SPA !== 'false',
    distDir: resolve(env.DIST_DIR ?? 'dist'),
    publicBaseUrl,
    devRoutes,
    gateway,
    billing: { sweepMs: wholeNumber(env, 'BILLING_SWEEP_MS', 2000, 100, 3_600_000), concurrency: wholeNumber(env, 'BILLING_CONCURRENCY', 8, 1, 256),
      reconcileMs: wholeNumber(env, 'BILLING_RECONCILE_MS', 15_000, 1000, 3_600_000) },
  };
}
