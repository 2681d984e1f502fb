/**
 * Signed-in devices (issue 36, product.md#devices): the account's live sessions with the device each was
 * opened on, and signing one or all others out. A session is live while it is not ended and its tokens
 * were issued within the access token's lifetime (12 h: there is no longer-lived token to revive it).
 *
 * The device is read from the User-Agent with ua-parser-js 1.x (MIT; 2.x is AGPL). The place is only
 * ever what a proxy named in TRUST_PROXY says (Cloudflare's CF-IPCountry): there is no geo database
 * here, and a header anyone else sends is ignored.
 */
import type { Context } from 'hono';
import UAParser from 'ua-parser-js';
import type { SignedInDevice } from '../../src/api/schemas';
import { clientAddress, socketAddress } from '../platform/client';
import type { TrustedProxies } from '../platform/proxies';
import type { Db } from '../platform/db';
import { ACCESS_TOKEN_TTL_MS, type DeviceInfo, type Tokens } from './tokens';

export const DEVICE_MESSAGES = {
  signedOut: 'Signed out of that device',
  signedOutOthers: 'Signed out of every other device',
  notFound: 'This device is already signed out.',
};

/** A country code a trusted proxy wrote (two letters; Cloudflare's XX and T1 mean none), else null. */
export function placeOf(c: Context, proxies: TrustedProxies | undefined): string | null {
  if (!proxies?.entries.length || !proxies.has(socketAddress(c))) return null;
  const country = (c.req.header('CF-IPCountry') ?? '').trim().toUpperCase();
  return /^[A-Z]{2}$/.test(country) && country !== 'XX' ? country : null;
}

/** The device a request comes from, for a new session. */
export function deviceOf(c: Context, proxies: TrustedProxies | undefined): DeviceInfo {
  return { userAgent: c.req.header('User-Agent') ?? null, clientAddress: clientAddress(c), place: placeOf(c, proxies) };
}

const joined = (...parts: Array<string | undefined>) => parts.filter(Boolean).join(' ') || null;

/** Browser, system and device as words (each null when the User-Agent does not say). */
export function describeUserAgent(userAgent: string | null): Pick<SignedInDevice, 'browser' | 'os' | 'device' | 'deviceType'> {
  if (!userAgent) return { browser: null, os: null, device: null, deviceType: 'other' };
  const result = new UAParser(userAgent).getResult();
  const type = result.device.type;
  const deviceType = type === 'mobile' || type === 'tablet' ? type : type === undefined && result.os.name ? 'desktop' : 'other';
  return {
    browser: joined(result.browser.name, result.browser.major),
    os: joined(result.os.name, result.os.version),
    device: joined(result.device.vendor, result.device.model),
    deviceType,
  };
}

interface SessionRow {
  id: string;
  user_agent: string | null;
  place: string | null;
  created_at: Date;
  last_used_at: Date | null;
}

/** The account's live sessions, the one in use first, then by last use. */
export async function listDevices(db: Db, userId: string, currentSession: string): Promise<SignedInDevice[]> {
  const rows = await db.query<SessionRow>(
    `SELECT id, user_agent, place, created_at, last_used_at FROM sessions
     WHERE user_id = $1 AND revoked_at IS NULL AND coalesce(tokens_issued_at, created_at) > now() - make_interval(secs => $2)
     ORDER BY id = $3 DESC, coalesce(last_used_at, created_at) DESC, id`,
    [userId, ACCESS_TOKEN_TTL_MS / 1000, currentSession],
  );
  return rows.rows.map((row) => ({
    id: row.id,
    current: row.id === currentSession,
    ...describeUserAgent(row.user_agent),
    place: row.place,
    signedInAt: row.created_at.toISOString(),
    lastUsedAt: (row.last_used_at ?? row.created_at).toISOString(),
  }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ends one of the account's sessions; false when it is not one of its open sessions. */
export async function signOutDevice(tokens: Tokens, userId: string, sessionId: string): Promise<boolean> {
  if (!UUID.test(sessionId)) return false;
  return tokens.endSession(userId, sessionId);
}

/** Ends every open session of the account but `keep`; answers how many. */
export async function signOutOthers(db: Db, tokens: Tokens, userId: string, keep: string): Promise<number> {
  const others = await db.query<{ id: string }>('SELECT id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL AND id <> $2', [userId, keep]);
  let ended = 0;
  for (const { id } of others.rows) if (await tokens.endSession(userId, id)) ended++;
  return ended;
}
