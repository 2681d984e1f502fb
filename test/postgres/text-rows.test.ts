/**
 * `Db.textRows` on PostgreSQL (server/platform/db.ts, issue 21): the reads answered as JSON go through a
 * query of our own that skips node-postgres's Describe and parsers. These hold it to what node-postgres's
 * own queries give, through errors, concurrency and schema changes. Runs in the `postgres` project
 * (`npm run test:postgres`, CI).
 */
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/platform/db';

describe('text rows on PostgreSQL', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDatabase(':memory:', process.env.DATABASE_URL);
    await db.exec("CREATE TABLE text_t (id int PRIMARY KEY, note text); INSERT INTO text_t VALUES (1, 'one'), (2, NULL), (3, 'Ñoño ✓ 🎬')");
  });
  afterAll(() => db.close());

  it('sends parameters as node-postgres does and answers each column as the server writes it', async () => {
    const sql = `SELECT $1::timestamptz::text AS a, $2::text AS b, $3::jsonb::text AS c, $4::bool::text AS d, $5::int8::text AS e,
                        $6::text[]::text AS f, $7::uuid::text AS g, $8::bytea::text AS h`;
    const params = [new Date('2027-01-15T00:00:00.123Z'), null, { a: [1, 'x'], q: 'say "hi"' }, false, 5, ['x', 'y z', null], '258d7c1b-53db-47f8-8df8-4473ec044459', Buffer.from([0, 1, 255])];
    const expected = Object.values((await db.query<Record<string, string | null>>(sql, params)).rows[0]!);
    expect(expected[0]).toMatch(/^2027-01-15 00:00:00\.123\+00$/);
    expect(await db.textRows!(sql, params)).toEqual([expected]);
    // Columns not cast to text come as PostgreSQL writes them: a boolean as t or f, a number as digits.
    expect(await db.textRows!('SELECT true, false, 42::int, 1.50::numeric, NULL::int', [])).toEqual([['t', 'f', '42', '1.50', null]]);
  });

  it('answers every row, in order, with nulls by position', async () => {
    expect(await db.textRows!('SELECT id, note FROM text_t WHERE id >= $1 ORDER BY id', [1])).toEqual([['1', 'one'], ['2', null], ['3', 'Ñoño ✓ 🎬']]);
    expect(await db.textRows!('SELECT id, note FROM text_t WHERE id > $1', [99])).toEqual([]);
  });

  it('runs alongside node-postgres’s own queries of the same statement on every pooled connection', async () => {
    const sql = 'SELECT id::text AS id, note FROM text_t WHERE id = $1';
    const answers = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const id = (i % 3) + 1;
        return i % 2 === 0 ? (await db.textRows!(sql, [id]))[0]! : Object.values((await db.query<Record<string, string | null>>(sql, [id])).rows[0]!);
      }),
    );
    const expected = [['1', 'one'], ['2', null], ['3', 'Ñoño ✓ 🎬']];
    expect(answers).toEqual(Array.from({ length: 60 }, (_, i) => expected[i % 3]));
  });

  it('rejects with the server’s error and its code, and the pool stays usable', async () => {
    await expect(db.textRows!('SELECT 1 / $1::int', [0])).rejects.toMatchObject({ code: '22012' });
    await expect(db.textRows!('SELECT $1::int', ['not a number'])).rejects.toMatchObject({ code: '22P02' });
    await expect(db.textRows!('SELEC nonsense', [])).rejects.toMatchObject({ code: '42601' });
    await expect(db.textRows!('SELEC nonsense', [])).rejects.toMatchObject({ code: '42601' }); // parsed again, failing again
    await expect(db.textRows!('COPY text_t FROM STDIN', [])).rejects.toThrow(/No source stream defined/); // as node-postgres's query, not left waiting
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => db.textRows!('SELECT 1 / $1::int', [i % 5 === 0 ? 0 : 1]).catch((error: { code?: string }) => error.code)));
    expect(answers).toEqual(Array.from({ length: 30 }, (_, i) => (i % 5 === 0 ? '22012' : [['1']])));
    expect(await db.textRows!('SELECT 1 / $1::int', [1])).toEqual([['1']]);
  });

  it('prepares a `SELECT *` again when its table changed shape', async () => {
    const sql = 'SELECT * FROM text_t WHERE id = $1';
    expect(await db.textRows!(sql, [1])).toEqual([['1', 'one']]);
    await db.exec('ALTER TABLE text_t ADD COLUMN extra int DEFAULT 7');
    expect(await db.textRows!(sql, [1])).toEqual([['1', 'one', '7']]);
    expect(await Promise.all(Array.from({ length: 20 }, () => db.textRows!(sql, [3])))).toEqual(Array.from({ length: 20 }, () => [['3', 'Ñoño ✓ 🎬', '7']]));
  });

  it('rejects a read or a transaction whose connection is lost midway (reset or closed), and the process and the pool go on', async () => {
    // A proxy in front of the server, whose connections are cut mid-query: a crash, a failover, a
    // pooler or the network. Unheard, the client's 'error' would be an uncaught exception here.
    const server = new URL(process.env.DATABASE_URL!);
    const sockets = new Set<net.Socket>();
    const proxy = net.createServer((socket) => {
      const upstream = net.connect(Number(server.port || 5432), server.hostname);
      sockets.add(socket);
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => {});
      upstream.on('error', () => {});
      socket.on('close', () => (upstream.destroy(), sockets.delete(socket)));
      upstream.on('close', () => socket.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, 'localhost', resolve));
    const proxied = new URL(server.href);
    proxied.host = `localhost:${(proxy.address() as net.AddressInfo).port}`;
    const cut = await openDatabase('persist', proxied.href);
    try {
      for (const how of ['reset', 'close'] as const) {
        for (const run of [
          () => cut.textRows!('SELECT pg_sleep($1)::text', [3]),
          () => cut.transaction((tx) => tx.query('SELECT pg_sleep($1)::text', [3])),
        ]) {
          const answer = run();
          await sleep(300);
          for (const socket of sockets) if (how === 'reset') socket.resetAndDestroy(); else socket.end();
          await expect(answer).rejects.toThrow();
          expect(await cut.textRows!('SELECT $1::text', ['after'])).toEqual([['after']]);
        }
      }
    } finally {
      await cut.close();
      proxy.close();
    }
  });
});
