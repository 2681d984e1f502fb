/**
 * Access tokens are signed JWTs (jose, HS256) naming a user and a session; refresh tokens are opaque,
 * stored hashed, rotated. A session ends when its row is revoked (a password change or reset ends the
 * account's other sessions), and its access tokens stop working at once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jwtVerify, SignJWT } from 'jose';
import type { Db, Queryable, Results } from '../platform/db';
import { HttpError } from '../platform/http';

export const ACCESS_TOKEN_TTL = '12h';
/** The same as milliseconds: a session whose tokens were last issued longer ago than this has no live token. */
export const ACCESS_TOKEN_TTL_MS = 12 * 60 * 60 * 1000;
/** A session's last use is written at most this often (issue 36: never on every read; reads are benchmarked). */
export const LAST_USED_EVERY_MS = 60 * 1000;
const TOUCHED_MAX = 10_000;
const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const ISSUER = 'sine-bisaya';
const SESSION_EXPIRED = 'Your session has expired. Please log in again.';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** JWT_SECRET wins; otherwise a secret kept beside the data (or a fresh one for :memory:). */
export function loadSecret(dataDir: string, env = process.env): Uint8Array {
  if (env.JWT_SECRET && env.JWT_SECRET.length >= 32) return new TextEncoder().encode(env.JWT_SECRET);
  if (dataDir === ':memory:') return randomBytes(32);
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'jwt-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  return Buffer.from(readFileSync(file, 'utf8'), 'base64');
}

/** The device a session is opened on (issue 36, devices.ts `deviceOf`). */
export interface DeviceInfo {
  userAgent: string | null;
  clientAddress: string | null;
  /** A country code a trusted proxy named (CF-IPCountry behind TRUST_PROXY), else null. */
  place: string | null;
}

export interface SessionRef {
  userId: string;
  sessionId: string;
}

/**
 * Signatures already checked, by token (issue 10: HMAC through WebCrypto costs a thread-pool round
 * trip per request). Only the signature's verdict is kept — a token's content never changes — never
 * whether its session is open: that is read from the database on every request, so a session ended
 * by another process ends here at once.
 */
const VERIFIED_MAX = 10_000;

/**
 * Open sessions seen, by session id (issue 10): only on PGlite, which one process owns alone, so every
 * revocation goes through `endSessions` here and drops the entry. On PostgreSQL another process may
 * end a session, so every request reads the sessions table.
 */
const OPEN_MAX = 10_000;

/**
 * `previous`: secrets a rotation replaced (JWT_SECRET_PREVIOUS, docs/operations.md#rotate-jwt): tokens
 * they signed are still accepted until they expire (12 h), new ones are signed with `secret` only.
 */
export function createTokens(db: Db, secret: Uint8Array, previous: Uint8Array[] = []) {
  const openSessions = db.kind === 'pglite' ? new Map<string, string>() : null;
  const verified = new Map<string, { sub: unknown; sid: unknown; exp: number }>();
  async function checkSignature(token: string): Promise<{ sub: unknown; sid: unknown } | null> {
    const known = verified.get(token);
    if (known) {
      if (known.exp * 1000 > Date.now()) return known;
      verified.delete(token);
      return null;
    }
    for (const key of [secret, ...previous]) {
      const payload = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'] }).then((r) => r.payload, () => null);
      if (!payload) continue;
      if (typeof payload.exp === 'number') {
        if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
        verified.set(token, { sub: payload.sub, sid: payload.sid, exp: payload.exp });
      }
      return { sub: payload.sub, sid: payload.sid };
    }
    return null;
  }

  async function signed(token: string): Promise<SessionRef | null> {
    const verified = await checkSignature(token);
    if (!verified) return null;
    const { sub, sid } = verified;
    // A well-signed token with a malformed subject is still just an invalid token (a 401, not a crash).
    if (typeof sub !== 'string' || typeof sid !== 'string' || !UUID.test(sub) || !UUID.test(sid)) return null;
    return { userId: sub, sessionId: sid };
  }

  async function isOpen({ userId, sessionId }: SessionRef): Promise<boolean> {
    if (openSessions?.get(sessionId) === userId) return true;
    const open = await db.query(`SELECT 1 FROM sessions vs WHERE ${sessionOpenSql('$1', '$2')}`, [sessionId, userId]);
    if (open.rows.length === 0) return false;
    if (openSessions) {
      if (openSessions.size >= OPEN_MAX) openSessions.delete(openSessions.keys().next().value!);
      openSessions.set(sessionId, userId);
    }
    return true;
  }

  /** When each session's last use was last written here (issue 36: at most once a minute). */
  const touched = new Map<string, number>();

  /**
   * The session's id: a new session on `device`, or `sessionId` if it is still open, its tokens issued
   * now. A session that was ended (signed out from another device, a password change) is never revived:
   * fresh tokens for it are refused with a 401.
   */
  async function openOrRenew(userId: string, sessionId: string | undefined, device: DeviceInfo | undefined): Promise<string> {
    if (sessionId === undefined) {
      return (await db.query<{ id: string }>(
        `INSERT INTO sessions (user_id, user_agent, client_address, place, tokens_issued_at, last_used_at)
         VALUES ($1, $2, $3, $4, now(), now()) RETURNING id`,
        [userId, device?.userAgent?.slice(0, 512) ?? null, device?.clientAddress ?? null, device?.place ?? null],
      )).rows[0]!.id;
    }
    const renewed = await db.query<{ id: string }>(
      'UPDATE sessions SET tokens_issued_at = now(), last_used_at = now() WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id',
      [sessionId, userId],
    );
    if (renewed.rows.length === 0) throw new HttpError(401, SESSION_EXPIRED);
    touched.set(sessionId, Date.now());
    return sessionId;
  }

  return {
    /**
     * Tokens for a new session (opened on `device`), or fresh tokens for `sessionId` (which stays the
     * same session, and only while it is open).
     */
    async issue(userId: string, sessionId?: string, device?: DeviceInfo) {
      const sid = await openOrRenew(userId, sessionId, device);
      const accessToken = await new SignJWT({ sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(ACCESS_TOKEN_TTL)
        .sign(secret);
      const refreshToken = randomBytes(32).toString('base64url');
      await db.query('INSERT INTO refresh_tokens (token_hash, user_id, session_id, expires_at) VALUES ($1, $2, $3, $4)', [
        sha256(refreshToken), userId, sid, new Date(Date.now() + REFRESH_TTL_MS),
      ]);
      return { accessToken, refreshToken };
    },

    /**
     * The user and session a valid access token names, its session not yet checked: only for a read
     * that checks the session itself, in its own statement (`sessionGuardSql`, issue 21).
     */
    signed,

    /** The user and session of a valid access token whose session is still open, or null. */
    async verify(token: string): Promise<SessionRef | null> {
      const session = await signed(token);
      return session && (await isOpen(session)) ? session : null;
    },

    /** Whether the session is open (on PGlite, remembered once seen open). */
    isOpen,

    /**
     * Whether the session must be checked by the read it guards (PostgreSQL): on PGlite an open
     * session is remembered, so checking it costs nothing and the read need not.
     */
    readsCheckSessions: openSessions === null,

    /** Forgets every remembered open session (after the sessions table was emptied: POST /dev/reset). */
    forgetOpenSessions() {
      openSessions?.clear();
    },

    /**
     * Notes that the session was used now: written at most once a minute per session and process
     * (issue 36), so a burst of reads costs no writes.
     */
    async touch(sessionId: string): Promise<void> {
      const at = Date.now();
      const last = touched.get(sessionId);
      if (last !== undefined && at - last < LAST_USED_EVERY_MS) return;
      if (touched.size >= TOUCHED_MAX) touched.delete(touched.keys().next().value!);
      touched.set(sessionId, at);
      await db.query(
        `UPDATE sessions SET last_used_at = now()
         WHERE id = $1 AND revoked_at IS NULL AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2))`,
        [sessionId, LAST_USED_EVERY_MS / 1000],
      );
    },

    /** Ends one session of the account and revokes its refresh tokens; false when it was not open. */
    async endSession(userId: string, sessionId: string): Promise<boolean> {
      if (openSessions?.get(sessionId) === userId) openSessions.delete(sessionId);
      const ended = await db.query(
        'UPDATE sessions SET revoked_at = now() WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id', [sessionId, userId],
      );
      await db.query('UPDATE refresh_tokens SET revoked_at = now() WHERE session_id = $1 AND user_id = $2 AND revoked_at IS NULL', [sessionId, userId]);
      return ended.rows.length > 0;
    },

    /** Ends the account's sessions (all, or all but `keep`) and revokes every refresh token. */
    async endSessions(userId: string, keep?: string) {
      if (openSessions) for (const [sid, owner] of openSessions) if (owner === userId && sid !== keep) openSessions.delete(sid);
      await db.query(
        'UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR id <> $2::uuid)',
        [userId, keep ?? null],
      );
      await db.query('UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [userId]);
    },
  };
}

export type Tokens = ReturnType<typeof createTokens>;

/** SQL: the session in parameter `sessionId`, of the user in parameter `userId`, is open (sessions as `vs`). */
const sessionOpenSql = (sessionId: string, userId: string) => `vs.id = ${sessionId} AND vs.user_id = ${userId} AND vs.revoked_at IS NULL`;

/**
 * SQL: a condition that holds only while the session in parameter `sessionId` is open, for a read
 * that checks its own session (issue 21: the check and the read in one statement, one round trip).
 * The read's rows are all or none: none means the session is closed or the read found nothing.
 */
export const sessionGuardSql = (sessionId: string, userId: string) => `EXISTS (SELECT 1 FROM sessions vs WHERE ${sessionOpenSql(sessionId, userId)})`;

/**
 * A viewer's read: `sql` with `params`, or, when `uncheckedSession` is given, `guarded` (the same read
 * with `sessionGuardSql` on its next parameter) with that session added after them.
 */
export function readGuarded<T>(q: Queryable, sql: string, guarded: string, params: unknown[], uncheckedSession: string | null): Promise<Results<T>> {
  return uncheckedSession === null ? q.query<T>(sql, params) : q.query<T>(guarded, [...params, uncheckedSession]);
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
