/**
 * Issue 33: two API processes started in production mode (APP_ENV=production) on one fresh PostgreSQL,
 * with a local SMTP catcher as the mail relay and a gateway stand-in at a non-sandbox address. Neither
 * writes a demo account or a demo voucher: the demo password signs no one in, BISAYA30 and SUGBO365
 * are unknown codes, the dev routes and the sandbox do not exist, the sandbox tables stay empty. A new
 * viewer signs up with the code the relay received, and both processes are ready (/readyz).
 */
import type { ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, startServer, stopAll } from './support/processes';

const dataDir = mkdtempSync(join(tmpdir(), 'production-mode-'));
const processes: ChildProcess[] = [];
const mails: string[] = [];
const gatewayCalls: string[] = [];
let database: Awaited<ReturnType<typeof createDatabase>>;
let db: pg.Client;
let relay: SMTPServer;
let standIn: Server;

beforeAll(async () => {
  database = await createDatabase('sine_bisaya_production');
  db = database.client;
  relay = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onData(stream, _session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        mails.push(raw.replace(/=\r?\n/g, ''));
        callback();
      });
    },
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', () => r()));
  // Maya's stand-in: not the sandbox (another address, other keys); it only notes what it is asked.
  standIn = createHttpServer((request, response) => {
    gatewayCalls.push(`${request.method} ${request.url}`);
    response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"code":"PY0009","message":"Not found"}');
  });
  await new Promise<void>((r) => standIn.listen(0, '127.0.0.1', () => r()));
}, 120_000);

afterAll(async () => {
  await stopAll(processes);
  await database?.drop();
  await new Promise<void>((r) => relay?.close(() => r()));
  await new Promise<void>((r) => standIn?.close(() => r()));
  rmSync(dataDir, { recursive: true, force: true });
});

const webhookKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();

async function startProduction(): Promise<string> {
  const { base } = await startServer(processes, {
    PATH: process.env.PATH, HOME: process.env.HOME,
    APP_ENV: 'production', DATABASE_URL: database.url, DATA_DIR: dataDir, DEV_ROUTES: 'false',
    JWT_SECRET: randomBytes(48).toString('base64').slice(0, 48).padEnd(48, 'x'), PUBLIC_BASE_URL: 'https://sinebisaya.example',
    SMTP_URL: `smtp://127.0.0.1:${(relay.server.address() as AddressInfo).port}`, MAIL_FROM: 'Sine Bisaya <no-reply@sinebisaya.example>',
    MAYA_BASE_URL: `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`, MAYA_PUBLIC_KEY: 'pk-test-standin', MAYA_SECRET_KEY: 'sk-test-standin',
    MAYA_WEBHOOK_PUBLIC_KEYS: webhookKey, MAYA_WEBHOOK_IPS: '127.0.0.1', TRUST_PROXY: 'loopback', LOG_FORMAT: 'json',
    SELLER_NAME: 'Sine Bisaya Media Inc.', SELLER_TIN: '123-456-789-00000', SELLER_ADDRESS: '1 Osmeña Blvd, Cebu City 6000',
    DPO_EMAIL: 'dpo@sinebisaya.example',
  });
  return base;
}

const post = (base: string, path: string, body: unknown, token?: string) =>
  fetch(`${base}${path}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body),
  });
const count = async (table: string) => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;

it('two production processes on one fresh PostgreSQL write no demo account and no demo voucher', async () => {
  const [first, second] = await Promise.all([startProduction(), startProduction()]);

  // Only the plan catalog was written.
  expect(await count('plans')).toBeGreaterThan(0);
  const sandboxTables = (await db.query<{ name: string }>(`SELECT table_name AS name FROM information_schema.tables WHERE table_name LIKE 'sandbox\\_%' ORDER BY 1`)).rows.map((r) => r.name);
  expect(sandboxTables.length).toBeGreaterThan(5);
  for (const table of ['users', 'vouchers', 'subscriptions', 'payment_records', 'server_clock', ...sandboxTables]) {
    expect(`${table}: ${await count(table)}`).toBe(`${table}: 0`);
  }
  for (const base of [first, second]) {
    const ready = await fetch(`${base}/readyz`);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { database: 'ok', migrations: 'ok', jobs: 'ok' } });
    // The demo accounts do not exist: the README's password signs no one in.
    for (const email of ['premium@example.com', 'free@example.com', 'canceled@example.com', 'voucher@example.com']) {
      expect((await post(base, '/api/v1/mobile/auth/sign-in-email', { email, password: 'Bisaya-Demo-2026' })).status).toBe(401);
    }
    // No dev routes, no sandbox, no dev clock.
    for (const path of ['/dev/mailbox.json', '/dev/clock', '/sandbox/maya/v1/checkouts', '/dev/statecharts']) expect(`${path} ${(await fetch(`${base}${path}`)).status}`).toBe(`${path} 404`);
    expect((await fetch(`${base}/api/v1/mobile/subscription/plans`)).status).toBe(200);
  }

  // A new viewer signs up with the code the mail relay received, then tries the README's vouchers.
  const email = `viewer-${randomBytes(3).toString('hex')}@example.ph`;
  const started = await post(first, '/api/v1/mobile/auth/sign-up', {
    email, password: 'Lami-kaayo-2026', passwordConfirm: 'Lami-kaayo-2026', firstName: 'Nena', lastName: 'Cabahug', birthdate: '1995-03-14',
  });
  expect(started.status).toBe(200);
  const { verificationToken } = ((await started.json()) as { data: { verificationToken: string } }).data;
  for (let i = 0; i < 50 && !mails.some((m) => m.includes(email)); i++) await new Promise((r) => setTimeout(r, 100));
  const mail = mails.find((m) => m.includes(email))!;
  expect(mail).not.toContain('X-Sine-Bisaya-Code');
  const code = /to finish signing up is ([A-Z0-9]{6})/.exec(mail)?.[1];
  expect(code).toMatch(/^[A-Z0-9]{6}$/);
  // Verified on the other process: they share the database.
  const verified = await post(second, '/api/v1/mobile/auth/sign-up/verify-otp', { verificationToken, otpCode: code });
  expect(verified.status).toBe(200);
  const { accessToken } = ((await verified.json()) as { data: { accessToken: string } }).data;
  for (const voucher of ['BISAYA30', 'SUGBO365']) {
    const redeemed = await post(second, '/api/v1/mobile/subscription-voucher/redeem', { code: voucher }, accessToken);
    expect(`${voucher} ${redeemed.status}`).not.toBe(`${voucher} 200`);
    expect(((await redeemed.json()) as { success: boolean }).success).toBe(false);
  }
  expect(await count('subscriptions')).toBe(0);
  expect(await count('vouchers')).toBe(0);
  expect(await count('users')).toBe(1);
  // Nothing reached for the sandbox: the stand-in was not even asked (no payment was made).
  expect(gatewayCalls).toEqual([]);
}, 180_000);
