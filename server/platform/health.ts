/**
 * Health for a load balancer (issue 33, docs/operations.md#health):
 * - `GET /healthz`: the process answers (liveness; touches nothing);
 * - `GET /readyz`: the database answers, every migration this code knows is applied, and the job queue
 *   works (the billing engine sweeps; `readiness` from the entry), and the process is not stopping.
 *   200 with each check "ok", or 503 naming what is wrong. One answer is kept for a second, so any
 *   number of balancers asking every second cost one query a second.
 */
import { Hono } from 'hono';
import type { Db } from './db';
import { migrationNames } from './db';

/** More checks for /readyz: each name maps to "ok" or what is wrong. */
export type ReadinessCheck = () => Record<string, string>;

export interface HealthDeps {
  db: Db;
  readiness?: ReadinessCheck;
  /** How long an answer is kept (ms). */
  cacheMs?: number;
  /** How long the database may take (ms). */
  timeoutMs?: number;
}

export interface Readiness {
  ready: boolean;
  checks: Record<string, string>;
}

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' };

export function healthRoutes(deps: HealthDeps) {
  const cacheMs = deps.cacheMs ?? 1000;
  const timeoutMs = deps.timeoutMs ?? 2000;
  const known = migrationNames();
  let cached: { at: number; answer: Promise<Readiness> } | null = null;

  async function database(): Promise<Record<string, string>> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const row = await Promise.race([
        deps.db.query<{ applied: number }>('SELECT count(*)::int AS applied FROM schema_migrations WHERE name = ANY($1::text[])', [known]),
        timeout,
      ]);
      const missing = known.length - row.rows[0]!.applied;
      return { database: 'ok', migrations: missing ? `${missing} of ${known.length} not applied (npm run migrate)` : 'ok' };
    } catch (error) {
      return { database: `unreachable: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, migrations: 'unknown' };
    } finally {
      clearTimeout(timer);
    }
  }

  async function check(): Promise<Readiness> {
    const checks = { ...(await database()), ...deps.readiness?.() };
    return { ready: Object.values(checks).every((value) => value === 'ok'), checks };
  }

  const app = new Hono();
  app.get('/healthz', (c) => c.body('{"status":"ok"}', 200, JSON_HEADERS));
  app.get('/readyz', async (c) => {
    const at = Date.now();
    if (!cached || at - cached.at >= cacheMs) cached = { at, answer: check() };
    const { ready, checks } = await cached.answer;
    return c.body(JSON.stringify({ status: ready ? 'ready' : 'not ready', checks }), ready ? 200 : 503, JSON_HEADERS);
  });
  return app;
}
