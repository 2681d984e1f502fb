/**
 * The server the benches measure: `npm start` (scripts/start.ts, with --expose-gc as package.json
 * runs it) on `port`, refused when something already answers there, and `ready()` once it serves
 * /app-config.json. Shared by bench-api.ts and bench-lighthouse.ts.
 */
import { spawn, type StdioOptions } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startBenchServer(port: number, { dataDir = ':memory:', stdio }: { dataDir?: string; stdio: StdioOptions }) {
  const base = `http://localhost:${port}`;
  // Measure our server, not one already listening there.
  if (await fetch(`${base}/app-config.json`).then(() => true, () => false)) {
    console.error(`Something already answers on port ${port}: set BENCH_PORT to a free port.`);
    process.exit(1);
  }
  const server = spawn(process.execPath, [resolve(root, 'node_modules/tsx/dist/cli.mjs'), '--expose-gc', 'scripts/start.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir },
    stdio,
  });
  return {
    base,
    server,
    /** Resolves once the server answers; throws if it exits or takes over 150 s (a first build). */
    async ready() {
      for (let i = 0; ; i++) {
        try {
          if ((await fetch(`${base}/app-config.json`)).ok) return;
        } catch { /* not up yet */ }
        if (i > 600 || server.exitCode !== null) throw new Error('The server did not start');
        await sleep(250);
      }
    },
    /** SIGTERM, then waits for the exit. */
    async stop() {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    },
  };
}
