/**
 * What the PostgreSQL tests that start real server processes share: a throwaway database on the
 * server DATABASE_URL names, a free port, and `node --import tsx server/main.ts` started and stopped.
 * Node itself runs the server with tsx as a loader (not tsx's CLI, which runs it in a child process
 * that a SIGKILL of the CLI would leave running): the process a test kills is the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import pg from 'pg';

export const root = resolve(import.meta.dirname, '../../..');

/** A port nobody listens on now (the sandbox is called back on the server's own port, so not 0). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolvePort(port));
    });
  });
}

/** A new database `<prefix>_<random>` on DATABASE_URL's server: its address, a client on it, and a drop that ends both. */
export async function createDatabase(prefix: string): Promise<{ url: string; client: pg.Client; drop: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL!;
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  return {
    url: url.href,
    client,
    async drop() {
      await client.end().catch(() => {});
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

export interface ServerProcess {
  base: string;
  child: ChildProcess;
}

/**
 * A server process with `env` (PORT: a free one unless given); resolves once it says it is running
 * (the start line, pretty or JSON), rejects with its output if it exits first. Noted in `processes`.
 */
export async function startServer(processes: ChildProcess[], env: Record<string, string | undefined>): Promise<ServerProcess> {
  const port = env.PORT ?? String(await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root, env: { ...env, PORT: port, SERVE_SPA: env.SERVE_SPA ?? 'false' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  processes.push(child);
  return new Promise((resolveStart, reject) => {
    let out = '';
    const seen = (chunk: Buffer) => {
      out = (out + chunk.toString()).slice(-20_000);
      const listening = /running on http:\/\/localhost:(\d+)/.exec(out)?.[1];
      if (listening) resolveStart({ base: `http://localhost:${listening}`, child });
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', (chunk: Buffer) => (out = (out + chunk.toString()).slice(-20_000)));
    child.once('exit', (code, signal) => reject(new Error(`server exited ${code ?? signal}: ${out}`)));
  });
}

/** Every process still running gets SIGTERM; resolves once all have exited. */
export function stopAll(processes: ChildProcess[]): Promise<unknown> {
  return Promise.all(processes.map((child) => new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : (child.once('exit', r), child.kill('SIGTERM'))))));
}
