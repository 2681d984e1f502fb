/**
 * `npm start`'s settings, read once from the environment and checked (a bad value stops the start).
 * `APP_ENV=production` (docs/operations.md) adds the checks a service on the internet needs, and the
 * server refuses to start with one line per problem; without it (the embedded default) nothing changes.
 */
import { resolve } from 'node:path';
import { defaultGatewayConfig, isLocalSandbox, SANDBOX_PATH, SANDBOX_SECRET_KEY, type GatewayConfig } from './gateway/config';
import { readTrustedProxies, type TrustedProxies } from './platform/proxies';
import { readLogSettings, type LogSettings } from './platform/log';
import { readMetricsSettings, type MetricsSettings } from './platform/metrics';
import { MAYA_WEBHOOK_IPS, MAYA_WEBHOOK_KEYS, mayaEnvironment } from './gateway/mayaKeys';
import { TIN_PATTERN } from '../src/api/schemas';
import { SAMPLE_DPO_EMAIL } from './platform/appConfig.routes';
import type { Seller } from './billing/invoices';

/** Dev routes (/dev/*, /sandbox/*): this machine only (default), every client (a shared QA host), or none. */
export { readTrustedProxies, type TrustedProxies } from './platform/proxies';

export type DevRoutes = 'local' | 'public' | 'off';

/** development: the embedded default (demo data, dev routes, the local sandbox); production: none of it. */
export type AppEnv = 'development' | 'production';

export interface Settings {
  appEnv: AppEnv;
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
  /** TRUST_PROXY: addresses or CIDR ranges of the proxies in front; none by default (the socket's address is the client). */
  trustProxy: TrustedProxies;
  /** JWT_SECRET (and JWT_SECRET_PREVIOUS, still accepted while a rotation runs); undefined: kept beside the data (development). */
  jwtSecret: string | undefined;
  jwtPreviousSecrets: string[];
  /** LOG_LEVEL, LOG_FORMAT (platform/log.ts). */
  log: LogSettings;
  /** METRICS_PORT, METRICS_TOKEN (platform/metrics.ts); both unset: no metrics. */
  metrics: MetricsSettings;
  /**
   * The seller invoices and credit memos name (issue 34, product.md#invoices): SELLER_NAME, SELLER_TIN
   * (with branch code, 123-456-789-00000) and SELLER_ADDRESS, all three or none. None: the embedded
   * sample, marked SAMPLE on every document (refused in production).
   */
  seller: Seller | null;
  /**
   * DPO_EMAIL (issue 36): the data protection officer's address the privacy page names (RA 10173).
   * Unset: the embedded sample, shown as a sample (refused in production, like SELLER_*).
   */
  dpo: { email: string; sample: boolean };
}

/** The shortest JWT_SECRET accepted (HS256 wants at least 256 bits). */
export const MIN_JWT_SECRET = 32;

function wholeNumber(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const value = env[name];
  if (value === undefined || value.trim() === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) throw new Error(`${name} must be a whole number from ${min} to ${max}, not "${value}"`);
  return number;
}

const DEV_ROUTES: Record<string, DevRoutes> = { local: 'local', true: 'local', public: 'public', false: 'off', off: 'off' };

const APP_ENVS: Record<string, AppEnv> = { development: 'development', dev: 'development', production: 'production', prod: 'production' };

/** Reads `read`, or notes its error among the problems and answers `fallback`. */
function each<T>(problems: string[], read: () => T, fallback: T): T {
  try {
    return read();
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
    return fallback;
  }
}

function httpAddress(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an http(s) address, not "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http(s) address, not "${value}"`);
  return url;
}

function readGateway(env: Record<string, string | undefined>, port: number): GatewayConfig {
  const gateway = defaultGatewayConfig(port);
  if (!env.MAYA_BASE_URL) return gateway;
  const url = httpAddress('MAYA_BASE_URL', env.MAYA_BASE_URL);
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
  return gateway;
}

/**
 * Every setting is checked; all problems are reported at once, one line each (a single one as it is,
 * as before). In production the checks of productionProblems are added.
 */
export function readSettings(env: Record<string, string | undefined>): Settings {
  const problems: string[] = [];
  const appEnv = each(problems, () => {
    const value = APP_ENVS[(env.APP_ENV ?? 'development').trim().toLowerCase()];
    if (!value) throw new Error(`APP_ENV must be development (default) or production, not "${env.APP_ENV}"`);
    return value;
  }, 'development' as AppEnv);
  const port = each(problems, () => {
    const value = Number(env.PORT ?? 8080);
    if (!Number.isInteger(value) || value < 0 || value > 65535) throw new Error(`PORT must be a port number, not "${env.PORT}"`);
    return value;
  }, 8080);
  const devRoutes = each(problems, () => {
    const value = DEV_ROUTES[(env.DEV_ROUTES ?? 'local').trim().toLowerCase()];
    if (!value) throw new Error(`DEV_ROUTES must be local (default), public or false, not "${env.DEV_ROUTES}"`);
    return value;
  }, 'local' as DevRoutes);
  // Never the request's Host header: without PUBLIC_BASE_URL, the address the server listens on.
  const publicBaseUrl = each(problems, () => (env.PUBLIC_BASE_URL ? httpAddress('PUBLIC_BASE_URL', env.PUBLIC_BASE_URL).origin : `http://localhost:${port}`), '');
  const before = problems.length;
  const gateway = each(problems, () => readGateway(env, port), defaultGatewayConfig(port));
  const gatewayRead = problems.length === before;
  const dataDir = env.DATA_DIR ?? '.data';
  const trustProxy = each(problems, () => readTrustedProxies(env.TRUST_PROXY), readTrustedProxies(undefined));
  const jwtPreviousSecrets = (env.JWT_SECRET_PREVIOUS ?? '').split(',').map((secret) => secret.trim()).filter(Boolean);
  if (jwtPreviousSecrets.some((secret) => secret.length < MIN_JWT_SECRET)) problems.push(`JWT_SECRET_PREVIOUS: each secret must be at least ${MIN_JWT_SECRET} characters`);
  if (env.JWT_SECRET && env.JWT_SECRET.length < MIN_JWT_SECRET) {
    problems.push(`JWT_SECRET must be at least ${MIN_JWT_SECRET} characters (e.g. \`openssl rand -base64 48\`), not ${env.JWT_SECRET.length}`);
  }
  const billing = {
    sweepMs: each(problems, () => wholeNumber(env, 'BILLING_SWEEP_MS', 2000, 100, 3_600_000), 2000),
    concurrency: each(problems, () => wholeNumber(env, 'BILLING_CONCURRENCY', 8, 1, 256), 8),
    reconcileMs: each(problems, () => wholeNumber(env, 'BILLING_RECONCILE_MS', 15_000, 1000, 3_600_000), 15_000),
  };
  const logSettings = each(problems, () => readLogSettings(env), { level: 'info', format: 'json' } as LogSettings);
  const metrics = each(problems, () => readMetricsSettings(env), { port: null, token: null } as MetricsSettings);
  const seller = each(problems, () => readSeller(env), null);
  const dpo = each(problems, () => readDpo(env), { email: SAMPLE_DPO_EMAIL, sample: true });
  if (appEnv === 'production') problems.push(...productionProblems(env, { devRoutes, gateway, gatewayRead, dataDir }));
  if (problems.length === 1 && appEnv !== 'production') throw new Error(problems[0]);
  if (problems.length) {
    const intro = appEnv === 'production' ? 'APP_ENV=production: not starting' : 'Not starting';
    throw new Error(`${intro}, ${problems.length} setting${problems.length === 1 ? '' : 's'} to fix (docs/operations.md#settings):\n${problems.map((p) => `- ${p}`).join('\n')}`);
  }
  return {
    appEnv,
    trustProxy,
    jwtSecret: env.JWT_SECRET || undefined,
    jwtPreviousSecrets,
    port,
    dataDir: dataDir === ':memory:' ? dataDir : resolve(dataDir),
    serveSpa: env.SERVE_SPA !== 'false',
    distDir: resolve(env.DIST_DIR ?? 'dist'),
    publicBaseUrl,
    devRoutes,
    gateway,
    billing,
    log: logSettings,
    metrics,
    seller,
    dpo,
  };
}

/** DPO_EMAIL: one email address; unset, the embedded sample. */
function readDpo(env: Record<string, string | undefined>): { email: string; sample: boolean } {
  const email = env.DPO_EMAIL?.trim();
  if (!email) return { email: SAMPLE_DPO_EMAIL, sample: true };
  if (email.length > 254 || !/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(email)) throw new Error(`DPO_EMAIL must be one email address (the data protection officer's), not "${email}"`);
  return { email, sample: false };
}

/** SELLER_NAME, SELLER_TIN and SELLER_ADDRESS: all three (the TIN with its branch code), or none (the sample seller). */
function readSeller(env: Record<string, string | undefined>): Seller | null {
  const [name, tin, address] = ['SELLER_NAME', 'SELLER_TIN', 'SELLER_ADDRESS'].map((key) => env[key]?.trim() || undefined);
  if (!name && !tin && !address) return null;
  if (!name || !tin || !address) throw new Error('SELLER_NAME, SELLER_TIN and SELLER_ADDRESS go together: set all three (the seller invoices name), or none for the sample seller');
  if (!TIN_PATTERN.test(tin)) throw new Error(`SELLER_TIN must be the TIN with its branch code, 123-456-789-00000, not "${tin}"`);
  if (name.length > 200 || address.length > 300) throw new Error('SELLER_NAME must be at most 200 characters and SELLER_ADDRESS at most 300');
  return { name, tin, address };
}

/**
 * What production refuses, one line each: the local sandbox as the gateway, dev routes, a missing or
 * short JWT secret, no mail relay, no public https address, a fixed clock, a throwaway database.
 */
function productionProblems(env: Record<string, string | undefined>, read: { devRoutes: DevRoutes; gateway: GatewayConfig; gatewayRead: boolean; dataDir: string }): string[] {
  const problems: string[] = [];
  const { gateway } = read;
  if (!env.MAYA_BASE_URL) {
    problems.push('MAYA_BASE_URL, MAYA_PUBLIC_KEY and MAYA_SECRET_KEY must name Maya: production never uses the local sandbox');
  } else if (read.gatewayRead && (isLocalSandbox(gateway) || gateway.secretKey === SANDBOX_SECRET_KEY || new URL(gateway.baseUrl).pathname.startsWith(SANDBOX_PATH))) {
    problems.push(`MAYA_BASE_URL and the Maya keys point at the local sandbox (${SANDBOX_PATH}, its sample keys): use Maya's address and your merchant keys`);
  }
  if (read.devRoutes !== 'off') problems.push(`DEV_ROUTES must be false in production (it is "${env.DEV_ROUTES ?? 'local'}"${env.DEV_ROUTES === undefined ? ', the default' : ''}): the dev routes sign anyone in as anyone`);
  if (!env.JWT_SECRET) problems.push(`JWT_SECRET must be set, at least ${MIN_JWT_SECRET} characters, the same in every process (e.g. \`openssl rand -base64 48\`)`);
  if (!env.SMTP_URL) problems.push('SMTP_URL must name the mail relay (smtp://user:pass@host:587 or smtps://…:465): codes and receipts are mailed');
  else if (!/^smtps?:\/\/[^/\s]+/.test(env.SMTP_URL)) problems.push('SMTP_URL must be an smtp:// or smtps:// address (smtp://user:pass@host:587)');
  if (!env.PUBLIC_BASE_URL) problems.push('PUBLIC_BASE_URL must be the https address viewers use (e.g. https://sinebisaya.ph): links in mails and Maya\'s return addresses use it');
  else if (!env.PUBLIC_BASE_URL.startsWith('https://')) problems.push(`PUBLIC_BASE_URL must be https in production, not "${env.PUBLIC_BASE_URL}"`);
  if (env.NOW) problems.push('NOW must not be set in production: the billing clock is the system clock');
  if (read.dataDir === ':memory:') problems.push('DATA_DIR=:memory: keeps nothing (with DATABASE_URL it is a database dropped at exit): set DATABASE_URL, or DATA_DIR to a directory');
  if (!env.SELLER_NAME?.trim() && !env.SELLER_TIN?.trim() && !env.SELLER_ADDRESS?.trim()) {
    problems.push('SELLER_NAME, SELLER_TIN (with branch code, 123-456-789-00000) and SELLER_ADDRESS must name the registered seller: every invoice prints them');
  }
  if (!env.DPO_EMAIL?.trim()) problems.push("DPO_EMAIL must be the data protection officer's address: the privacy page names it (RA 10173)");
  if (env.MAYA_WEBHOOK_IPS?.trim() === 'any') problems.push("MAYA_WEBHOOK_IPS=any turns off the check of Maya's webhook addresses: list them, or leave it unset for Maya's published ones");
  return problems;
}
