/**
 * One-time codes (design: security policy): 6 letters or digits from a secure RNG, valid 10 minutes,
 * single use, at most 5 wrong tries then void; a new code no sooner than 60 s after the last and at
 * most 5 an hour per email. Known and unknown emails get the same answers.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { Db } from './db';
import { HttpError } from './http';
import { sha256 } from './tokens';

export const OTP_TTL_MS = 10 * 60 * 1000;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_RESEND_AFTER_S = 60;
export const OTP_MAX_SENDS_PER_HOUR = 5;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O or 1/I to misread

export type Purpose = 'signup' | 'recovery';

export const OTP_MESSAGES = {
  invalid: 'Invalid OTP code',
  expired: 'This code has expired. Please request a new one.',
  voided: 'Too many wrong attempts. Please request a new code.',
  unknownChallenge: 'This verification has expired. Please start again.',
  tooManySends: 'Too many codes requested for this email. Please try again in an hour.',
  waitBeforeResend: (seconds: number) => `Please wait ${seconds} seconds before requesting a new code.`,
};

export function generateCode(): string {
  let code = '';
  for (let i = 0; i < 6; i++) code += ALPHABET[randomInt(ALPHABET.length)];
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
  /** Refuses a send inside the 60 s window or past 5 an hour, for this email and purpose. */
  async function checkSendLimits(email: string, purpose: Purpose) {
    const row = await db.query<{ last: Date | null; count: number }>(
      `SELECT max(sent_at) AS last, count(*)::int AS count FROM otp_sends
       WHERE email = $1 AND purpose = $2 AND sent_at > now() - interval '1 hour'`,
      [email, purpose],
    );
    const { last, count } = row.rows[0] ?? { last: null, count: 0 };
    if (last) {
      const wait = Math.ceil(OTP_RESEND_AFTER_S - (Date.now() - new Date(last).getTime()) / 1000);
      if (wait > 0) throw new HttpError(429, OTP_MESSAGES.waitBeforeResend(wait));
    }
    if (count >= OTP_MAX_SENDS_PER_HOUR) throw new HttpError(429, OTP_MESSAGES.tooManySends);
  }

  async function recordSend(email: string, purpose: Purpose) {
    await db.query('INSERT INTO otp_sends (email, purpose) VALUES ($1, $2)', [email, purpose]);
  }

  async function find(token: string, purpose: Purpose): Promise<ChallengeRow> {
    const rows = await db.query<ChallengeRow>('SELECT * FROM otp_challenges WHERE token_hash = $1 AND purpose = $2', [sha256(token), purpose]);
    const row = rows.rows[0];
    if (!row || row.consumed_at) throw new HttpError(400, OTP_MESSAGES.unknownChallenge);
    return row;
  }

  return {
    /** Starts a challenge; answers the token and the code (null when nothing is to be delivered). */
    async start(options: { purpose: Purpose; email: string; userId: string | null; deliverable: boolean; payload?: unknown }) {
      await checkSendLimits(options.email, options.purpose);
      const token = randomBytes(32).toString('base64url');
      const tokenHash = sha256(token);
      const code = generateCode();
      await db.query(
        `INSERT INTO otp_challenges (token_hash, purpose, email, user_id, code_hash, deliverable, payload, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [tokenHash, options.purpose, options.email, options.userId, codeHash(tokenHash, code), options.deliverable,
          options.payload === undefined ? null : JSON.stringify(options.payload), new Date(Date.now() + OTP_TTL_MS)],
      );
      await recordSend(options.email, options.purpose);
      return { token, code: options.deliverable ? code : null };
    },

    /** A fresh code for the same challenge: attempts reset, validity restarts. */
    async resend(token: string, purpose: Purpose) {
      const row = await find(token, purpose);
      await checkSendLimits(row.email, purpose);
      const code = generateCode();
      await db.query(
        `UPDATE otp_challenges SET code_hash = $2, attempts = 0, expires_at = $3, last_sent_at = now() WHERE token_hash = $1`,
        [row.token_hash, codeHash(row.token_hash, code), new Date(Date.now() + OTP_TTL_MS)],
      );
      await recordSend(row.email, purpose);
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
