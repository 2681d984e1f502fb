/**
 * Reads answered as JSON (issue 21): the lists (payment history, subscription history, plans) as JSON
 * text, and rows read as JSON where a row has many columns (the subscription status).
 *
 * A list's `select` gives the rows in the answer's own shape: each column is named as its JSON key, in
 * the answer's key order (`"createdAt"`), instants marked with `isoSql`, numbers and booleans as the
 * answer has them, and the rows in the answer's order (an ORDER BY). So one statement defines the
 * answer on both databases:
 * - on PostgreSQL the server renders the JSON (`json_agg`, in C) and the text is passed through. The
 *   driver parsing every column of every row into objects, and JSON.stringify writing them out
 *   again, were most of such a read's CPU on this thread, which serves every request;
 * - on PGlite the rows are read and stringified here: its WebAssembly build renders JSON, and formats
 *   instants, slower than this thread parses and stringifies the same rows.
 * The two give the same JSON once parsed (test/server/platform/json-list.test.ts); only the
 * whitespace inside a `jsonb` value differs.
 */
import type { Db } from './db';

const ISO_MARK = /\/\*iso\*\/(.*?)\/\*iso end\*\/ AS "([A-Za-z_][A-Za-z0-9_]*)"/gs;

/**
 * SQL: the instant `column` (timestamptz) as the column `key`, read as JavaScript's `toISOString()`
 * writes it (UTC, milliseconds truncated, 'Z'). It stays a timestamptz in the statement as written:
 * PGlite's path reads it as a Date and replaces it with its toISOString() text; on PostgreSQL the
 * statement is rewritten once (`forPostgres`) to format it as text there. The column is named here, so
 * that the rewritten column keeps its name.
 */
export function isoSql(column: string, key: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) || column.includes('/*')) throw new Error(`isoSql: not a plain column and key: ${column} AS ${key}`);
  return `/*iso*/${column}/*iso end*/ AS "${key}"`;
}

/** `sql` with each `isoSql` instant formatted as text by PostgreSQL (as toISOString writes it). */
function forPostgres(sql: string): string {
  const rewritten = sql.replace(ISO_MARK, (_, column: string, key: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "${key}"`);
  if (rewritten.includes('/*iso')) throw new Error('isoSql: a marked instant was not rewritten');
  return rewritten;
}

/** A column's values that raise a flag on the list when any row has one (the payment history's open payments). */
export interface ListFlag {
  /** The column's name in `select` (its JSON key). */
  column: string;
  values: readonly string[];
}

export interface JsonList {
  /** The rows as a JSON array. */
  json: string;
  count: number;
  /** Whether any row's `flag.column` is one of `flag.values` (false without a flag). */
  flagged: boolean;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** The statement that renders `select`'s rows as one JSON array, in their order, on PostgreSQL. */
function aggregated(select: string, flag: ListFlag | undefined): string {
  const flagged = flag ? `coalesce(bool_or(t.${quoted(flag.column)} IN (${flag.values.map(literal).join(', ')})), false)` : 'false';
  // An aggregate over an ordered sub-select without joins or grouping after it takes the rows in
  // that order (json_agg has no partial, parallel form that could mix them).
  return `SELECT coalesce(json_agg(t), '[]')::text AS json, count(*)::int AS count, ${flagged} AS flagged FROM (${forPostgres(select)}) t`;
}

/** PostgreSQL's statements, made once per statement text (the server's texts are a fixed set). */
const statements = new Map<string, string>();
const statementOf = (key: string, make: () => string) => {
  let sql = statements.get(key);
  if (!sql) statements.set(key, (sql = make()));
  return sql;
};

/** `select`'s rows (see above) as JSON text, with their count and `flag`. */
export async function jsonList(db: Db, select: string, params: unknown[], flag?: ListFlag): Promise<JsonList> {
  if (db.kind === 'postgres') {
    const key = flag ? `${select}\u0000${flag.column}\u0000${flag.values.join('\u0000')}` : select;
    const sql = statementOf(key, () => aggregated(select, flag));
    if (!db.textRows) return (await db.query<JsonList>(sql, params)).rows[0]!;
    // The aggregate's one row: the JSON, the count, the flag (PostgreSQL writes a boolean as t or f).
    const [json, count, flagged] = (await db.textRows(sql, params))[0]!;
    return { json: json!, count: Number(count), flagged: flagged === 't' };
  }
  return listOf(await isoRows(db, select, params), flag);
}

/** PGlite's path: `rows` in the answer's shape (see `isoRows`) as the list. */
export function listOf(rows: Record<string, unknown>[], flag?: ListFlag): JsonList {
  return {
    json: JSON.stringify(rows),
    count: rows.length,
    flagged: flag !== undefined && rows.some((row) => flag.values.includes(row[flag.column] as string)),
  };
}

/**
 * `select`'s rows as objects, each read as one JSON text on PostgreSQL (`row_to_json`, parsed here):
 * for a read whose answer is computed here from its row (the subscription status), when the row has
 * many columns. node-postgres describes and parses each column of each row, which costs more than
 * JSON.parse of the same row. `instants` names the timestamptz columns, Dates on both paths (JSON
 * carries them as ISO text with an offset); the other columns must read alike both ways: numerics as
 * text, no int8. On PGlite the rows are read as they are.
 */
export async function jsonRows<T>(db: Db, select: string, params: unknown[], instants: readonly (keyof T & string)[] = []): Promise<T[]> {
  if (db.kind !== 'postgres') return (await db.query<T>(select, params)).rows;
  const sql = statementOf(`\u0001${select}`, () => `SELECT row_to_json(t)::text AS row FROM (${select}) t`);
  const texts = db.textRows ? (await db.textRows(sql, params)).map(([text]) => text!) : (await db.query<{ row: string }>(sql, params)).rows.map(({ row }) => row);
  return texts.map((text) => {
    const row = JSON.parse(text) as Record<string, unknown>;
    for (const key of instants) if (typeof row[key] === 'string') row[key] = new Date(row[key]);
    return row as T;
  });
}

/** The names of `select`'s columns marked with `isoSql`. */
const instantColumns = new Map<string, string[]>();
const instantsOf = (select: string) => {
  let names = instantColumns.get(select);
  if (!names) instantColumns.set(select, (names = [...select.matchAll(ISO_MARK)].map((m) => m[2]!)));
  return names;
};

/**
 * PGlite's path of a list: the rows, each instant marked with `isoSql` (read as a Date) replaced by its
 * ISO text. JSON.stringify would write a Date alike, but through its `toJSON`, which took half as long
 * again as the whole list without one.
 */
export async function isoRows(db: Db, select: string, params: unknown[]): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query<Record<string, unknown>>(select, params);
  const instants = instantsOf(select);
  for (const row of rows) {
    for (const key of instants) {
      const value = row[key];
      if (value instanceof Date) row[key] = value.toISOString();
    }
  }
  return rows;
}
