/** Password hashing with Node's scrypt (product.md#reference-server), compared in constant time. */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';

const KEY_LENGTH = 64;
const PARAMS: ScryptOptions = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/**
 * Hashes run on libuv's thread pool, never on the event loop, and at most this many at once (issue 10):
 * a burst of sign-ins queues here instead of taking every core from the thread that answers the
 * other requests. Default: one fewer than the cores (at least one); PASSWORD_HASH_CONCURRENCY sets it.
 */
export const HASH_CONCURRENCY = Math.max(1, Number(process.env.PASSWORD_HASH_CONCURRENCY) || availableParallelism() - 1);
let running = 0;
const queue: Array<() => void> = [];

/** Runs `task` when fewer than `limit` are running (first come, first served). */
export async function bounded<T>(task: () => Promise<T>, limit = HASH_CONCURRENCY): Promise<T> {
  if (running >= limit) await new Promise<void>((resolve) => queue.push(resolve));
  else running += 1;
  try {
    return await task();
  } finally {
    const next = queue.shift();
    if (next) next(); // the slot passes straight to the next in line
    else running -= 1;
  }
}

/** How many hashes are running and waiting (tests read it). */
export const hashLoad = () => ({ running, waiting: queue.length });

function scrypt(password: string, salt: Buffer): Promise<Buffer> {
  return bounded(
    () =>
      new Promise((resolve, reject) =>
        scryptCb(password.normalize('NFKC'), salt, KEY_LENGTH, PARAMS, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt);
  return `scrypt$${PARAMS.N}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, , saltB64, keyB64] = stored.split('$');
  if (scheme !== 'scrypt' || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, 'base64');
  const actual = await scrypt(password, Buffer.from(saltB64, 'base64'));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of a password nobody has, so unknown emails cost the same time as known ones. */
export const DUMMY_HASH_PROMISE = hashPassword(randomBytes(12).toString('hex'));
