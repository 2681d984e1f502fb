/**
 * The sign-in throttle under a race only PostgreSQL has (several connections): a key's row deleted
 * (a successful sign-in forgets the pair) while a failed attempt waits for its lock. The attempt must
 * still count that key, afresh, as it would have had the row never existed. Runs in the `postgres`
 * project (`npm run test:postgres`, CI).
 */
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../server/support/helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a failed sign-in whose key is forgotten while it waits for the lock', () => {
  it('counts that key afresh and answers 401', async () => {
    const server = await startTestServer();
    const client = '198.51.100.70';
    const pair = `signin:pair:free@example.com|${client}`;
    expect((await server.signIn('free@example.com', 'wrong', client)).status).toBe(401);

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    // Another transaction holds the pair's row, then deletes it, as `succeeded` does.
    const holder = server.db.transaction(async (tx) => {
      await tx.query('SELECT key FROM auth_throttle WHERE key = $1 FOR UPDATE', [pair]);
      locked();
      await held;
      await tx.query('DELETE FROM auth_throttle WHERE key = $1', [pair]);
    });
    await isLocked;
    const attempt = server.signIn('free@example.com', 'wrong', client);
    let waited = false;
    for (let i = 0; i < 250 && !waited; i++) {
      const { rows } = await server.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%auth_throttle%'`,
      );
      waited = rows[0]!.n > 0;
      if (!waited) await sleep(20);
    }
    expect(waited, 'the attempt waited for the pair’s row lock').toBe(true);
    release();
    await holder;

    expect((await attempt).status).toBe(401);
    const { rows } = await server.db.query<{ key: string; failures: number; blocked: boolean }>(
      `SELECT key, failures, blocked_until IS NOT NULL AS blocked FROM auth_throttle WHERE key LIKE 'signin:%' ORDER BY key`,
    );
    expect(rows).toEqual([
      { key: 'signin:account:free@example.com', failures: 2, blocked: false },
      { key: `signin:client:${client}`, failures: 2, blocked: false },
      { key: pair, failures: 1, blocked: false },
    ]);
  });
});
