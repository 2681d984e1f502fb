/**
 * One-time codes (product.md#security-codes): 6 letters or digits from a secure RNG, valid 10 minutes,
 * single use, at most 5 wrong tries then void; a new code no sooner than 60 s after the last and at
 * most 5 an hour per email. Known and unknown emails get the same answers.
 *
 * The send limits count per email *and client* (issue 11): a third party asking for codes for
 * someone else's email uses up its own allowance, not the owner's. A ceiling per email over all
 * clients (OTP_MAX_SENDS_PER_HOUR_ALL_CLIENTS) still bounds how much mail one inbox can receive.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { OTP_LENGTH, OTP_MESSAGES } from '../../src/api/schemas';
import type { Db } from '../platform/db';
import { HttpError } from '../platform/http';
import { sha256 } from './tokens';

export { OTP_MESSAGES };
export const OTP_TTL_MS = 10 * 60 * 1000;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_RESEND_AFTER_S = 60;
export const OTP_MAX_SENDS_PER_HOUR = 5;
export const OTP_MAX_SENDS_PER_HOUR_ALL_CLIENTS = 20;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O or 1/I to misread

export type Purpose = 'signup' | 'recovery' | 'email_change';

export function generateCode(): string {
  let code = '';
  for (let i = 0; i < OTP_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

const codeHash = (tokenHash: string, code: string) => sha256(`${tokenHash}:${code.trim().toUpperCase()}`);

interface ChallengeRow {
  token_hash: string;
  purpose: Purpose;
  email: string;
  user_id: string | null;
  code_hash: string;
  deliverable: boolean;
  payload: unknown;
  attempts: number;
  expires_at: Date;
  consumed_at: Date | null;
  last_sent_at: Date;
}

export function createOtp(db: Db) {
  /**
   * Refuses a send inside the 60 s window or past 5 an hour for this email, purpose and client, or
   * past the ceiling for this email over all clients; the 429 says how long to wait.
   */
  async function checkSendLimits(email: string, purpose: Purpose, client: string) {
    const row = await db.query<{ wait: number; count: number; free_in: number; total: number; total_free_in: number }>(
      `SELECT
         coalesce(ceil($4::int - extract(epoch FROM now() - max(sent_at) FILTER (WHERE client = $3))), 0)::int AS wait,
         (count(*) FILTER (WHERE client = $3))::int AS count,
         coalesce(ceil(3600 - extract(epoch FROM now() - min(sent_at) FILTER (WHERE client = $3))), 0)::int AS free_in,
         count(*)::int AS total,
         coalesce(ceil(3600 - extract(epoch FROM now() - min(sent_at))), 0)::int AS total_free_in
       FROM otp_sends WHERE email = $1 AND purpose = $2 AND sent_at > now() - interval '1 hour'`,
      [email, purpose, client, OTP_RESEND_AFTER_S],
    );
    const { wait, count, free_in, total, total_free_in } = row.rows[0]!;
    if (wait > 0) throw new HttpError(429, OTP_MESSAGES.waitBeforeResend(wait), wait);
    if (count >= OTP_MAX_SENDS_PER_HOUR) throw new HttpError(429, OTP_MESSAGES.tooManySends, free_in);
    if (total >= OTP_MAX_SENDS_PER_HOUR_ALL_CLIENTS) throw new HttpError(429, OTP_MESSAGES.tooManySends, total_free_in);
  }

  async function recordSend(email: string, purpose: Purpose, client: string) {
    await db.query('INSERT INTO otp_sends (email, purpose, client) VALUES ($1, $2, $3)', [email, purpose, client]);
  }

  async function find(token: string, purpose: Purpose): Promise<ChallengeRow> {
    const rows = await db.query<ChallengeRow>('SELECT * FROM otp_challenges WHERE token_hash = $1 AND purpose = $2', [sha256(token), purpose]);
    const row = rows.rows[0];
    if (!row || row.consumed_at) throw new HttpError(400, OTP_MESSAGES.unknownChallenge);
    return row;
  }

  return {
    /** Starts a challenge; answers the token and the code (null when nothing is to be delivered). */
    async start(options: { purpose: Purpose; email: string; userId: string | null; deliverable: boolean; payload?: unknown; client: string }) {
      await checkSendLimits(options.email, options.purpose, options.client);
      const token = randomBytes(32).toString('base64url');
      const tokenHash = sha256(token);
      const code = generateCode();
      await db.query(
        `INSERT INTO otp_challenges (token_hash, purpose, email, user_id, code_hash, deliverable, payload, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [tokenHash, options.purpose, options.email, options.userId, codeHash(tokenHash, code), options.deliverable,
          options.payload === undefined ? null : JSON.stringify(options.payload), new Date(Date.now() + OTP_TTL_MS)],
      );
      await recordSend(options.email, options.purpose, options.client);
      return { token, code: options.deliverable ? code : null };
    },

    /** A fresh code for the same challenge: attempts reset, validity restarts. */
    async resend(token: string, purpose: Purpose, client: string) {
      const row = await find(token, purpose);
      await checkSendLimits(row.email, purpose, client);
      const code = generateCode();
      await db.query(
        `UPDATE otp_challenges SET code_hash = $2, attempts = 0, expires_at = $3, last_sent_at = now() WHERE token_hash = $1`,
        [row.token_hash, codeHash(row.token_hash, code), new Date(Date.now() + OTP_TTL_MS)],
      );
      await recordSend(row.email, purpose, client);
      return { email: row.email, userId: row.user_id, payload: row.payload, code: row.deliverable ? code : null };
    },

    /** Checks a code; on success the challenge is used up and its details returned. */
    async verify(token: string, purpose: Purpose, code: string) {
      const row = await find(token, purpose);
      if (row.attempts >= OTP_MAX_ATTEMPTS) throw new HttpError(429, OTP_MESSAGES.voided);
      if (row.expires_at.getTime() < Date.now()) throw new HttpError(400, OTP_MESSAGES.expired);
      if (!row.deliverable || codeHash(row.token_hash, code) !== row.code_hash) {
        const updated = await db.query<{ attempts: number }>(
          'UPDATE otp_challenges SET attempts = attempts + 1 WHERE token_hash = $1 RETURNING attempts', [row.token_hash],
        );
        const attempts = updated.rows[0]?.attempts ?? OTP_MAX_ATTEMPTS;
        throw new HttpError(attempts >= OTP_MAX_ATTEMPTS ? 429 : 400, attempts >= OTP_MAX_ATTEMPTS ? OTP_MESSAGES.voided : OTP_MESSAGES.invalid);
      }
      const consumed = await db.query('UPDATE otp_challenges SET consumed_at = now() WHERE token_hash = $1 AND consumed_at IS NULL RETURNING token_hash', [row.token_hash]);
      if (consumed.rows.length === 0) throw new HttpError(400, OTP_MESSAGES.unknownChallenge);
      return { email: row.email, userId: row.user_id, payload: row.payload };
    },
  };
}

export type Otp = ReturnType<typeof createOtp>;

/** Single-use opaque tokens kept hashed (reset tokens, login links), valid for `ttlMs`. */
export function createSingleUseTokens(db: Db, table: 'reset_tokens' | 'login_links', ttlMs: number) {
  return {
    async issue(userId: string) {
      const token = randomBytes(32).toString('base64url');
      await db.query(`INSERT INTO ${table} (token_hash, user_id, expires_at) VALUES ($1, $2, $3)`, [sha256(token), userId, new Date(Date.now() + ttlMs)]);
      return token;
    },
    /** The user id, once; null for an unknown, used or expired token. */
    async consume(token: string): Promise<string | null> {
      const rows = await db.query<{ user_id: string }>(
        `UPDATE ${table} SET consumed_at = now() WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > now() RETURNING user_id`,
        [sha256(token)],
      );
      return rows.rows[0]?.user_id ?? null;
    },
  };
}
