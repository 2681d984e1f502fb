/**
 * Metrics in Prometheus's text format (issue 33), from prom-client, in a registry of our own (with
 * Node's default process metrics: CPU, memory, event-loop lag, GC, handles; prefixed `process_`/`nodejs_`).
 *
 * The names and labels are a contract (docs/operations.md alerts on them):
 *
 * | name                              | type      | labels                 | meaning                                                            | suggested alert                                                   |
 * |-----------------------------------|-----------|------------------------|--------------------------------------------------------------------|-------------------------------------------------------------------|
 * | http_requests_total               | counter   | method, route, status  | answers given; route = Hono's route pattern, "unmatched" for 404s  | rate(status=~"5..") / rate(all) > 1 % for 5 min                   |
 * | http_request_duration_seconds     | histogram | method, route          | time from the request's arrival to its answer                      | p99 of an /api route > 0.5 s for 10 min                           |
 * | gateway_calls_total               | counter   | kind, outcome          | calls to Maya; kind = the call (createPaymentToken, payWithCard…); | rate(outcome=~"unreachable|failed|bad_response") > 0 for 5 min    |
 * |                                   |           |                        | outcome = ok, rejected (4xx), failed (5xx), unreachable, bad_response |                                                                |
 * | gateway_call_duration_seconds     | histogram | kind                   | time of a call to Maya, to its answer or its failure               | p95 > 5 s for 10 min (Maya slow; the calls time out at 15 s)      |
 * | renewals_total                    | counter   | outcome                | renewal jobs run: renewed, failed (declined: dunning), pending     | increase(failed) / increase(renewed+failed) > 20 % over 1 h;      |
 * |                                   |           |                        | (answer unknown: held, read again), ended (lapsed), skipped, error | increase(error) > 0                                               |
 * | job_queue_depth                   | gauge     | queue                  | jobs waiting (created or retry) per pg-boss queue, read on scrape  | billing-due > 64 for 15 min (the sweep stops topping up at 64)    |
 * | job_queue_oldest_due_seconds      | gauge     | queue                  | how long the oldest waiting job has been due (0: none due)         | > 300 for 5 min (no process works the queue)                      |
 * | reconciler_findings_total         | counter   | kind                   | per reconciler pass: read, unreadable, decided, reversed, receipts | rate(unreadable) > 0 for 30 min (Maya unreadable); reversed > 0   |
 * |                                   |           |                        |                                                                    | (money given back: look why)                                       |
 * | mails_total                       | counter   | outcome                | mails handed to the relay: sent, failed                            | increase(failed) > 0 over 15 min                                  |
 *
 * Scraped on a port of its own (METRICS_PORT, every path answers the metrics) or at /metrics on the
 * main port with `Authorization: Bearer <METRICS_TOKEN>` (without the token, or with another, /metrics
 * is a 404 like any unknown path). Neither set: no metrics are served (they are still counted).
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from './db';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const registers = [registry];

export const httpRequests = new Counter({
  name: 'http_requests_total', help: 'HTTP answers by method, route pattern and status.', labelNames: ['method', 'route', 'status'] as const, registers,
});
export const httpDuration = new Histogram({
  name: 'http_request_duration_seconds', help: 'Time from a request to its answer, by method and route pattern.', labelNames: ['method', 'route'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers,
});
/**
 * One answer counted and timed. The label sets are few (routes × methods × statuses), so each one's
 * counter and histogram are looked up once and kept: prom-client hashes a label object on every call.
 */
const requestSeries = new Map<string, { count: ReturnType<typeof httpRequests.labels>; time: ReturnType<typeof httpDuration.labels> }>();
export function countRequest(method: string, route: string, status: number, seconds: number): void {
  const key = `${method} ${status} ${route}`;
  let series = requestSeries.get(key);
  if (!series) {
    series = { count: httpRequests.labels(method, route, String(status)), time: httpDuration.labels(method, route) };
    requestSeries.set(key, series);
  }
  series.count.inc();
  series.time.observe(seconds);
}

export const gatewayCalls = new Counter({
  name: 'gateway_calls_total', help: 'Calls to the Maya gateway by kind and outcome (ok, rejected, failed, unreachable, bad_response).',
  labelNames: ['kind', 'outcome'] as const, registers,
});
export const gatewayDuration = new Histogram({
  name: 'gateway_call_duration_seconds', help: 'Time of a call to the Maya gateway, by kind.', labelNames: ['kind'] as const,
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15], registers,
});
export const renewals = new Counter({
  name: 'renewals_total', help: 'Renewal jobs by outcome (renewed, failed, pending, ended, skipped, error).', labelNames: ['outcome'] as const, registers,
});
export const reconcilerFindings = new Counter({
  name: 'reconciler_findings_total', help: 'Reconciler findings by kind (read, unreadable, decided, reversed, receipts).', labelNames: ['kind'] as const, registers,
});
export const mails = new Counter({ name: 'mails_total', help: 'Mails by outcome (sent, failed).', labelNames: ['outcome'] as const, registers });

/* ----------------------------------------------------------------- the job queue, read on scrape */

let queueDb: Db | null = null;
let queueRead: Promise<Array<{ queue: string; depth: number; oldest: number }>> | null = null;

/**
 * The job queue's depth and oldest due job per queue, in one statement over pg-boss's partial index
 * (job_i5: name, start_after where state < active); both gauges share one read per scrape.
 */
function readQueues() {
  const db = queueDb;
  if (!db) return Promise.resolve([]);
  queueRead ??= db
    .query<{ queue: string; depth: number; oldest: number | null }>(
      `SELECT q.name AS queue, count(j.id)::int AS depth,
              COALESCE(EXTRACT(epoch FROM now() - min(j.start_after) FILTER (WHERE j.start_after <= now())), 0)::float8 AS oldest
         FROM pgboss.queue q LEFT JOIN pgboss.job j ON j.name = q.name AND j.state < 'active'
        GROUP BY q.name`,
    )
    .then((result) => result.rows.map((r) => ({ queue: r.queue, depth: Number(r.depth), oldest: Number(r.oldest ?? 0) })))
    .catch(() => [])
    .finally(() => setImmediate(() => (queueRead = null)));
  return queueRead;
}

new Gauge({
  name: 'job_queue_depth', help: 'Jobs waiting (created or retry) per job queue, read at scrape time.', labelNames: ['queue'] as const, registers,
  async collect() {
    this.reset();
    for (const { queue, depth } of await readQueues()) this.set({ queue }, depth);
  },
});
new Gauge({
  name: 'job_queue_oldest_due_seconds', help: 'Seconds the oldest waiting job of each queue has been due (0: none due).', labelNames: ['queue'] as const, registers,
  async collect() {
    this.reset();
    for (const { queue, oldest } of await readQueues()) this.set({ queue }, Math.max(0, oldest));
  },
});

/** The database whose job queue the gauges read (the billing engine's; the last one given wins). */
export function observeJobQueue(db: Db): () => void {
  queueDb = db;
  return () => {
    if (queueDb === db) queueDb = null;
  };
}

/* ----------------------------------------------------------------- settings and serving */

export interface MetricsSettings {
  /** A port of its own for the metrics (METRICS_PORT), or null. */
  port: number | null;
  /** The bearer token /metrics on the main port asks for (METRICS_TOKEN), or null. */
  token: string | null;
}

/** METRICS_PORT and METRICS_TOKEN; throws an Error of one line for a bad value. */
export function readMetricsSettings(env: Record<string, string | undefined>): MetricsSettings {
  const rawPort = env.METRICS_PORT?.trim();
  let port: number | null = null;
  if (rawPort) {
    port = Number(rawPort);
    if (!/^\d+$/.test(rawPort) || port < 1 || port > 65535) throw new Error(`METRICS_PORT must be a port number from 1 to 65535 (got "${env.METRICS_PORT}").`);
  }
  const token = env.METRICS_TOKEN?.trim() || null;
  if (token !== null && (token.length < 16 || !/^[\x21-\x7e]+$/.test(token))) {
    throw new Error('METRICS_TOKEN must be at least 16 printable characters without spaces.');
  }
  return { port, token };
}

/** Whether an Authorization header carries exactly this bearer token (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length));
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** The metrics as Prometheus reads them. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}

/** The metrics on a port of their own (METRICS_PORT): every GET answers them. */
export function serveMetrics(port: number, host?: string): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    metricsText().then(
      ({ contentType, body }) => res.writeHead(200, { 'Content-Type': contentType }).end(req.method === 'HEAD' ? undefined : body),
      () => res.writeHead(500).end(),
    );
  });
  return new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolveListen(server));
  });
}
