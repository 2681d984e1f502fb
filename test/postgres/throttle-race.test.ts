/**
 * The attempt throttle under races only PostgreSQL has (several connections): a key's row deleted (a
 * successful sign-in forgets the pair, a password reset the account) while a failed attempt waits for
 * its lock, and perhaps made again by other attempts meanwhile. The attempt must then count and wait
 * as if it had come after them. Runs in the `postgres` project (`npm run test:postgres`, CI).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/support/helpers';

const EMAIL = 'free@example.com';

/**
 * Another transaction holding `key`'s row until released; it then deletes the row if `remove`, and
 * commits at once, or, with `holdCommit`, when `commit` is called.
 */
function holdRow(server: TestServer, key: string, remove: boolean, holdCommit = false) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let commit = () => {};
  const committing = holdCommit ? new Promise<void>((resolve) => (commit = resolve)) : Promise.resolve();
  let afterDelete!: () => void;
  const deleted = new Promise<void>((resolve) => (afterDelete = resolve));
  let held!: (pid: number) => void;
  const pid = new Promise<number>((resolve) => (held = resolve));
  const done = server.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await tx.query('SELECT key FROM auth_throttle WHERE key = $1 FOR UPDATE', [key]);
    held(rows[0]!.pid);
    await released;
    if (remove) await tx.query('DELETE FROM auth_throttle WHERE key = $1', [key]);
    afterDelete();
    await committing;
  });
  return { pid, release, done, deleted, commit: () => commit() };
}

/** Resolves once `count` statements wait for a lock the backend `pid` holds; fails the test if they never do. */
async function someoneWaitsOn(server: TestServer, pid: number, count = 1) {
  for (let i = 0; i < 500; i++) {
    const { rows } = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid]);
    if (rows[0]!.n >= count) return;
    await sleep(10);
  }
  throw new Error(`Fewer than ${count} statements waited for backend ${pid}`);
}

const rowsOf = async (server: TestServer) =>
  (await server.db.query<{ key: string; failures: number; blocked: boolean }>(
    `SELECT key, failures, coalesce(blocked_until > now(), false) AS blocked FROM auth_throttle WHERE key LIKE 'signin:%' ORDER BY key`,
  )).rows;

describe('a failed sign-in whose key is deleted while it waits for the lock', () => {
  it('counts that key afresh and answers 401', async () => {
    const server = await startTestServer();
    const client = '198.51.100.70';
    const pair = `signin:pair:${EMAIL}|${client}`;
    expect((await server.signIn(EMAIL, 'wrong', client)).status).toBe(401);

    const holder = holdRow(server, pair, true); // as `succeeded` deletes the pair
    const pid = await holder.pid;
    const attempt = server.signIn(EMAIL, 'wrong', client);
    await someoneWaitsOn(server, pid);
    holder.release();
    await holder.done;

    expect((await attempt).status).toBe(401);
    expect(await rowsOf(server)).toEqual([
      { key: `signin:account:${EMAIL}`, failures: 2, blocked: false },
      { key: `signin:client:${client}`, failures: 2, blocked: false },
      { key: pair, failures: 1, blocked: false },
    ]);
  });

  it('and made again and blocked meanwhile: waits out that block, which stays', async () => {
    const server = await startTestServer();
    const client = '198.51.100.80';
    const account = `signin:account:${EMAIL}`;
    expect((await server.signIn(EMAIL, 'wrong', client)).status).toBe(401);

    const resetting = holdRow(server, account, true); // as `forget` deletes the account after a reset
    const other = holdRow(server, `signin:client:${client}`, false);
    const [resetPid, otherPid] = [await resetting.pid, await other.pid];
    const attempt = server.signIn(EMAIL, 'wrong', client);
    await someoneWaitsOn(server, resetPid); // the account's row comes first in key order
    resetting.release();
    await resetting.done;
    await someoneWaitsOn(server, otherPid); // past the deleted row, now on the client's
    // Meanwhile attempts from other clients make the account's row again and block it for a minute.
    await server.db.query(`INSERT INTO auth_throttle (key, failures, last_failure_at, blocked_until) VALUES ($1, 12, now(), now() + interval '60 seconds')`, [account]);
    other.release();
    await other.done;

    const answer = await attempt;
    expect(answer.status).toBe(429);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(answer.headers.get('retry-after'))).toBeLessThanOrEqual(61);
    // Refused, so nothing counted, and the account's block is kept for the next client too.
    expect(await rowsOf(server)).toEqual([
      { key: account, failures: 12, blocked: true },
      { key: `signin:client:${client}`, failures: 1, blocked: false },
      { key: `signin:pair:${EMAIL}|${client}`, failures: 1, blocked: false },
    ]);
    expect((await server.signIn(EMAIL, 'wrong', '198.51.100.81')).status).toBe(429);
  });

  it('while another attempt on the pair waits to make that row again: both are answered, neither with 500', async () => {
    // The other attempt waits in its first statement, to make the pair's row again, holding nothing
    // yet; the first holds the account's and the client's rows. Each then waits for the other: the
    // database ends one, which starts over.
    const server = await startTestServer();
    for (const client of ['198.51.100.90', '198.51.100.91', '198.51.100.92']) {
      const pair = `signin:pair:${EMAIL}|${client}`;
      expect((await server.signIn(EMAIL, 'wrong', client)).status).toBe(401);
      const succeeding = holdRow(server, pair, true, true);
      const pid = await succeeding.pid;
      const first = server.signIn(EMAIL, 'wrong', client);
      await someoneWaitsOn(server, pid);
      succeeding.release();
      await succeeding.deleted;
      const second = server.signIn(EMAIL, 'wrong', client);
      await someoneWaitsOn(server, pid, 2); // the second waits to make the deleted row again
      succeeding.commit();
      await succeeding.done;
      expect([(await first).status, (await second).status]).toEqual([401, 401]);
    }
    expect(server.logs.filter((line) => /deadlock/i.test(line))).toEqual([]);
  });
});
