/** Access tokens are signed JWTs (jose, HS256); refresh tokens are opaque, stored hashed, rotated. */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jwtVerify, SignJWT } from 'jose';
import type { Db } from './db';

export const ACCESS_TOKEN_TTL = '12h';
const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const ISSUER = 'sine-bisaya';

/** JWT_SECRET wins; otherwise a secret kept beside the data (or a fresh one for :memory:). */
export function loadSecret(dataDir: string, env = process.env): Uint8Array {
  if (env.JWT_SECRET && env.JWT_SECRET.length >= 32) return new TextEncoder().encode(env.JWT_SECRET);
  if (dataDir === ':memory:') return randomBytes(32);
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'jwt-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  return Buffer.from(readFileSync(file, 'utf8'), 'base64');
}

export function createTokens(db: Db, secret: Uint8Array) {
  return {
    async issue(userId: string) {
      const accessToken = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(ACCESS_TOKEN_TTL)
        .sign(secret);
      const refreshToken = randomBytes(32).toString('base64url');
      await db.query('INSERT INTO refresh_tokens (token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [
        sha256(refreshToken), userId, new Date(Date.now() + REFRESH_TTL_MS),
      ]);
      return { accessToken, refreshToken };
    },
    /** The user id of a valid access token, or null. */
    async verify(token: string): Promise<string | null> {
      try {
        const { payload } = await jwtVerify(token, secret, { issuer: ISSUER, algorithms: ['HS256'] });
        return typeof payload.sub === 'string' ? payload.sub : null;
      } catch {
        return null;
      }
    },
  };
}

export type Tokens = ReturnType<typeof createTokens>;

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
