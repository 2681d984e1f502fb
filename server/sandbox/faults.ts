/**
 * The local sandbox's fault switch (dev only; issue 32): the gateway failures the money code must
 * survive, played on demand. Kept in the database (012_sandbox_faults.sql), so every API process that
 * shares it plays the same faults; set through `POST /sandbox/maya/_faults` (api.ts) or, in a test in
 * the same process, `setSandboxFaults`.
 *
 * A fault names the calls it matches (`on`): 'charge' (a card or wallet payment), 'read' (any GET:
 * a payment, payments by reference, a checkout, a link), 'checkout' (creating one), 'void', 'refund',
 * or 'any' Maya call; and what happens (`mode`):
 * - 'timeout': nothing is done; the answer is held `holdMs`, then the connection is dropped (over
 *   HTTP the client sees it close; in-process, where there is no socket, a 504 comes after the hold,
 *   so a client whose timeout is shorter than `holdMs` times out first);
 * - 'charge-then-timeout': the call is made (the charge taken and stored, its webhook sent as the
 *   webhook mode says), then its answer is lost as for 'timeout';
 * - 'unreadable': the call is made, then answered 200 with a body Maya's schema refuses;
 * - 'http500', 'http401', 'http429': answered with Maya's error shape, nothing done.
 * Each matching call consumes one of `times` (with `every: n`, only every n-th matching call plays
 * the fault: a share of the calls); the first fault in the list that matches is the one consulted.
 *
 * Webhooks (`webhooks`): 'normal'; 'lost' (never sent, but remembered: `releaseLostWebhooks` sends
 * each such payment's webhook late, as Maya's retries would); 'doubled' (each sent twice at once).
 */
import * as z from 'zod/mini';
import type { Db, Queryable } from '../platform/db';

export const FAULT_CALLS = ['charge', 'read', 'checkout', 'void', 'refund', 'any'] as const;
export const FAULT_MODES = ['timeout', 'http500', 'unreadable', 'http401', 'http429', 'charge-then-timeout'] as const;
export const WEBHOOK_MODES = ['normal', 'lost', 'doubled'] as const;
export type FaultCall = (typeof FAULT_CALLS)[number];
export type FaultMode = (typeof FAULT_MODES)[number];
export type WebhookMode = (typeof WEBHOOK_MODES)[number];

const whole = (min: number, max: number) => z.number().check(z.int(), z.gte(min), z.lte(max));
export const faultSwitchSchema = z.object({
  faults: z.optional(
    z.array(z.object({
      on: z.enum(FAULT_CALLS),
      mode: z.enum(FAULT_MODES),
      times: whole(1, 1_000_000),
      every: z.optional(whole(1, 10_000)),
      holdMs: z.optional(whole(0, 120_000)),
    })).check(z.maxLength(20)),
  ),
  webhooks: z.optional(z.enum(WEBHOOK_MODES)),
});
/** What `POST /sandbox/maya/_faults` takes: the faults replace the ones set (when given), the webhook mode likewise. */
export type FaultSwitch = z.infer<typeof faultSwitchSchema>;

export interface FaultState {
  faults: Array<{ on: FaultCall; mode: FaultMode; timesLeft: number; every: number; holdMs: number }>;
  webhooks: WebhookMode;
}

/* ----------------------------------------------------------------- what each process remembers */

/**
 * Whether any fault is armed and the webhook mode, per database, re-read at most this often: the
 * billing bench charges through the sandbox 100,000 times, and an idle switch must cost no query.
 * Another process's change is seen within this time; this process's own at once.
 */
const SWITCH_TTL_MS = 250;
const switches = new WeakMap<object, { readAt: number; armed: boolean; webhooks: WebhookMode }>();

async function readSwitch(db: Queryable) {
  const known = switches.get(db);
  if (known && Date.now() - known.readAt < SWITCH_TTL_MS) return known;
  const row = (
    await db.query<{ armed: boolean; webhooks: WebhookMode | null }>(
      `SELECT EXISTS (SELECT 1 FROM sandbox_faults WHERE times_left > 0) AS armed, (SELECT mode FROM sandbox_webhook_mode WHERE id) AS webhooks`,
    )
  ).rows[0];
  const fresh = { readAt: Date.now(), armed: Boolean(row?.armed), webhooks: row?.webhooks ?? 'normal' };
  switches.set(db, fresh);
  return fresh;
}

/* ----------------------------------------------------------------- the switch */

export async function setSandboxFaults(db: Db, change: FaultSwitch): Promise<FaultState> {
  const parsed = faultSwitchSchema.parse(change);
  await db.transaction(async (tx) => {
    if (parsed.faults) {
      await tx.query('DELETE FROM sandbox_faults');
      for (const fault of parsed.faults) {
        await tx.query('INSERT INTO sandbox_faults (on_call, mode, times_left, every, hold_ms) VALUES ($1, $2, $3, $4, $5)', [
          fault.on, fault.mode, fault.times, fault.every ?? 1, fault.holdMs ?? 0,
        ]);
      }
    }
    if (parsed.webhooks) {
      await tx.query('INSERT INTO sandbox_webhook_mode (id, mode) VALUES (true, $1) ON CONFLICT (id) DO UPDATE SET mode = EXCLUDED.mode', [parsed.webhooks]);
    }
  });
  switches.delete(db);
  return readSandboxFaults(db);
}

/** No faults, webhooks normal; webhooks lost so far stay lost until released. */
export async function clearSandboxFaults(db: Db): Promise<FaultState> {
  await db.exec('DELETE FROM sandbox_faults; DELETE FROM sandbox_webhook_mode;');
  switches.delete(db);
  return readSandboxFaults(db);
}

export async function readSandboxFaults(db: Queryable): Promise<FaultState> {
  const faults = await db.query<{ on_call: FaultCall; mode: FaultMode; times_left: number; every: number; hold_ms: number }>(
    'SELECT on_call, mode, times_left, every, hold_ms FROM sandbox_faults WHERE times_left > 0 ORDER BY id',
  );
  const mode = (await db.query<{ mode: WebhookMode }>('SELECT mode FROM sandbox_webhook_mode WHERE id')).rows[0]?.mode ?? 'normal';
  return {
    faults: faults.rows.map((f) => ({ on: f.on_call, mode: f.mode, timesLeft: f.times_left, every: f.every, holdMs: f.hold_ms })),
    webhooks: mode,
  };
}

/** Forgets the switch's state when the sandbox is reset (seed.ts). */
export function forgetSwitch(db: object): void {
  switches.delete(db);
}

/**
 * The fault a Maya call of kind `call` plays now (consuming one of its times, in one statement, so
 * two processes never play one fault twice), or null. `null` call: not a Maya call (a hosted page).
 */
export async function takeFault(db: Queryable, call: Exclude<FaultCall, 'any'> | 'other'): Promise<{ mode: FaultMode; holdMs: number } | null> {
  if (!(await readSwitch(db)).armed) return null;
  const taken = await db.query<{ mode: FaultMode; hold_ms: number; hit: boolean }>(
    `WITH target AS (
       SELECT id FROM sandbox_faults WHERE times_left > 0 AND on_call = ANY($1::text[]) ORDER BY id LIMIT 1 FOR UPDATE)
     UPDATE sandbox_faults f SET seen = f.seen + 1, times_left = f.times_left - CASE WHEN (f.seen + 1) % f.every = 0 THEN 1 ELSE 0 END
     FROM target WHERE f.id = target.id
     RETURNING f.mode, f.hold_ms, f.seen % f.every = 0 AS hit`,
    [call === 'other' ? ['any'] : [call, 'any']],
  );
  const row = taken.rows[0];
  if (!row) {
    switches.delete(db);
    return null;
  }
  return row.hit ? { mode: row.mode, holdMs: row.hold_ms } : null;
}

export async function webhookMode(db: Queryable): Promise<WebhookMode> {
  return (await readSwitch(db)).webhooks;
}

/** Which kind of Maya call a request to the sandbox's API is (`path` is the full path); null for the hosted pages and the switch itself. */
export function callKind(method: string, path: string): Exclude<FaultCall, 'any'> | 'other' | null {
  if (/\/(pages|_faults)(\/|$)/.test(path)) return null;
  if (method === 'GET') return 'read';
  if (method !== 'POST') return 'other';
  if (/\/payments\/v1\/customers\/[^/]+\/cards\/[^/]+\/payments$/.test(path) || /\/payby\/v2\/paymaya\/link\/[^/]+\/execute$/.test(path)) return 'charge';
  if (/\/checkout\/v1\/checkouts$/.test(path)) return 'checkout';
  if (/\/payments\/v1\/payments\/[^/]+\/voids$/.test(path)) return 'void';
  if (/\/payments\/v1\/payments\/[^/]+\/refunds$/.test(path)) return 'refund';
  return 'other';
}

/* ----------------------------------------------------------------- webhooks in flight (tests in one process) */

const inFlight = new WeakMap<object, { count: number; idle: Array<() => void> }>();

/** Counts a webhook delivery of the sandbox on `db` until it settles. */
export function track<T>(db: object, work: Promise<T>): Promise<T> {
  const entry = inFlight.get(db) ?? { count: 0, idle: [] };
  inFlight.set(db, entry);
  entry.count++;
  const done = () => {
    entry.count--;
    if (entry.count === 0) for (const resolve of entry.idle.splice(0)) resolve();
  };
  work.then(done, done);
  return work;
}

/**
 * Resolves once every webhook the sandbox on `db` has sent (in this process) has been answered (or
 * recorded as lost): a test's next step then sees their effects. An answer held back by a timeout
 * fault is not waited for: it changes nothing when it is finally given.
 */
export async function sandboxSettled(db: object): Promise<void> {
  // Deliveries start on the next turn (setImmediate): let the ones already due begin first.
  for (let round = 0; round < 3; round++) {
    await new Promise((resolve) => setImmediate(resolve));
    const entry = inFlight.get(db);
    if (entry && entry.count > 0) {
      await new Promise<void>((resolve) => entry.idle.push(resolve));
      round = -1;
    }
  }
}

/** What the sandbox on a database sends a lost webhook with (registered by api.ts). */
const releasers = new WeakMap<object, () => Promise<number>>();
export function registerReleaser(db: object, release: () => Promise<number>): void {
  releasers.set(db, release);
}

/**
 * Sends, late, the webhook of every payment whose webhook was lost (the payment as it is now), as
 * Maya's retries would; answers how many were sent. In-process tests; `POST /sandbox/maya/_faults/webhooks/release` otherwise.
 */
export async function releaseLostWebhooks(db: object): Promise<number> {
  const release = releasers.get(db);
  if (!release) throw new Error('No sandbox is serving this database in this process');
  return release();
}
