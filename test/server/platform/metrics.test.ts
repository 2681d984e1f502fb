/**
 * The metrics (issue 33): /metrics only for the bearer of METRICS_TOKEN (a 404 to anyone else), or on a
 * port of its own; the counters move as requests, gateway calls and mails do; the route label is the
 * route's pattern, never the path; the job queue's gauges read pg-boss's tables; the settings refuse
 * bad values in one line.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { devModules } from '../../../server/dev';
import { startBillingEngine, type BillingEngine } from '../../../server/billing/engine';
import { createMayaClient } from '../../../server/gateway/maya';
import { defaultGatewayConfig } from '../../../server/gateway/config';
import { createTokens } from '../../../server/identity/tokens';
import { createMailer } from '../../../server/platform/mail';
import { readMetricsSettings, serveMetrics } from '../../../server/platform/metrics';
import { sandboxSigningKeys } from '../../../server/sandbox/keys';
import type { Db } from '../../../server/platform/db';
import { fromAddress, LOOPBACK, openTestDatabase } from '../support/helpers';

const TOKEN = 'metrics-token-0123456789abcdef';
const V1 = '/api/v1/mobile';

let db: Db;
let app: ReturnType<typeof createApp>;
let engine: BillingEngine;
const request = (path: string, init?: RequestInit) => Promise.resolve(app.request(path, init, fromAddress(LOOPBACK)));

beforeAll(async () => {
  db = await openTestDatabase();
  const signing = await sandboxSigningKeys(db);
  const gatewayConfig = { ...defaultGatewayConfig(0, [signing.publicPem]), fetch: ((input: RequestInfo | URL, init?: RequestInit) => request(String(input), init)) as typeof fetch };
  app = createApp({ db, devModules, gatewayConfig, tokens: createTokens(db, randomBytes(32)), log: () => {}, publicBaseUrl: 'http://localhost', metricsToken: TOKEN });
  // The engine watches its database's job queue for the gauges (sweeps far apart: nothing runs meanwhile).
  engine = await startBillingEngine({ db, gateway: createMayaClient(gatewayConfig), log: () => {}, publicBaseUrl: 'http://localhost', mailer: createMailer(db) }, {
    sweepMs: 3_600_000, reconcileMs: 3_600_000,
  });
}, 120_000);
afterAll(async () => {
  await engine?.stop();
  await db?.close();
});

const scrape = async () => {
  const response = await request('/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
};
/** The value of one series (0 when absent): `name{labels}` exactly as prom-client writes the labels, in its order. */
const value = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

describe('/metrics on the main port', () => {
  it('is a 404 without the token, with another token or another scheme, like any unknown path', async () => {
    for (const headers of [{}, { Authorization: 'Bearer wrong-token-0123456789abcdef' }, { Authorization: `Basic ${TOKEN}` }, { Authorization: `Bearer ${TOKEN}x` }, { Authorization: 'Bearer ' }] as Array<Record<string, string>>) {
      const response = await request('/metrics', { headers });
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('http_requests_total');
    }
    expect(await scrape()).toContain('# TYPE http_requests_total counter');
  });

  it('is a 404 on an app without a token at all', async () => {
    const other = createApp({ db, tokens: createTokens(db, randomBytes(32)), log: () => {}, publicBaseUrl: 'http://localhost' });
    const response = await other.request('/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } }, fromAddress(LOOPBACK));
    expect(response.status).toBe(404);
  });

  it('counts requests by method, route pattern and status, and times them', async () => {
    const before = await scrape();
    const plans = `http_requests_total{method="GET",route="${V1}/subscription/plans/:idOrSlug",status="200"}`;
    const missing = `http_requests_total{method="GET",route="${V1}/subscription/plans/:idOrSlug",status="404"}`;
    const profile = `http_requests_total{method="GET",route="${V1}/account/profile",status="401"}`;
    const unmatched = `http_requests_total{method="GET",route="unmatched",status="404"}`;
    for (let i = 0; i < 7; i++) expect((await request(`${V1}/subscription/plans/1`)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await request(`${V1}/subscription/plans/no-such-plan-${i}`)).status).toBe(404);
    for (let i = 0; i < 3; i++) expect((await request(`${V1}/account/profile`)).status).toBe(401);
    for (let i = 0; i < 4; i++) expect((await request(`/no/route/here/${i}`)).status).toBe(404);
    const after = await scrape();
    expect(value(after, plans) - value(before, plans)).toBe(7);
    expect(value(after, missing) - value(before, missing)).toBe(2);
    expect(value(after, profile) - value(before, profile)).toBe(3);
    expect(value(after, unmatched) - value(before, unmatched)).toBe(4);
    const count = `http_request_duration_seconds_count{method="GET",route="${V1}/subscription/plans/:idOrSlug"}`;
    expect(value(after, count) - value(before, count)).toBe(9);
    expect(value(after, `http_request_duration_seconds_bucket{le="+Inf",method="GET",route="${V1}/subscription/plans/:idOrSlug"}`)).toBeGreaterThanOrEqual(9);
    // Never a raw path: no plan slug, no 404 path, in any label.
    expect(after).not.toContain('plans/1"');
    expect(after).not.toContain('no-such-plan');
    expect(after).not.toContain('/no/route/here');
  });

  it('counts gateway calls by kind and outcome, and mails by outcome', async () => {
    const before = await scrape();
    const signIn = await request(`${V1}/auth/sign-in-email`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'free@example.com', password: 'Bisaya-Demo-2026' }) });
    const token = ((await signIn.json()) as { data: { accessToken: string } }).data.accessToken;
    const checkout = await request(`${V1}/payment/checkout/create`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify({ planId: 1 }) });
    expect(checkout.status).toBe(200);
    // A gateway that answers 401 to everything, and one that cannot be reached.
    const refusing = createMayaClient({ baseUrl: 'http://maya.invalid', publicKey: 'pk-x', secretKey: 'sk-x', fetch: (async () => new Response('{"code":"K001","message":"no"}', { status: 401 })) as typeof fetch });
    await expect(refusing.getPayment('p-1')).rejects.toThrow('no');
    const unreachable = createMayaClient({ baseUrl: 'http://maya.invalid', publicKey: 'pk-x', secretKey: 'sk-x', fetch: (async () => { throw new TypeError('fetch failed'); }) as typeof fetch });
    await expect(unreachable.getPayment('p-1')).rejects.toThrow('could not be reached');
    await request(`${V1}/auth/forgot/send-otp`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'free@example.com' }) });
    const after = await scrape();
    const delta = (series: string) => value(after, series) - value(before, series);
    expect(delta('gateway_calls_total{kind="createCheckout",outcome="ok"}')).toBe(1);
    expect(delta('gateway_calls_total{kind="getPayment",outcome="rejected"}')).toBe(1);
    expect(delta('gateway_calls_total{kind="getPayment",outcome="unreachable"}')).toBe(1);
    expect(delta('gateway_call_duration_seconds_count{kind="getPayment"}')).toBe(2);
    expect(delta('gateway_call_duration_seconds_count{kind="createCheckout"}')).toBe(1);
    expect(delta('mails_total{outcome="sent"}')).toBe(1);
  });

  it('reads the job queue’s depth and oldest due job at scrape time', async () => {
    await engine.boss.send('billing-due', { kind: 'end', ids: [] }, { startAfter: new Date(Date.now() - 90_000) } as never);
    await engine.boss.send('billing-due', { kind: 'end', ids: [] }, { startAfter: 3600 });
    const text = await scrape();
    expect(value(text, 'job_queue_depth{queue="billing-due"}')).toBeGreaterThanOrEqual(2);
    expect(value(text, 'job_queue_oldest_due_seconds{queue="billing-due"}')).toBeGreaterThanOrEqual(89);
    expect(text).toContain('job_queue_depth{queue="billing-reconcile"}');
    // Node's process metrics come along.
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('# TYPE renewals_total counter');
    expect(text).toContain('# TYPE reconciler_findings_total counter');
  });
});

describe('METRICS_PORT', () => {
  let server: Server;
  afterAll(() => new Promise<void>((resolveClose) => (server ? server.close(() => resolveClose()) : resolveClose())));

  it('serves the metrics on a port of its own, with no token', async () => {
    server = await serveMetrics(0, '127.0.0.1');
    const address = server.address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${address.port}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('# TYPE http_requests_total counter');
    expect((await fetch(`http://127.0.0.1:${address.port}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('settings: both optional; a bad port or a short token refused in one line', () => {
    expect(readMetricsSettings({})).toEqual({ port: null, token: null });
    expect(readMetricsSettings({ METRICS_PORT: '9464', METRICS_TOKEN: TOKEN })).toEqual({ port: 9464, token: TOKEN });
    for (const port of ['0', '70000', 'abc', '12.5', '-1']) expect(() => readMetricsSettings({ METRICS_PORT: port })).toThrow(/^METRICS_PORT must be a port number from 1 to 65535 \(got "/);
    for (const token of ['short', 'has a space in it 0123456789']) expect(() => readMetricsSettings({ METRICS_TOKEN: token })).toThrow('METRICS_TOKEN must be at least 16 printable characters without spaces.');
  });
});
