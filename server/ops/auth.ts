/**
 * Who may operate (issue 35, docs/operations.md#back-office): roles, the second factor, ops sessions.
 *
 * - Roles live in `operator_roles` (support < finance < admin); granted by `npm run ops:grant` or an admin
 *   (`grantRole`, one audit entry each); removing or changing a role ends that operator's ops sessions.
 * - TOTP (RFC 6238 with `otpauth`: SHA1, 6 digits, 30 s, a window of one step each side). A code's time
 *   step is used once (`last_used_step`): the same code twice is refused. The secret is stored encrypted
 *   (AES-256-GCM, a key derived from JWT_SECRET by HKDF) and never logged. Ten recovery codes, hashed,
 *   each good once. Wrong codes are throttled per operator like sign-in (identity/throttle.ts).
 * - Ops sessions: an opaque 32-byte token, stored hashed; idle 15 minutes, at most 8 hours (real time,
 *   like every session); ended by sign-out, a role change, an admin's revoke, or the viewer session it was
 *   opened from ending (sign-out, a password change: identity/credentials.ts).
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { OPS_MESSAGES, roleAtLeast, type GrantRole, type OperatorRole, type OpsSession } from '../../src/api/ops/schemas';
import { beginAttempt, giveBack, tooManySignIns } from '../identity/throttle';
import type { Db, Queryable } from '../platform/db';
import { HttpError } from '../platform/http';
import { writeAudit, type Actor } from './audit';

export const OPS_IDLE_MS = 15 * 60 * 1000;
export const OPS_ABSOLUTE_MS = 8 * 60 * 60 * 1000;
export const RECOVERY_CODES = 10;
const TOTP_PERIOD = 30;
const ISSUER = 'Sine Bisaya Ops';
/** Wrong codes: a few free, then growing delays (per operator), like sign-in's pair. */
export const CODE_THROTTLE = { free: 5, maxDelaySeconds: 15 * 60, windowSeconds: 60 * 60 } as const;

/** The key the TOTP secrets are sealed with, from the JWT secret (a different key for a different use). */
export function deriveOpsKey(jwtSecret: Uint8Array): Buffer {
  return Buffer.from(hkdfSync('sha256', jwtSecret, 'sine-bisaya-ops', 'operator-totp-secret', 32));
}

export function seal(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/**
 * The sealing keys: the first seals, each opens (the ones derived from JWT_SECRET_PREVIOUS during a
 * rotation); a secret opened with an older key is sealed again with the first when it is used.
 */
export type OpsKeys = Buffer[];

/** Opens with the first key that can; answers the secret and whether that was the current key. */
export function unsealAny(keys: OpsKeys, sealed: string): { plain: string; current: boolean } {
  let failure: unknown = new Error('no key to open a sealed secret');
  for (const [index, key] of keys.entries()) {
    try {
      return { plain: unseal(key, sealed), current: index === 0 };
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

export function unseal(key: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unreadable sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export interface OperatorRecord {
  userId: string;
  email: string;
  name: string;
  role: OperatorRole;
  enrolled: boolean;
}

/** The operator behind a user id, or null for a viewer. */
export async function operatorOf(q: Queryable, userId: string): Promise<OperatorRecord | null> {
  const row = (
    await q.query<{ user_id: string; email: string; first_name: string; last_name: string; role: OperatorRole; enrolled: boolean }>(
      `SELECT r.user_id, u.email, u.first_name, u.last_name, r.role, (t.confirmed_at IS NOT NULL) AS enrolled
       FROM operator_roles r JOIN users u ON u.id = r.user_id LEFT JOIN operator_totp t ON t.user_id = r.user_id
       WHERE r.user_id = $1`,
      [userId],
    )
  ).rows[0];
  return row ? { userId: row.user_id, email: row.email, name: `${row.first_name} ${row.last_name}`.trim(), role: row.role, enrolled: !!row.enrolled } : null;
}

/* ------------------------------------------------------------------ TOTP */

const totpOf = (secret: string, email: string) =>
  new OTPAuth.TOTP({ issuer: ISSUER, label: email, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD, secret: OTPAuth.Secret.fromBase32(secret) });

/** A new pending secret (replacing any unconfirmed one). Refused once enrolled. */
export async function startEnrolment(db: Db, keys: OpsKeys, operator: OperatorRecord): Promise<{ secret: string; otpauthUrl: string }> {
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  const written = await db.query(
    `INSERT INTO operator_totp (user_id, secret_encrypted) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET secret_encrypted = EXCLUDED.secret_encrypted, created_at = clock_timestamp(), last_used_step = NULL
       WHERE operator_totp.confirmed_at IS NULL
     RETURNING user_id`,
    [operator.userId, seal(keys[0]!, secret)],
  );
  if (!written.rows.length) throw new HttpError(409, OPS_MESSAGES.alreadyEnrolled);
  return { secret, otpauthUrl: totpOf(secret, operator.email).toString() };
}

const isTotpCode = (code: string) => /^\d{6}$/.test(code);
export const normalRecoveryCode = (code: string) => code.trim().toLowerCase().replace(/\s+/g, '');

/**
 * Checks a TOTP code (and uses its step) in `tx`, which holds the operator's totp row locked. Answers
 * whether it passed.
 */
async function useTotp(tx: Queryable, keys: OpsKeys, operator: OperatorRecord, code: string, nowMs: number): Promise<boolean> {
  const row = (
    await tx.query<{ secret_encrypted: string; last_used_step: string | null }>(
      'SELECT secret_encrypted, last_used_step::text AS last_used_step FROM operator_totp WHERE user_id = $1 FOR UPDATE',
      [operator.userId],
    )
  ).rows[0];
  if (!row || !isTotpCode(code)) return false;
  const opened = unsealAny(keys, row.secret_encrypted);
  const totp = totpOf(opened.plain, operator.email);
  const delta = totp.validate({ token: code, timestamp: nowMs, window: 1 });
  if (delta === null) return false;
  const step = Math.floor(nowMs / 1000 / TOTP_PERIOD) + delta;
  // A step already used (the same code again, or an older one) never passes.
  if (row.last_used_step !== null && step <= Number(row.last_used_step)) return false;
  await tx.query('UPDATE operator_totp SET last_used_step = $2 WHERE user_id = $1', [operator.userId, step]);
  // Sealed with a previous JWT secret's key (a rotation under way): sealed again with the current one.
  if (!opened.current) await tx.query('UPDATE operator_totp SET secret_encrypted = $2 WHERE user_id = $1', [operator.userId, seal(keys[0]!, opened.plain)]);
  return true;
}

/** Under the operator's code throttle: 429 while they must wait; a wrong code counts, a right one is given back. */
async function throttled<T>(db: Db, userId: string, check: () => Promise<T | null>): Promise<T> {
  const keys = [{ key: `ops:code:${userId}`, free: CODE_THROTTLE.free, maxDelaySeconds: CODE_THROTTLE.maxDelaySeconds }];
  const wait = await beginAttempt(db, keys, CODE_THROTTLE.windowSeconds);
  if (wait > 0) throw new HttpError(429, tooManySignIns(wait), wait);
  const passed = await check();
  if (passed === null) throw new HttpError(400, OPS_MESSAGES.wrongCode);
  await giveBack(db, keys.map((k) => k.key));
  return passed;
}

export interface SessionContext {
  viewerSessionId: string;
  client: string;
  userAgent: string | null;
  nowMs?: number;
}

/** The first code confirms the pending secret: ten recovery codes (shown once) and an ops session. */
export async function confirmEnrolment(db: Db, keys: OpsKeys, operator: OperatorRecord, code: string, context: SessionContext): Promise<{ recoveryCodes: string[]; session: OpsSession }> {
  const nowMs = context.nowMs ?? Date.now();
  return throttled(db, operator.userId, () =>
    db.transaction(async (tx) => {
      const pending = (await tx.query<{ confirmed: boolean }>('SELECT confirmed_at IS NOT NULL AS confirmed FROM operator_totp WHERE user_id = $1 FOR UPDATE', [operator.userId])).rows[0];
      if (!pending) throw new HttpError(409, OPS_MESSAGES.noPendingEnrolment);
      if (pending.confirmed) throw new HttpError(409, OPS_MESSAGES.alreadyEnrolled);
      if (!(await useTotp(tx, keys, operator, code.trim(), nowMs))) return null;
      await tx.query('UPDATE operator_totp SET confirmed_at = clock_timestamp() WHERE user_id = $1', [operator.userId]);
      const recoveryCodes = await newRecoveryCodes(tx, operator.userId);
      const session = await openSession(tx, operator, context, nowMs);
      return { recoveryCodes, session };
    }),
  );
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const recoveryCode = () => {
  const chars = Array.from({ length: 8 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4)}`;
};

async function newRecoveryCodes(tx: Queryable, userId: string): Promise<string[]> {
  await tx.query('DELETE FROM operator_recovery_codes WHERE user_id = $1', [userId]);
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODES) codes.add(recoveryCode());
  await tx.query('INSERT INTO operator_recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])', [userId, [...codes].map((c) => sha256(c))]);
  return [...codes];
}

/** A TOTP code or a recovery code (used once) opens an ops session. */
export async function verifyCode(db: Db, keys: OpsKeys, operator: OperatorRecord, code: string, context: SessionContext): Promise<OpsSession> {
  if (!operator.enrolled) throw new HttpError(409, OPS_MESSAGES.notEnrolled);
  const nowMs = context.nowMs ?? Date.now();
  const given = code.trim();
  return throttled(db, operator.userId, () =>
    db.transaction(async (tx) => {
      let passed: boolean;
      if (isTotpCode(given)) passed = await useTotp(tx, keys, operator, given, nowMs);
      else {
        const used = await tx.query(
          'UPDATE operator_recovery_codes SET used_at = clock_timestamp() WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING user_id',
          [operator.userId, sha256(normalRecoveryCode(given))],
        );
        passed = used.rows.length > 0;
      }
      return passed ? openSession(tx, operator, context, nowMs) : null;
    }),
  );
}

/* ------------------------------------------------------------------ sessions */

async function openSession(tx: Queryable, operator: OperatorRecord, context: SessionContext, nowMs: number): Promise<OpsSession> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date(nowMs);
  const expiresAt = new Date(nowMs + OPS_ABSOLUTE_MS);
  await tx.query(
    `INSERT INTO ops_sessions (user_id, viewer_session_id, token_hash, created_at, last_used_at, expires_at, client, user_agent)
     VALUES ($1, $2, $3, $4, $4, $5, $6, $7)`,
    [operator.userId, context.viewerSessionId, sha256(token), now, expiresAt, context.client.slice(0, 100), context.userAgent?.slice(0, 300) ?? null],
  );
  return { opsToken: token, expiresAt: new Date(Math.min(expiresAt.getTime(), nowMs + OPS_IDLE_MS)).toISOString(), operator: { email: operator.email, name: operator.name, role: operator.role } };
}

export interface OpsCaller extends OperatorRecord {
  sessionId: string;
}

/**
 * The operator an ops token belongs to: 'unknown' (no such token: the caller is nobody, a 404),
 * 'expired' (a real session that is over: idle, past 8 hours, revoked, its viewer session ended, or
 * the role gone: a 401), or the caller, whose session is used now (its idle time starts again).
 */
export async function sessionOf(db: Db, token: string, nowMs = Date.now()): Promise<OpsCaller | 'unknown' | 'expired'> {
  if (!/^[A-Za-z0-9_-]{40,60}$/.test(token)) return 'unknown';
  const now = new Date(nowMs);
  // Whether it is open is decided in the read, and only an open session is used (its idle time starts again).
  const row = (
    await db.query<{ id: string; user_id: string; open: boolean }>(
      `WITH s AS (
         SELECT o.id, o.user_id, (o.revoked_at IS NULL AND o.expires_at > $2 AND o.last_used_at > $3
           AND EXISTS (SELECT 1 FROM operator_roles r WHERE r.user_id = o.user_id)
           AND (o.viewer_session_id IS NULL OR EXISTS (SELECT 1 FROM sessions vs WHERE vs.id = o.viewer_session_id AND vs.revoked_at IS NULL))) AS open
         FROM ops_sessions o WHERE o.token_hash = $1
       ), used AS (
         UPDATE ops_sessions SET last_used_at = $2 WHERE id = (SELECT id FROM s WHERE open) RETURNING id
       )
       SELECT s.id, s.user_id, s.open FROM s`,
      [sha256(token), now, new Date(nowMs - OPS_IDLE_MS)],
    )
  ).rows[0];
  if (!row) return 'unknown';
  // Whose role is gone is nobody to the back office (a 404, as to any viewer).
  const operator = await operatorOf(db, row.user_id);
  if (!operator) return 'unknown';
  if (!row.open) return 'expired';
  return { ...operator, sessionId: row.id };
}

export async function endSession(db: Queryable, sessionId: string): Promise<void> {
  await db.query('UPDATE ops_sessions SET revoked_at = clock_timestamp() WHERE id = $1 AND revoked_at IS NULL', [sessionId]);
}

/** Ends every open ops session of the operator; answers how many. */
export async function endOperatorSessions(q: Queryable, userId: string): Promise<number> {
  const ended = await q.query('UPDATE ops_sessions SET revoked_at = clock_timestamp() WHERE user_id = $1 AND revoked_at IS NULL RETURNING id', [userId]);
  return ended.rows.length;
}

/* ------------------------------------------------------------------ roles */

export const allows = (role: OperatorRole, least: OperatorRole) => roleAtLeast(role, least);

/**
 * Grants, changes or (`none`) removes a role, with its audit entry, in one transaction. A change or a
 * removal ends the operator's ops sessions (a new role is taken with a new verification); a removal
 * also forgets their authenticator, so a role given again starts with a new enrolment.
 */
export async function grantRole(db: Db, actor: Actor, input: { email: string; role: GrantRole; reason: string; requestId?: string | null }) {
  return db.transaction(async (tx) => {
    const user = (await tx.query<{ id: string; email: string }>('SELECT id, email FROM users WHERE lower(email) = lower($1)', [input.email.trim()])).rows[0];
    if (!user) throw new HttpError(404, OPS_MESSAGES.notAViewer);
    const before = (await tx.query<{ role: OperatorRole }>('SELECT role FROM operator_roles WHERE user_id = $1 FOR UPDATE', [user.id])).rows[0]?.role ?? null;
    if (actor.userId === user.id && input.role !== 'admin' && before === 'admin') {
      const admins = (await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM operator_roles WHERE role = 'admin'`)).rows[0]!.n;
      if (admins <= 1) throw new HttpError(409, OPS_MESSAGES.lastAdmin);
    }
    if (input.role === 'none') {
      await tx.query('DELETE FROM operator_roles WHERE user_id = $1', [user.id]);
      await tx.query('DELETE FROM operator_totp WHERE user_id = $1', [user.id]);
      await tx.query('DELETE FROM operator_recovery_codes WHERE user_id = $1', [user.id]);
    } else {
      await tx.query(
        `INSERT INTO operator_roles (user_id, role, granted_by) VALUES ($1, $2, $3)
         ON CONFLICT (user_id) DO UPDATE SET role = EXCLUDED.role, granted_by = EXCLUDED.granted_by, granted_at = clock_timestamp()`,
        [user.id, input.role, actor.email],
      );
    }
    const after = input.role === 'none' ? null : input.role;
    if (before !== after && before !== null) await endOperatorSessions(tx, user.id);
    await writeAudit(tx, actor, {
      action: 'operator.grant', targetUserId: user.id, targetType: 'operator', targetId: user.id, reason: input.reason,
      before: { role: before }, after: { role: after }, requestId: input.requestId,
    });
    return { userId: user.id, email: user.email, role: after };
  });
}

/** An admin ends another operator's sessions (one audit entry). */
export async function revokeSessions(db: Db, actor: Actor, userId: string, reason: string, requestId: string | null) {
  return db.transaction(async (tx) => {
    const known = (await tx.query('SELECT 1 FROM operator_roles WHERE user_id = $1', [userId])).rows.length > 0;
    if (!known) throw new HttpError(404, OPS_MESSAGES.notAViewer);
    const revoked = await endOperatorSessions(tx, userId);
    await writeAudit(tx, actor, { action: 'operator.sessions.revoke', targetUserId: userId, targetType: 'operator', targetId: userId, reason, after: { revoked }, requestId });
    return { revoked };
  });
}

export async function listOperators(db: Db) {
  const rows = await db.query<{ user_id: string; email: string; first_name: string; last_name: string; role: OperatorRole; enrolled: boolean; granted_by: string; granted_at: Date; active: number }>(
    `SELECT r.user_id, u.email, u.first_name, u.last_name, r.role, (t.confirmed_at IS NOT NULL) AS enrolled, r.granted_by, r.granted_at,
       (SELECT count(*)::int FROM ops_sessions o WHERE o.user_id = r.user_id AND o.revoked_at IS NULL AND o.expires_at > now() AND o.last_used_at > now() - interval '15 minutes') AS active
     FROM operator_roles r JOIN users u ON u.id = r.user_id LEFT JOIN operator_totp t ON t.user_id = r.user_id
     ORDER BY r.role DESC, u.email`,
  );
  return {
    operators: rows.rows.map((r) => ({
      userId: r.user_id, email: r.email, name: `${r.first_name} ${r.last_name}`.trim(), role: r.role, enrolled: !!r.enrolled, grantedBy: r.granted_by,
      grantedAt: r.granted_at.toISOString(), activeSessions: r.active,
    })),
  };
}
