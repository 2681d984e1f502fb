/**
 * Issue 10: on PGlite, queries outside a transaction run as named prepared statements (server/platform/db.ts).
 * These check it gives what PGlite's own `query` gives — values serialized by type, rows parsed by
 * type, errors with their codes — and that it stays usable after errors and schema changes.
 * Always on PGlite (an empty DATABASE_URL), also when the suite runs against PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protocol } from '@electric-sql/pglite';
import { bindExecuteSync, isReadOnly, openDatabase, PREPARED_MAX, type Db } from '../../../server/platform/db';

const preparedCount = async (db: Db, sql: string) =>
  (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1', [sql])).rows[0]!.n;

describe('PGlite queries as prepared statements', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDatabase(':memory:', '');
    await db.exec('CREATE TABLE prepared_t (id int PRIMARY KEY, note text)');
  });
  afterAll(() => db.close());

  it('skips the file-system sync only after statements that write nothing (issue 21)', () => {
    for (const read of ['SELECT 1', '  select id FROM users WHERE id = $1', 'SELECT s.id FROM subscriptions s JOIN plans p ON p.id = s.plan_id']) expect(isReadOnly(read)).toBe(true);
    for (const write of [
      'INSERT INTO t VALUES (1)',
      'UPDATE t SET a = 1',
      'WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x',
      'SELECT id FROM t WHERE id = $1 FOR UPDATE',
      'SELECT id FROM t FOR NO KEY UPDATE SKIP LOCKED',
      'SELECT id FROM t FOR SHARE',
      "SELECT nextval('s')",
      'SELECT pg_advisory_xact_lock(1)',
      'SELECT pg_try_advisory_lock(1)',
      'SELECT pgboss.create_queue($1, $2)',
      'SELECT * INTO copy_t FROM t',
    ]) expect(isReadOnly(write), write).toBe(false);
  });

  it('prepares a repeated query once', async () => {
    const sql = 'SELECT $1::int + 1 AS n';
    for (let i = 0; i < 3; i++) expect((await db.query<{ n: number }>(sql, [i])).rows).toEqual([{ n: i + 1 }]);
    expect(db.kind).toBe('pglite');
    expect(await preparedCount(db, sql)).toBe(1);
  });

  it('writes bind, execute and sync as pg-protocol does', () => {
    const { serialize } = protocol;
    const cases: Array<[string, Array<string | Uint8Array | null>]> = [
      ['s1', []],
      ['s42', ['2027-01-15T00:00:00.000Z', null, 'Ñoño ✓ 🎬', '']],
      ['s7', [new Uint8Array([0, 1, 255]), '5']],
    ];
    for (const [statement, values] of cases) {
      const expected = Buffer.concat([serialize.bind({ statement, values }), serialize.execute({}), serialize.sync()]);
      expect(Buffer.from(bindExecuteSync(statement, values))).toEqual(expected);
    }
  });

  it('serializes parameters by their type and parses the rows by theirs', async () => {
    const at = new Date('2027-01-15T00:00:00.123Z');
    const row = (await db.query<Record<string, unknown>>(
      'SELECT $1::timestamptz AS ts, $2::text AS missing, $3::jsonb AS j, $4::bool AS b, $5::int8 AS big, $6::date AS d, $7::uuid AS id',
      [at, null, { a: [1, 'x'] }, false, 5, new Date('1990-06-15T00:00:00Z'), '258d7c1b-53db-47f8-8df8-4473ec044459'],
    )).rows[0]!;
    expect(row).toEqual({
      ts: at, missing: null, j: { a: [1, 'x'] }, b: false, big: 5, d: new Date('1990-06-15T00:00:00Z'), id: '258d7c1b-53db-47f8-8df8-4473ec044459',
    });
  });

  it('reports affected rows, and errors with their codes; the statement and the database stay usable', async () => {
    const insert = 'INSERT INTO prepared_t (id, note) VALUES ($1, $2)';
    expect((await db.query(insert, [1, 'one'])).affectedRows).toBe(1);
    await expect(db.query(insert, [1, 'again'])).rejects.toMatchObject({ code: '23505' });
    await expect(db.query('SELEC nonsense')).rejects.toMatchObject({ code: '42601' });
    await expect(db.query('SELECT $1::int AS n', ['not a number'])).rejects.toMatchObject({ code: '22P02' });
    expect((await db.query(insert, [2, 'two'])).affectedRows).toBe(1);
    expect((await db.query<{ note: string }>('SELECT note FROM prepared_t ORDER BY id')).rows).toEqual([{ note: 'one' }, { note: 'two' }]);
  });

  it('prepares a `SELECT *` again when its table changed shape', async () => {
    const sql = 'SELECT * FROM prepared_t WHERE id = $1';
    expect((await db.query(sql, [1])).rows).toEqual([{ id: 1, note: 'one' }]);
    const later = 'SELECT note FROM prepared_t WHERE id = $1';
    expect((await db.query(later, [2])).rows).toEqual([{ note: 'two' }]); // prepared after it: its name must not be reused
    await db.exec('ALTER TABLE prepared_t ADD COLUMN extra int DEFAULT 7');
    expect((await db.query(sql, [1])).rows).toEqual([{ id: 1, note: 'one', extra: 7 }]);
    expect((await db.query(later, [1])).rows).toEqual([{ note: 'one' }]);
    expect((await db.query('SELECT extra FROM prepared_t WHERE id = $1', [2])).rows).toEqual([{ extra: 7 }]);
    expect(await preparedCount(db, sql)).toBe(1);
  });

  it(`keeps at most ${PREPARED_MAX} statements prepared and runs the others unprepared`, async () => {
    for (let i = 0; i < PREPARED_MAX + 5; i++) expect((await db.query<{ n: number }>(`SELECT ${i} AS n`)).rows).toEqual([{ n: i }]);
    const total = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0]!.n;
    expect(total).toBe(PREPARED_MAX);
  });
});

describe('a closed PGlite database', () => {
  it('rejects a query with PGlite’s own error', async () => {
    const db = await openDatabase(':memory:', '');
    await db.query('SELECT 1');
    await db.close();
    await expect(db.query('SELECT 1')).rejects.toThrow(/closed/i);
  });
});

describe('remembered reads (Db.remember, issue 21)', () => {
  let db: Db;
  const read = async () => (await db.remember!<{ v: number }>('remembered_t', 'SELECT v FROM remembered_t')).rows[0]?.v ?? null;
  /** The read as the database answers it now, past anything remembered. */
  const actual = async () => (await db.query<{ v: number }>('SELECT v FROM remembered_t /* actual */')).rows[0]?.v ?? null;
  beforeAll(async () => {
    db = await openDatabase(':memory:', '');
    await db.exec('CREATE TABLE remembered_t (v int)');
  });
  afterAll(() => db.close());

  it('answers from memory until a statement that names the table writes it, in a transaction or not', async () => {
    await db.query('INSERT INTO remembered_t VALUES (1)');
    expect(await read()).toBe(1);
    // Answered from memory: the same answer, not a new read.
    const first = db.remember!('remembered_t', 'SELECT v FROM remembered_t');
    expect(db.remember!('remembered_t', 'SELECT v FROM remembered_t')).toBe(first);
    // A read that names the table forgets nothing; another statement of the same table is its own read.
    await db.query('SELECT count(*) FROM remembered_t');
    expect(db.remember!('remembered_t', 'SELECT v FROM remembered_t')).toBe(first);
    expect((await db.remember!<{ n: number }>('remembered_t', 'SELECT count(*)::int AS n FROM remembered_t')).rows).toEqual([{ n: 1 }]);
    await db.query('UPDATE remembered_t SET v = 2');
    expect(db.remember!('remembered_t', 'SELECT v FROM remembered_t')).not.toBe(first);
    expect(await read()).toBe(2);
    await db.exec('UPDATE remembered_t SET v = 3');
    expect(await read()).toBe(3);
    await db.transaction(async (tx) => {
      await tx.query('UPDATE remembered_t SET v = 4');
    });
    expect(await read()).toBe(4);
    await db.transaction(async (tx) => {
      await tx.exec('DELETE FROM remembered_t');
    });
    expect([await read(), await actual()]).toEqual([null, null]);
  });

  it('keeps nothing a rolled-back transaction wrote, even when read while it ran', async () => {
    await db.query('DELETE FROM remembered_t');
    await db.query('INSERT INTO remembered_t VALUES (10)');
    expect(await read()).toBe(10);
    let duringTransaction: Promise<number | null> | undefined;
    await expect(
      db.transaction(async (tx) => {
        await tx.query('UPDATE remembered_t SET v = 11');
        duringTransaction = read(); // waits for the transaction: the database is its alone meanwhile
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await duringTransaction).toBe(10);
    expect([await read(), await actual()]).toEqual([10, 10]);
  });

  it('answers a read asked while a transaction writes the table with what the transaction left', async () => {
    await db.query('DELETE FROM remembered_t');
    await db.query('INSERT INTO remembered_t VALUES (20)');
    expect(await read()).toBe(20);
    let duringTransaction: Promise<number | null> | undefined;
    await db.transaction(async (tx) => {
      await tx.query('UPDATE remembered_t SET v = 21');
      duringTransaction = read();
    });
    expect(await duringTransaction).toBe(21);
    expect(await read()).toBe(21);
  });

  it('forgets a read that failed', async () => {
    await expect(db.remember!('missing_t', 'SELECT v FROM missing_t')).rejects.toThrow(/missing_t/);
    await db.exec('CREATE TABLE missing_t (v int); INSERT INTO missing_t VALUES (5)');
    expect((await db.remember!<{ v: number }>('missing_t', 'SELECT v FROM missing_t')).rows).toEqual([{ v: 5 }]);
  });
});
