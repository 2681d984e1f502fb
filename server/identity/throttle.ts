/**
 * Sign-in throttling (product.md#security-sign-in; OWASP ASVS 2.2.1, as GoTrue does): growing delays
 * instead of a lock. Three keys are counted, all by email text, so known and unknown emails behave
 * alike:
 * - the pair (email, client): one client guessing one account is slowed hard (up to 15 minutes);
 * - the client: one client spraying many accounts is slowed hard (up to 15 minutes);
 * - the account: many clients against one account are slowed, but never more than a minute, so a
 *   stranger can never keep the owner out for long.
 * A 429 does not count as a failure (waiting it out does not grow the delay). The state lives in the
 * database (table auth_throttle), so it holds across processes and restarts.
 */
import type { Db, Queryable } from '../platform/db';

export const SIGN_IN_THROTTLE = {
  pair: { free: 5, maxDelaySeconds: 15 * 60 },
  client: { free: 50, maxDelaySeconds: 15 * 60 },
  account: { free: 10, maxDelaySeconds: 60 },
  /** Failures older than this are forgotten. */
  windowSeconds: 60 * 60,
} as const;

export const tooManySignIns = (seconds: number) =>
  `Too many sign-in attempts. Please try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;

export interface ThrottleRule {
  key: string;
  free: number;
  maxDelaySeconds: number;
}
type Rule = ThrottleRule;

/** Seconds to wait after the `failures`-th failure: none for the free ones, then 1, 2, 4, … up to the cap. */
export function delayAfter(failures: number, rule: { free: number; maxDelaySeconds: number }): number {
  return failures < rule.free ? 0 : Math.min(2 ** (failures - rule.free), rule.maxDelaySeconds);
}

/**
 * The keys' rows, made if missing and locked in key order (so two attempts never wait on each other in
 * a circle), each with its wait and its count after one more failure. Parallel attempts take turns,
 * and FOR UPDATE reads a row as the attempt that held it committed it (read committed re-reads a row
 * it waited for), so neither is stale. Read without the lock, forty parallel guesses all passed the
 * check on PostgreSQL. A row deleted while this waited for it is missing from the answer.
 */
async function lockKeys(tx: Queryable, keys: string[], windowSeconds: number) {
  await tx.query(
    `INSERT INTO auth_throttle (key, failures, last_failure_at)
     SELECT k, 0, now() FROM unnest($1::text[]) AS k ORDER BY k
     ON CONFLICT (key) DO NOTHING`,
    [keys],
  );
  const { rows } = await tx.query<{ key: string; wait: number; failures: number }>(
    `SELECT key,
            CASE WHEN blocked_until > now() THEN ceil(extract(epoch FROM blocked_until - now()))::int ELSE 0 END AS wait,
            CASE WHEN last_failure_at < now() - make_interval(secs => $2) THEN 1 ELSE failures + 1 END AS failures
     FROM auth_throttle WHERE key = ANY($1::text[]) ORDER BY key FOR UPDATE`,
    [keys, windowSeconds],
  );
  return rows;
}

/**
 * Before an attempt that may be guessing (a password, a voucher code): the seconds to wait if any key
 * is blocked (nothing counted), or 0 after counting this attempt as a failure in advance, so parallel
 * guesses cannot slip past the count. A success gives it back (`giveBack`).
 */
export async function beginAttempt(db: Db, list: ThrottleRule[], windowSeconds: number): Promise<number> {
  // Two attempts on one pair can still deadlock on PostgreSQL when a success deletes the pair's row
  // between them (one waits to make the row again while holding nothing; the other holds the rest):
  // the database ends one of them, which then starts over instead of answering 500.
  for (let tries = 1; ; tries++) {
    try {
      return await attemptOnce(db, list, windowSeconds);
    } catch (error) {
      if ((error as { code?: string }).code !== DEADLOCK || tries === 3) throw error;
    }
  }
}

const DEADLOCK = '40P01';

/**
 * One try: three statements besides BEGIN and COMMIT (there were nine) when no row went missing. An
 * attempt's statements go through the server's one thread, and a burst of sign-ins is as many
 * attempts at once.
 */
function attemptOnce(db: Db, list: ThrottleRule[], windowSeconds: number): Promise<number> {
  const keys = list.map((r) => r.key);
  return db.transaction(async (tx) => {
    let locked = await lockKeys(tx, keys, windowSeconds);
    // A row deleted while this attempt waited for it (a success forgets the pair, a reset the account)
    // was skipped, and may have been made again by other attempts since: make and lock it again, and
    // read every key afresh, so the wait and the counts are those of rows this attempt holds.
    for (let again = 0; locked.length < keys.length; again++) {
      if (again === 3) throw new Error('The attempt throttle could not hold its rows');
      locked = await lockKeys(tx, keys, windowSeconds);
    }
    const wait = Math.max(0, ...locked.map((row) => row.wait));
    if (wait > 0) return wait;
    // Counted in advance, each key with the delay its new count sets (none for the free attempts).
    const failures = new Map(locked.map((row) => [row.key, row.failures]));
    const counts = list.map((rule) => failures.get(rule.key)!);
    await tx.query(
      `UPDATE auth_throttle t SET failures = v.failures, last_failure_at = now(),
         blocked_until = CASE WHEN v.delay > 0 THEN now() + make_interval(secs => v.delay) END
       FROM unnest($1::text[], $2::int[], $3::int[]) AS v(key, failures, delay)
       WHERE t.key = v.key`,
      [keys, counts, list.map((rule, i) => delayAfter(counts[i]!, rule))],
    );
    return 0;
  });
}

/** A success: the attempt counted in advance is given back, with the delay it set. */
export async function giveBack(db: Db, keys: string[]): Promise<void> {
  await db.query('UPDATE auth_throttle SET failures = greatest(failures - 1, 0), blocked_until = NULL WHERE key = ANY($1::text[])', [keys]);
}

export function createSignInThrottle(db: Db) {
  const rules = (email: string, client: string): Rule[] => [
    { key: `signin:pair:${email}|${client}`, ...SIGN_IN_THROTTLE.pair },
    { key: `signin:client:${client}`, ...SIGN_IN_THROTTLE.client },
    { key: `signin:account:${email}`, ...SIGN_IN_THROTTLE.account },
  ];

  return {
    /**
     * Before a password is checked: the seconds to wait if any key is blocked (nothing counted), or 0
     * after counting this attempt as a failure in advance, so parallel guesses cannot slip past the
     * count while the hash is computed. `succeeded` gives it back.
     */
    async begin(email: string, client: string): Promise<number> {
      return beginAttempt(db, rules(email, client), SIGN_IN_THROTTLE.windowSeconds);
    },

    /**
     * The right password: the pair starts afresh, and the attempt counted in advance is given back
     * along with the delay it set (none was running, or `begin` would have refused).
     */
    async succeeded(email: string, client: string) {
      const [pair, ...shared] = rules(email, client);
      await db.query('DELETE FROM auth_throttle WHERE key = $1', [pair!.key]);
      await giveBack(db, shared.map((r) => r.key));
    },

    /** After a password reset or change: the owner proved who they are; the account starts afresh. */
    async forget(email: string) {
      await db.query(`DELETE FROM auth_throttle WHERE key = $1 OR key LIKE $2`, [`signin:account:${email}`, `signin:pair:${email.replace(/[\\%_]/g, '\\$&')}|%`]);
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
