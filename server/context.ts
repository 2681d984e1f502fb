/** What the routes share (deps, services, the Hono env), apart from app.ts so routes do not import the app. */
import type { Hono } from 'hono';
import type { HeaderRecord } from './platform/secureHeaders';
import type { Db } from './platform/db';
import type { GatewayConfig } from './gateway/config';
import type { Gateway } from './gateway/maya';
import type { createMailbox } from './platform/mail';
import type { createOtp, createSingleUseTokens } from './identity/codes';
import type { DevRoutes } from './settings';
import type { TrustedProxies } from './platform/proxies';
import type { ReadinessCheck } from './platform/health';
import type { SignInThrottle } from './identity/throttle';
import type { Tokens } from './identity/tokens';
import type { UploadStore } from './identity/photos';
import type { JobQueue } from './platform/jobs';

export interface AppDeps {
  db: Db;
  tokens: Tokens;
  /** The public address of the app, for links the server writes and /app-config.json; never the Host header. */
  publicBaseUrl: string;
  log?: (line: string) => void;
  uploads?: UploadStore;
  /** /dev/* and /sandbox/*: this machine only (default), every client, or off (DEV_ROUTES). */
  devRoutes?: DevRoutes;
  /** The Maya gateway's address, keys and webhook secret (default: the local sandbox, see gateway/config.ts). */
  gatewayConfig?: GatewayConfig;
  /** TRUST_PROXY: the proxies whose X-Forwarded-For names the client (none: the connection's address is the client). */
  trustProxy?: TrustedProxies;
  /** /readyz's checks beyond the database (the entry adds the job queue's; platform/health.ts). */
  readiness?: ReadinessCheck;
  /** The dev modules (server/dev), mounted behind the dev-route gate; given by the entry and the tests only. */
  devModules?: DevModules;
  /**
   * The SHA-256 (base64) of each inline script the built pages carry (the boot script; the build lists them in
   * dist/.script-hashes*.json): the Content-Security-Policy allows exactly these beside 'self' (issue 21).
   */
  scriptHashes?: string[];
  /** METRICS_TOKEN: /metrics on this app answers the bearer of it; without one, /metrics is a 404 (platform/metrics.ts). */
  metricsToken?: string | null;
  /**
   * The keys the back office seals operators' TOTP secrets with (server/ops/auth.ts deriveOpsKey): from
   * JWT_SECRET first (it seals), then from each JWT_SECRET_PREVIOUS (they still open, during a rotation).
   * Without any (tests), a random key for this app's life.
   */
  opsKeys?: Uint8Array[];
  /** The job queue for the account's jobs (identity/accountJobs.ts); without one they run in this process. */
  jobs?: JobQueue;
  /** DPO_EMAIL (settings.ts): the data protection officer /app-config.json names; default the sample. */
  dpo?: { email: string; sample: boolean };
}

/** Routes mounted at a path when dev routes are on (server/dev/index.ts). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each module has its own Hono env
export type DevModules = (services: Services) => Array<{ path: string; routes: Hono<any> }>;

/** What the routes share, built once from the deps. */
export interface Services extends AppDeps {
  log: (line: string) => void;
  uploads: UploadStore;
  mailbox: ReturnType<typeof createMailbox>;
  otp: ReturnType<typeof createOtp>;
  resetTokens: ReturnType<typeof createSingleUseTokens>;
  loginLinks: ReturnType<typeof createSingleUseTokens>;
  signInThrottle: SignInThrottle;
  devRoutes: DevRoutes;
  gatewayConfig: GatewayConfig;
  /** The one Maya client the payment routes use. */
  gateway: Gateway;
}

export const CODE_LINK_TTL_MS = 10 * 60 * 1000;

/**
 * The viewer, set by requireAuth; `uncheckedSession`: the session a read must still check in its own
 * statement (requireAuth's `readChecksSession`), null once checked.
 */
export type AppEnv = {
  Variables: {
    userId: string;
    sessionId: string;
    uncheckedSession: string | null;
    /** The client's address behind the trusted proxies (platform/client.ts resolveClient; set only with TRUST_PROXY). */
    clientAddress: string;
    /** The security headers as one record, for the envelope (platform/secureHeaders.ts). */
    envelopeHeaders: HeaderRecord;
    /** The request's id (platform/requestLog.ts), answered in X-Request-Id and on its log lines. */
    requestId: string;
  };
};

export const JSON_BODY_LIMIT = 64 * 1024;

