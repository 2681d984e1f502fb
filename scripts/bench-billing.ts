/**
 * `npm run bench:billing` (issue 18): N card subscriptions due at one instant, renewed by the billing
 * engine through the local Maya sandbox, with and without gateway latency. For each run it prints
 * renewals per second, the time to drain, the servers' CPU time per renewal and the number of
 * references Maya charged twice (must be 0).
 *
 * - PGlite (default): one process, 10,000 subscriptions (BENCH_SUBSCRIPTIONS).
 * - PostgreSQL (DATABASE_URL, e.g. `scripts/with-postgres.sh npm run bench:billing`): two processes
 *   on one database, 100,000 subscriptions.
 * BENCH_LATENCIES (default "0,300") are the sandbox's answer delays in ms, one run each;
 * BENCH_CONCURRENCY (default 32) the jobs each process runs at once; BENCH_TIMEOUT_S (default 900)
 * ends a run that has not drained. Figures only: it exits 0 whatever they are, except on failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { openPreparedDatabase } from '../server/startup';

const root = resolve(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const postgresUrl = process.env.DATABASE_URL;
const N = Number(process.env.BENCH_SUBSCRIPTIONS ?? (postgresUrl ? 100_000 : 10_000));
const PROCESSES = postgresUrl ? 2 : 1;
const LATENCIES = (process.env.BENCH_LATENCIES ?? '0,300').split(',').map((v) => Number(v.trim()));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S ?? 900);

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolvePort(port));
    });
  });
}

/** CPU time (user + system) the process has used so far, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** N viewers with a verified, approving card at the sandbox and an ACTIVE monthly card subscription ending at `end`. */
const SEED_SQL = `
  WITH u AS (
    INSERT INTO users (email, password_hash, first_name, last_name, birthdate, created_at, updated_at)
    SELECT 'bench' || g || '@example.com', 'not-a-hash', 'Bench', 'Viewer', '1990-01-01', now(), now() FROM generate_series(1, $1::int) g
    RETURNING id, email),
  c AS (
    INSERT INTO sandbox_customers (first_name, last_name, email, created_at) SELECT 'Bench', 'Viewer', email, now() FROM u RETURNING id, email),
  sc AS (
    INSERT INTO sandbox_cards (card_token_id, customer_id, brand, first6, last4, behaviour, state, is_default, created_at, updated_at)
    SELECT 'bench-card-' || c.email, c.id, 'visa', '512345', '2346', 'APPROVE', 'VERIFIED', true, now(), now() FROM c RETURNING card_token_id),
  card AS (
    INSERT INTO saved_cards (card_token_id, user_id, card_type, first6, last4, state, is_default, customer_id, created_at, updated_at)
    SELECT 'bench-card-' || u.email, u.id, 'visa', '512345', '2346', 'VERIFIED', true, c.id, now(), now() FROM u JOIN c ON c.email = u.email
    RETURNING card_token_id, user_id)
  INSERT INTO subscriptions (user_id, plan_id, status, start_date, end_date, payment_method, payment_details, auto_renew, created_at, updated_at)
  SELECT card.user_id, 1, 'ACTIVE', $2::timestamptz - interval '1 month', $2::timestamptz, 'MAYA_VAULT', jsonb_build_object('cardTokenId', card.card_token_id), true, now(), now()
  FROM card`;

interface Target {
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/** A database holding the demo data and N due-soon subscriptions: a PGlite directory, or a new PostgreSQL database. */
async function prepare(end: Date): Promise<Target> {
  if (postgresUrl) {
    const name = `sine_bisaya_bench_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    const db = await openPreparedDatabase('', url.href);
    await db.query(SEED_SQL, [N, end]);
    await db.close();
    return {
      env: { DATABASE_URL: url.href, DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-billing-')) },
      async cleanup() {
        const drop = new pg.Client({ connectionString: postgresUrl });
        await drop.connect();
        await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await drop.end();
      },
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-billing-'));
  const db = await openPreparedDatabase(dataDir, '');
  await db.query(SEED_SQL, [N, end]);
  await db.close();
  return { env: { DATA_DIR: dataDir }, cleanup: async () => rmSync(dataDir, { recursive: true, force: true }) };
}

async function startServer(env: Record<string, string>): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  // Node itself with tsx as a loader: the process measured is the server.
  const child = spawn(process.execPath, [...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []), '--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), SERVE_SPA: 'false', JWT_SECRET: 'b'.repeat(40) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (await fetch(`${base}/app-config.json`).then((r) => r.ok, () => false)) return { base, child };
    if (i > 900 || child.exitCode !== null) throw new Error('The server did not start');
    await sleep(200);
  }
}

const billing = async (base: string) =>
  ((await (await fetch(`${base}/dev/billing`)).json()) as { data: { renewed: number; open: number; pastDue: number; chargedTwice: number } }).data;
/** Only the renewals paid so far: the light count polled while the engine works. */
const progress = async (base: string) => ((await (await fetch(`${base}/dev/billing?progress=1`)).json()) as { data: { renewed: number } }).data.renewed;

async function run(latencyMs: number) {
  const end = new Date(Date.now() + 40 * 24 * 3600_000);
  const target = await prepare(end);
  const servers: Array<{ base: string; child: ChildProcess }> = [];
  try {
    const env = { ...target.env, SANDBOX_LATENCY_MS: String(latencyMs), BILLING_CONCURRENCY: String(CONCURRENCY), BILLING_SWEEP_MS: '500' };
    servers.push(await startServer(env));
    for (let i = 1; i < PROCESSES; i++) servers.push(await startServer(env));
    const base = servers[0]!.base;
    const cpuBefore = servers.map((s) => cpuMs(s.child.pid!));
    const started = performance.now();
    const moved = await fetch(`${base}/dev/clock`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ now: new Date(end.getTime() + 60_000).toISOString() }),
    });
    if (!moved.ok) throw new Error(`clock: ${moved.status}`);
    let state = await billing(base);
    let lastPrint = performance.now();
    // The demo's own card subscription (premium@, due 20 days before this clock) is past its grace: it
    // is ended, not charged (issue 32: a period the viewer no longer had access to is never billed).
    let renewed = state.renewed;
    while (renewed < N && performance.now() - started < TIMEOUT_S * 1000) {
      await sleep(1000);
      renewed = await progress(base);
      if (performance.now() - lastPrint > 30_000) {
        lastPrint = performance.now();
        console.info(`  … ${renewed} renewed after ${((performance.now() - started) / 1000).toFixed(0)} s`);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = servers.reduce((sum, s, i) => sum + cpuMs(s.child.pid!) - cpuBefore[i]!, 0);
    state = await billing(base);
    const drained = state.renewed >= N;
    console.info(
      `${String(N).padStart(7)} subscriptions, ${PROCESSES} process(es), ${postgresUrl ? 'PostgreSQL' : 'PGlite'}, gateway latency ${String(latencyMs).padStart(3)} ms, concurrency ${CONCURRENCY}: ` +
        `${drained ? 'drained' : `NOT drained (${state.renewed} renewed)`} in ${seconds.toFixed(1)} s, ${(state.renewed / seconds).toFixed(0)} renewals/s, ` +
        `server CPU ${(cpu / Math.max(1, state.renewed)).toFixed(2)} ms per renewal, ${state.pastDue} past due, charged twice: ${state.chargedTwice}`,
    );
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => (s.child.exitCode !== null ? r(null) : (s.child.once('exit', r), s.child.kill('SIGTERM'))))));
    await target.cleanup();
  }
}

let failed = false;
try {
  for (const latency of LATENCIES) await run(latency);
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : String(error));
}
process.exit(failed ? 1 : 0);
