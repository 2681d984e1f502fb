/**
 * The one clock that billing reads (subscriptions, payment records, vouchers).
 *
 * Precedence: a time set through `POST /dev/clock` (kept in the database, so every API process that
 * shares the database agrees, and each test database has its own) > `NOW` in the environment > the
 * system clock. A set time is fixed: it does not tick until it is moved again or reset.
 * Sign-in tokens, codes and rate limits keep real time on purpose: moving the billing clock a month
 * ahead must not end the QA session that is watching a subscription expire.
 */
import { isCalendarDate } from '../../src/api/schemas';

export type { Queryable } from './db';
import type { Db, Queryable } from './db';

export type ClockSource = 'dev' | 'env' | 'system';

export interface ClockReading {
  now: Date;
  source: ClockSource;
}

/** ISO 8601 with a date, a time and an offset (`2027-01-15T00:00:00+08:00` or `...Z`). */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

export function parseInstant(value: string): Date | null {
  // Date would roll 2027-02-30 over to March; the written date and time must exist as written.
  if (!ISO_WITH_OFFSET.test(value) || !isCalendarDate(value.slice(0, 10))) return null;
  if (Number(value.slice(11, 13)) > 23 || Number(value.slice(14, 16)) > 59) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function fromEnvironment(env: NodeJS.ProcessEnv): Date | null {
  const value = env.NOW?.trim();
  if (!value) return null;
  const date = parseInstant(value);
  if (!date) throw new Error(`NOW must be an ISO 8601 date-time with an offset, e.g. 2027-01-15T00:00:00+08:00 (got "${value}")`);
  return date;
}

const CLOCK_ROW = 'SELECT fixed_at FROM server_clock WHERE id';

export async function readClock(q: Queryable, env: NodeJS.ProcessEnv = process.env): Promise<ClockReading> {
  const row = await q.query<{ fixed_at: Date }>(CLOCK_ROW);
  const fixed = row.rows[0]?.fixed_at;
  if (fixed) return { now: new Date(fixed), source: 'dev' };
  const fromEnv = fromEnvironment(env);
  if (fromEnv) return { now: fromEnv, source: 'env' };
  return { now: new Date(), source: 'system' };
}

/**
 * The clock read inside another query, to save it a round trip: `clockSql('$3')` is the fixed time
 * if one is set, else the parameter, which the caller passes as `unsetClock()` (`NOW` or the system
 * clock). The same precedence as `readClock`.
 */
export const clockSql = (param: string) => `COALESCE((SELECT fixed_at FROM server_clock WHERE id), ${param}::timestamptz)`;
export const unsetClock = (env: NodeJS.ProcessEnv = process.env): Date => fromEnvironment(env) ?? new Date();

/**
 * The instant a read outside a transaction uses, from memory where the adapter can keep the clock's row
 * (PGlite: `Db.remember`, forgotten when anything writes it), so the read need not look it up (issue 21);
 * undefined where it cannot (PostgreSQL, where another process may set the clock): the read takes it in
 * its own statement (`clockSql`). The same precedence as `readClock`.
 */
export async function rememberedClock(db: Pick<Db, 'remember'>, env: NodeJS.ProcessEnv = process.env): Promise<Date | undefined> {
  if (!db.remember) return undefined;
  const fixed = (await db.remember<{ fixed_at: Date }>('server_clock', CLOCK_ROW)).rows[0]?.fixed_at;
  return fixed ? new Date(fixed) : unsetClock(env);
}

/** The server's time. Inside a transaction pass the transaction (PGlite runs one at a time). */
export async function now(q: Queryable): Promise<Date> {
  return (await readClock(q)).now;
}

/** Fixes the clock at an instant, or with null goes back to `NOW` / the system clock. */
export async function setClock(q: Queryable, at: Date | null): Promise<ClockReading> {
  if (at === null) await q.query('DELETE FROM server_clock');
  else {
    await q.query(
      'INSERT INTO server_clock (id, fixed_at) VALUES (true, $1) ON CONFLICT (id) DO UPDATE SET fixed_at = EXCLUDED.fixed_at',
      [at],
    );
  }
  return readClock(q);
}

export const DAY_MS = 24 * 60 * 60 * 1000;

export const addDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);
