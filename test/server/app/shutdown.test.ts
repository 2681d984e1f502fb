/** Issue 11 item 7: `npm start` stops promptly on SIGTERM: it closes the server and the database, exit 0. */
import { spawn } from 'node:child_process';
import { createConnection } from 'node:net';
import { describe, expect, it } from 'vitest';

describe('the server process', () => {
  it('stops cleanly on SIGTERM, even with a client connection open', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, PORT: '0', DATA_DIR: ':memory:', SERVE_SPA: 'false', PUBLIC_BASE_URL: 'http://localhost:8080' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += String(chunk)));
    child.stderr.on('data', (chunk) => (out += String(chunk)));
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', () => {
        const match = /running on http:\/\/localhost:(\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.on('exit', () => reject(new Error(`exited early: ${out}`)));
    });
    // An idle keep-alive connection must not hold the shutdown up.
    const socket = createConnection({ port, host: '127.0.0.1' });
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    socket.write('GET /app-config.json HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
    await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.on('error', () => {});

    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    child.kill('SIGTERM');
    const { code, signal } = await exited;
    socket.destroy();
    expect({ code, signal, out }).toEqual({ code: 0, signal: null, out: expect.stringContaining('Stopped: server and database closed.') });
    expect(out).toContain('Stopped: server and database closed.');
  });
});
