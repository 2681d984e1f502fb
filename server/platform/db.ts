/**
 * The database: PGlite (embedded, the default) on disk under DATA_DIR or in memory, or a PostgreSQL
 * server through a pooled client (`pg`) when DATABASE_URL is set (issue 10: more than one API process).
 * Both sit behind one small surface — `query`, `exec`, `transaction(async (tx) => …)`, `close` — and
 * give rows the same shapes (dates as Date, int8 as number, numeric as string), so the server code
 * and its migrations run unchanged on either. Opened here; migrated by `migrate` (below) and seeded by
 * the start-up (server/startup.ts), so the adapter knows nothing of the data it holds.
 *
 * DATA_DIR=:memory: with DATABASE_URL means a throwaway database on that server (created here,
 * dropped on close), so the server test suite runs against PostgreSQL with one database per test
 * server, as it does with in-memory PGlite.
 */
import { messages, parse, PGlite, protocol, types } from '@electric-sql/pglite';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const { serialize } = protocol;
const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Results<T> {
  rows: T[];
  affectedRows?: number;
}

/** A row's columns as text, by position (`Db.textRows`). */
export type TextRow = Array<string | null>;

/** What a query can run on: the database or a transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Results<T>>;
  /** One or more statements without parameters (migrations). */
  exec(sql: string): Promise<unknown>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * A read (`sql`, no parameters) of `table`, answered from memory until a statement that names `table`
   * and writes runs through this adapter (issue 21). Only where one process owns the database (PGlite),
   * so that every write passes here; undefined on PostgreSQL, where another process may write. Only for
   * a small table that no trigger, cascade or function writes (the billing clock's one row): a
   * statement that writes it without naming it is not seen.
   */
  readonly remember?: <T>(table: string, sql: string) => Promise<Results<T>>;
  /**
   * PostgreSQL only: a read's rows as the text the server sends for each column, by position (issue
   * 21: the reads answered as JSON, server/platform/jsonList.ts). Sent without asking the server to
   * describe the columns, and nothing parsed: the caller knows its statement's columns.
   */
  readonly textRows?: (sql: string, params: unknown[]) => Promise<TextRow[]>;
  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * PGlite runs each query synchronously on this thread, and its own queue hands one query to the next
 * through promises alone: a burst of queued queries (200 sign-ins) kept the event loop from answering
 * anyone else until all were done. Here the queue is ours: one query or transaction at a time, as in
 * PGlite; pending I/O and timers run at least every QUERY_RUN_MS between queries, and before each
 * query inside a transaction.
 */
const letIoRun = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How many distinct statements stay prepared; the server has a fixed set, well under this. */
export const PREPARED_MAX = 500;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Queries outside a transaction as named prepared statements (issue 10). PGlite's `query` parses
 * and plans the SQL on every call and crosses into WebAssembly six times (parse, describe, bind,
 * describe, execute, sync): ~3× the cost of the query itself. Here a statement is parsed once (its
 * parameter types and result columns read then), and each call is one message — bind, execute,
 * sync — with PGlite's serializers and parsers: the same values and rows as `lite.query`. Only our
 * queue calls the database, so nothing runs in between.
 *
 * Issue 21: the answer is read here, not by PGlite's protocol parser, which copies and decodes every
 * field of every message (a row description of 35 columns on each call cost more than the query's
 * execution). The columns are known from the statement's description, so a call's answer is its data
 * rows and command tag; an answer with an error in it is handed to PGlite's parser whole, and its
 * error thrown as PGlite's `execProtocol` throws it.
 */
interface Column {
  name: string;
  oid: number;
  parse: ((text: string, oid: number) => unknown) | undefined;
}

interface Statement {
  name: string;
  paramTypes: number[];
  /** The result columns; null for a statement that returns none. */
  columns: Column[] | null;
  /** Only reads: nothing to write back to PGlite's file system after it (issue 21). */
  readOnly: boolean;
}

/**
 * A plain SELECT that writes nothing and takes no row locks. Conservative: any call of a function in
 * a schema (pg-boss's `pgboss.create_queue` writes), SELECT INTO and every locking or sequence call
 * count as writes. (On Node's file systems PGlite's sync does nothing anyway: a misjudged statement
 * loses no data there; the sync matters to PGlite in a browser.)
 */
const READ_ONLY = /^\s*SELECT\b/i;
const WRITES = /\b(INSERT|UPDATE|DELETE|MERGE|INTO|FOR\s+(NO\s+KEY\s+)?(UPDATE|SHARE)|FOR\s+KEY\s+SHARE|nextval|setval|pg_\w*advisory\w*|pg_notify)\b|\b\w+\.\w+\s*\(/i;
export const isReadOnly = (sql: string) => READ_ONLY.test(sql) && !WRITES.test(sql);

/** PGlite's parseResults counts these commands' rows as affected. */
const COUNTED = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);
const DATA_ROW = 0x44; // 'D'
const COMMAND_COMPLETE = 0x43; // 'C'
const ERROR_RESPONSE = 0x45; // 'E'

/** The first result of an answer to bind, execute, sync: rows by the statement's columns, rows affected. */
function readAnswer<T>(bytes: Uint8Array, columns: Column[] | null): Results<T> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const rows: Record<string, unknown>[] = [];
  let affectedRows = 0;
  let complete = false;
  for (let at = 0; at + 5 <= buf.length; ) {
    const code = buf[at]!;
    const end = at + 1 + buf.readUInt32BE(at + 1);
    if (code === ERROR_RESPONSE) throwDatabaseError(bytes);
    if (complete) {
      // Only the first result counts (parseResults(...)[0]); an extended-protocol call has one.
    } else if (code === DATA_ROW) {
      const row: Record<string, unknown> = {};
      const count = buf.readInt16BE(at + 5);
      let p = at + 7;
      for (let i = 0; i < count; i++) {
        const length = buf.readInt32BE(p);
        p += 4;
        const column = columns![i]!;
        if (length === -1) row[column.name] = null;
        else {
          const text = buf.toString('utf8', p, p + length);
          p += length;
          row[column.name] = column.parse ? column.parse(text, column.oid) : text;
        }
      }
      rows.push(row);
    } else if (code === COMMAND_COMPLETE) {
      const parts = buf.toString('utf8', at + 5, end - 1).split(' ');
      if (COUNTED.has(parts[0]!)) affectedRows = parseInt(parts[parts.length - 1]!, 10);
      complete = true;
    }
    at = end;
  }
  return { rows: rows as T[], affectedRows };
}

/** An answer with an ErrorResponse: PGlite's parser reads it, and its first error is thrown. */
function throwDatabaseError(bytes: Uint8Array): never {
  let error: unknown;
  new protocol.Parser().parse(bytes, (message) => {
    if (error === undefined && message instanceof messages.DatabaseError) error = message;
  });
  throw error ?? new Error('The database answered with an error it did not describe');
}

/** Execute (the unnamed portal, every row) and Sync, as pg-protocol's serializer writes them. */
const EXECUTE_SYNC = Buffer.from([0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0x53, 0, 0, 0, 4]);

/**
 * Bind (the unnamed portal to `statement`; text values, or binary where a serializer gave bytes; text
 * results), then Execute and Sync: the bytes pg-protocol's `serialize.bind/execute/sync` give, written
 * into one buffer (its writer cost more than the bind itself; issue 21).
 */
export function bindExecuteSync(statement: string, values: Array<string | Uint8Array | null>): Uint8Array {
  const sizes = values.map((value) => (value === null ? 0 : typeof value === 'string' ? Buffer.byteLength(value) : value.byteLength));
  const nameSize = Buffer.byteLength(statement);
  const bindSize = 4 + 1 + nameSize + 1 + 2 + 2 * values.length + 2 + sizes.reduce((n, size) => n + 4 + size, 0) + 2;
  const buf = Buffer.allocUnsafe(1 + bindSize + EXECUTE_SYNC.length);
  buf[0] = 0x42; // 'B'
  buf.writeInt32BE(bindSize, 1);
  buf[5] = 0; // the unnamed portal
  let at = 6 + buf.write(statement, 6, 'utf8');
  buf[at++] = 0;
  at = buf.writeUInt16BE(values.length, at);
  for (const value of values) at = buf.writeInt16BE(value !== null && typeof value !== 'string' ? 1 : 0, at);
  at = buf.writeUInt16BE(values.length, at);
  values.forEach((value, i) => {
    if (value === null) at = buf.writeInt32BE(-1, at);
    else {
      at = buf.writeInt32BE(sizes[i]!, at);
      at += typeof value === 'string' ? buf.write(value, at, 'utf8') : (buf.set(value, at), value.byteLength);
    }
  });
  at = buf.writeInt16BE(0, at); // results: all text
  EXECUTE_SYNC.copy(buf, at);
  return buf;
}

/**
 * Keeps a copy of an answer's chunk: chunks are views of PGlite's memory, written over by the next call.
 * Bound to the call's array rather than a closure made per call: `npm start` runs the server through
 * tsx, which names every closure assigned to a property when it is made (a defineProperty per call).
 */
function keepCopy(this: Uint8Array[], chunk: Uint8Array) {
  this.push(chunk.slice());
}

function preparedStatements(lite: PGlite) {
  const statements = new Map<string, Statement>();
  let named = 0; // never reused: a statement prepared again gets a new name
  const send = async (parts: Uint8Array[]) => (await lite.execProtocol(concat(parts))).messages;
  const parserOf = (oid: number) => (lite.parsers[oid] ?? types.parsers[oid]) as Column['parse'];

  async function prepare(sql: string): Promise<Statement> {
    const name = `s${++named}`;
    const described = await send([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()]);
    const description = described.find((m): m is messages.RowDescriptionMessage => m.name === 'rowDescription');
    const columns = description ? description.fields.map((f) => ({ name: f.name, oid: f.dataTypeID, parse: parserOf(f.dataTypeID) })) : null;
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(described), columns, readOnly: isReadOnly(sql) };
    statements.set(sql, statement);
    return statement;
  }

  async function run<T>(sql: string, params: unknown[] = []): Promise<Results<T>> {
    const statement = statements.get(sql) ?? (await prepare(sql));
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serializer = lite.serializers[statement.paramTypes[i]!];
      return serializer ? (serializer(param) as string | Uint8Array) : String(param);
    });
    const chunks: Uint8Array[] = [];
    // A read leaves nothing for the file system to take (a write's own sync takes everything before it).
    await lite.execProtocolRawStream(bindExecuteSync(statement.name, values), { syncToFs: !statement.readOnly, onRawData: keepCopy.bind(chunks) });
    return readAnswer<T>(chunks.length === 1 ? chunks[0]! : concat(chunks), statement.columns);
  }

  return async function query<T>(sql: string, params?: unknown[]): Promise<Results<T>> {
    // Closed: PGlite's own query gives the error. Past the cap: unprepared.
    if (!lite.ready || (!statements.has(sql) && statements.size >= PREPARED_MAX)) return lite.query<T>(sql, params);
    try {
      return await run<T>(sql, params);
    } catch (error) {
      // A table under a prepared `SELECT *` changed shape: prepare it again, once.
      if ((error as { code?: string }).code !== '0A000' || !statements.has(sql)) throw error;
      await lite.exec(`DEALLOCATE ${statements.get(sql)!.name}`);
      statements.delete(sql);
      return run<T>(sql, params);
    }
  };
}

/**
 * Queries run back to back for at most this long before pending I/O and timers get their turn (issue
 * 21): a turn of the event loop before every query cost a poll per query under load, and answering
 * others within a couple of milliseconds is as fair.
 */
const QUERY_RUN_MS = 2;

export function pgliteDb(lite: PGlite): Db {
  let tail: Promise<unknown> = Promise.resolve();
  let runStarted = -Infinity;
  const letIoRunWhenDue = () => {
    if (performance.now() - runStarted < QUERY_RUN_MS) return undefined;
    return letIoRun().then(() => {
      runStarted = performance.now();
    });
  };
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(letIoRunWhenDue).then(work);
    tail = run.catch(() => {});
    return run;
  };
  const prepared = preparedStatements(lite);
  const remembered = rememberedReads();
  return {
    kind: 'pglite',
    query: <T>(sql: string, params?: unknown[]) => inTurn(() => (remembered.forgetWrittenBy(sql), prepared<T>(sql, params))),
    exec: (sql: string) => inTurn(() => (remembered.forgetWrittenBy(sql), lite.exec(sql))),
    remember: <T>(table: string, sql: string) => remembered.read<T>(table.toLowerCase(), sql, () => inTurn(() => prepared<T>(sql))),
    transaction: (fn) =>
      inTurn(() =>
        lite.transaction((tx) =>
          fn({
            query: async <T>(sql: string, params?: unknown[]) => {
              await letIoRun();
              remembered.forgetWrittenBy(sql);
              return tx.query<T>(sql, params);
            },
            exec: async (sql: string) => {
              await letIoRun();
              remembered.forgetWrittenBy(sql);
              return tx.exec(sql);
            },
          }),
        ),
      ),
    close: () => inTurn(() => lite.close()),
  };
}

/**
 * The PGlite adapter's remembered reads (Db.remember), by table. A statement that names a remembered
 * table and is not a plain read forgets it before it runs, in a transaction or not. Nothing stale can be
 * kept meanwhile: a read asked for while a transaction holds the database waits its turn, so it answers
 * what the transaction left (committed or rolled back).
 */
function rememberedReads() {
  /** By table, then by the statement that read it. */
  const answers = new Map<string, Map<string, Promise<Results<unknown>>>>();
  /** Every table ever remembered, and which of them each statement text writes (decided once per text: every query passes here). */
  const tables = new Set<string>();
  const writes = new Map<string, string[]>();
  function tablesWrittenBy(sql: string): string[] {
    const known = writes.get(sql);
    if (known) return known;
    const text = sql.toLowerCase();
    const written = isReadOnly(sql) ? [] : [...tables].filter((table) => text.includes(table));
    if (writes.size < PREPARED_MAX) writes.set(sql, written);
    return written;
  }
  return {
    read<T>(table: string, sql: string, run: () => Promise<Results<T>>): Promise<Results<T>> {
      const known = answers.get(table)?.get(sql);
      if (known) return known as Promise<Results<T>>;
      if (!tables.has(table)) {
        tables.add(table);
        writes.clear(); // decided without this table
      }
      const answer: Promise<Results<unknown>> = run();
      const reads = answers.get(table) ?? new Map<string, Promise<Results<unknown>>>();
      answers.set(table, reads.set(sql, answer));
      answer.catch(() => answers.get(table)?.get(sql) === answer && answers.get(table)!.delete(sql));
      return answer as Promise<Results<T>>;
    },
    forgetWrittenBy(sql: string) {
      if (answers.size === 0) return;
      for (const table of tablesWrittenBy(sql)) answers.delete(table);
    },
  };
}

/** pg's parsers, set to give what PGlite gives (pg would read `date` in local time, int8 as text). */
const TYPE_OVERRIDES: Record<number, (value: string) => unknown> = {
  1082: (value) => new Date(`${value}T00:00:00Z`), // date
  1114: (value) => new Date(`${value.replace(' ', 'T')}Z`), // timestamp without time zone (UTC, as PGlite)
  20: (value) => Number(value), // int8
  1186: (value) => value, // interval, as text
};
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    TYPE_OVERRIDES[oid] ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

const results = <T>(result: pg.QueryResult): Results<T> => ({ rows: result.rows as T[], affectedRows: result.rowCount ?? 0 });

/**
 * Statement names for PostgreSQL, as on PGlite: a statement is parsed and planned once per connection
 * (pg prepares a named statement on a connection the first time it runs there) instead of on every
 * call. Past the cap, statements run unnamed; a name is never reused for other text.
 */
function statementNames() {
  const names = new Map<string, string>();
  let named = 0;
  return {
    of: (sql: string) => names.get(sql) ?? (names.size < PREPARED_MAX ? (names.set(sql, `p${++named}`), `p${named}`) : undefined),
    /** A table under a prepared `SELECT *` changed shape: the text gets a new name, so it is prepared again. */
    renew: (sql: string) => (names.set(sql, `p${++named}`), `p${named}`),
  };
}

/** node-postgres turns parameters into their wire text (Dates, arrays, Buffers) here, as for its own queries. */
const pgUtils = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue(value: unknown): string | Uint8Array | null };

/** The few members of node-postgres's connection a query of our own uses. */
interface PgConnection {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  parse(message: { name: string; text: string; types: never[] }): void;
  stream: { write(bytes: Uint8Array): unknown };
  sendCopyFail(message: string): void;
}

/**
 * A read through node-postgres's extension point for queries of one's own (a "submittable", as
 * pg-cursor is): the statement parsed once per connection as node-postgres's named queries are, then
 * Bind, Execute and Sync in one write, with no Describe. Its query asks the server to describe the
 * result's columns on every call and makes a parser for each; a CPU profile of the status read put
 * that, with copying the query's settings, at about a fifth of this thread's work per read. The
 * rows are kept as the protocol's text.
 */
class TextRowsQuery {
  private readonly rows: TextRow[] = [];
  private readonly values: Array<string | Uint8Array | null>;
  private done = false;
  callback?: (error: Error | null, rows?: TextRow[]) => void;

  constructor(readonly name: string, readonly text: string, params: unknown[]) {
    this.values = params.map((value) => pgUtils.prepareValue(value)); // throws here, not inside the client
  }

  submit(connection: PgConnection) {
    if (!connection.parsedStatements[this.name]) {
      connection.parse({ name: this.name, text: this.text, types: [] });
      connection.submittedNamedStatements[this.name] = this.text;
    }
    connection.stream.write(bindExecuteSync(this.name, this.values));
  }

  handleDataRow(message: { fields: TextRow }) {
    this.rows.push(message.fields);
  }

  /** An error ends the query at once: node-postgres then passes the ReadyForQuery after it to no one. */
  handleError(error: Error) {
    if (this.done) return;
    this.done = true;
    this.callback!(error);
  }

  handleReadyForQuery() {
    if (this.done) return;
    this.done = true;
    this.callback!(null, this.rows);
  }

  handleRowDescription() {}
  handleCommandComplete() {}
  handlePortalSuspended() {}
  handleEmptyQuery() {}
  /** As node-postgres's query: a COPY FROM STDIN is failed, not left waiting for data forever. */
  handleCopyInResponse(connection: PgConnection) {
    connection.sendCopyFail('No source stream defined');
  }
  handleCopyData() {}
}

/** A checked-out client's 'error' (its connection lost): node-postgres fails the running query with it. */
const ignoreLostConnection = () => {};

function postgresDb(pool: pg.Pool, onClose: () => Promise<void> = async () => {}): Db {
  const names = statementNames();
  /** `sql` as a TextRowsQuery on a pooled connection; a connection whose query failed is closed, as pool.query does. */
  const textRowsOf = async (name: string, sql: string, params: unknown[]) => {
    const query = new TextRowsQuery(name, sql, params);
    const client = await pool.connect();
    // As pool.query does: the connection lost mid-query is an 'error' on the checked-out client (node-postgres
    // fails the query itself); unheard, it would end the process.
    client.on('error', ignoreLostConnection);
    try {
      const rows = await new Promise<TextRow[]>((resolve, reject) => {
        client.query(query as never, ((error: Error | null, rows?: TextRow[]) => (error ? reject(error) : resolve(rows!))) as never);
      });
      client.removeListener('error', ignoreLostConnection);
      client.release();
      return rows;
    } catch (error) {
      client.removeListener('error', ignoreLostConnection);
      client.release(error as Error);
      throw error;
    }
  };
  /**
   * `run` with `sql`'s prepared name, or with none past PREPARED_MAX; when a `SELECT *` under the name
   * changed shape (0A000), once more under a new name, so that the text is prepared again.
   */
  const prepared = async <R>(sql: string, run: (name: string | undefined) => Promise<R>): Promise<R> => {
    const name = names.of(sql);
    if (!name) return run(undefined);
    try {
      return await run(name);
    } catch (error) {
      if ((error as { code?: string }).code !== '0A000') throw error;
      return run(names.renew(sql));
    }
  };
  const on = (client: pg.Pool | pg.PoolClient): Queryable => ({
    query: async <T>(sql: string, params?: unknown[]) =>
      results<T>(await prepared(sql, (name) => (name ? client.query({ name, text: sql, values: params as unknown[] }) : client.query(sql, params as unknown[])))),
    exec: (sql: string) => client.query(sql),
  });
  return {
    kind: 'postgres',
    ...on(pool),
    textRows: (sql, params) =>
      prepared(sql, async (name) =>
        name
          ? textRowsOf(name, sql, params)
          : (await pool.query<TextRow>({ text: sql, values: params, rowMode: 'array', types: { getTypeParser: () => (text: string) => text } })).rows),
    async transaction(fn) {
      const client = await pool.connect();
      // As for textRows: a connection lost mid-transaction fails its query; unheard, its 'error' would end the process.
      client.on('error', ignoreLostConnection);
      try {
        await client.query('BEGIN');
        const value = await fn(on(client));
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.removeListener('error', ignoreLostConnection);
        client.release();
      }
    },
    async close() {
      await pool.end();
      await onClose();
    },
  };
}

function poolOf(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString, types: pgTypes, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
  // An idle connection the server drops (a restart, a failover, an administrator's terminate) is an
  // 'error' on the pool, which removes that connection; unheard, it would end the process.
  pool.on('error', (error) => console.error(`database: an idle connection was closed (${(error as { code?: string }).code ?? error.message})`));
  return pool;
}

/** A fresh database on the server DATABASE_URL names, dropped again on close. */
async function throwawayDatabase(serverUrl: string): Promise<Db> {
  const name = `sine_bisaya_tmp_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return postgresDb(poolOf(url.href), async () => {
    const dropper = new pg.Client({ connectionString: serverUrl });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropper.end();
  });
}

export async function openDatabase(dataDir: string, databaseUrl: string | undefined = process.env.DATABASE_URL): Promise<Db> {
  if (databaseUrl) return dataDir === ':memory:' ? throwawayDatabase(databaseUrl) : postgresDb(poolOf(databaseUrl));
  let lite: PGlite;
  if (dataDir === ':memory:') lite = new PGlite();
  else {
    mkdirSync(dataDir, { recursive: true });
    lite = new PGlite(join(dataDir, 'pgdata'));
  }
  await lite.waitReady;
  return pgliteDb(lite);
}

/**
 * Runs `work` (migrations, seed and the job queue's set-up at start-up) once at a time: several processes may start at once
 * on one PostgreSQL, one works and the others wait. A lock held on one connection while the work runs
 * on others (the seed opens its own transactions). PGlite serves one process: no lock needed.
 */
export async function withStartupLock(db: Db, work: () => Promise<void>): Promise<void> {
  if (db.kind === 'pglite') return work();
  await db.transaction(async (lock) => {
    await lock.query("SELECT pg_advisory_xact_lock(hashtext('sine-bisaya:migrate-and-seed'))");
    await work();
  });
}

/** The migrations this code knows, in order (server/platform/migrations/*.sql). */
export const migrationNames = (): string[] => readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort();

export async function migrate(db: Db): Promise<void> {
  await db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  const applied = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
  const files = migrationNames();
  for (const file of files) {
    if (applied.has(file)) continue;
    const sql = readFileSync(join(MIGRATIONS_DIR, file), 'utf8');
    await db.transaction(async (tx) => {
      await tx.exec(sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
    });
  }
}
