/**
 * Webhook signatures as Maya documents them (developers.maya.ph "Webhook security", Signature
 * Version 1; the exact string comes from Maya's own WooCommerce plugin, the only public source of it):
 * - `X-Maya-Webhook-Timestamp`: epoch milliseconds; a delivery more than 5 minutes off is refused;
 * - `X-Maya-Webhook-Signature: nonce=<hex>,v1=<hex>`: RSA-SHA256 (PKCS#1 v1.5), by Maya's private key,
 *   over the JSON body flattened to `dotted.key=value` pairs (null, '', [] and {} left out, booleans
 *   as true/false), sorted, joined with `&`, then `&nonce=<nonce>`;
 * - accepted when any of the environment's public keys verifies it (Maya publishes two per
 *   environment), and, where an allow-list is set, only from Maya's webhook addresses.
 * The local sandbox signs the same way with its own key pair. Whatever the signature says, the API
 * never trusts a webhook's status: it asks the gateway for the payment and applies what it answers.
 */
import { createPrivateKey, createPublicKey, createSign, createVerify, randomBytes, type KeyObject } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Maya-Webhook-Signature';
export const TIMESTAMP_HEADER = 'X-Maya-Webhook-Timestamp';
/** A delivery stamped further than this from now is refused (replays of old deliveries). */
export const WEBHOOK_TOLERANCE_MS = 5 * 60 * 1000;

function flatten(value: unknown, prefix: string, out: string[]): void {
  if (value === null || value === undefined || value === '') return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => flatten(item, prefix ? `${prefix}.${i}` : String(i), out));
    return;
  }
  if (typeof value === 'object') {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) flatten(item, prefix ? `${prefix}.${key}` : key, out);
    return;
  }
  out.push(`${prefix}=${typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value)}`);
}

/** The string Maya signs: the body's flattened pairs, sorted by code unit, joined, then the nonce. */
export function signedString(body: unknown, nonce: string): string {
  const pairs: string[] = [];
  flatten(body, '', pairs);
  pairs.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `${pairs.join('&')}&nonce=${nonce}`;
}

/** Signs a delivery as Maya does (the local sandbox uses it with its own private key). */
export function signWebhook(privateKey: KeyObject | string, rawBody: string, nowMs = Date.now()): Record<string, string> {
  const nonce = randomBytes(16).toString('hex');
  const signature = createSign('sha256').update(signedString(JSON.parse(rawBody), nonce)).sign(keyObject(privateKey, 'private'), 'hex');
  return { [SIGNATURE_HEADER]: `nonce=${nonce},v1=${signature}`, [TIMESTAMP_HEADER]: String(nowMs) };
}

export interface WebhookCheck {
  /** Maya's public keys for the environment (PEM); any one of them may have signed. */
  publicKeys: ReadonlyArray<KeyObject | string>;
  /** Maya's webhook source addresses; empty: any address (the local sandbox). */
  allowedIps: readonly string[];
}

/**
 * A key given as PEM is read once and kept: reading PEM (ASN.1) costs more than the signature itself,
 * and every webhook is signed (sandbox) and verified (API).
 */
const keyObjects = new Map<string, KeyObject>();
function keyObject(key: KeyObject | string, kind: 'private' | 'public'): KeyObject {
  if (typeof key !== 'string') return key;
  let made = keyObjects.get(key);
  if (!made) {
    made = kind === 'private' ? createPrivateKey(key) : createPublicKey(key);
    keyObjects.set(key, made);
  }
  return made;
}

/** True for a delivery Maya signed, recently, from an allowed address. */
export function verifyWebhook(
  check: WebhookCheck,
  rawBody: string,
  headers: { signature: string | undefined; timestamp: string | undefined; clientIp: string | null },
  nowMs = Date.now(),
): boolean {
  if (check.allowedIps.length && !(headers.clientIp && check.allowedIps.includes(headers.clientIp))) return false;
  const { signature, timestamp } = headers;
  if (!signature || !timestamp || !/^\d{1,15}$/.test(timestamp)) return false;
  if (Math.abs(nowMs - Number(timestamp)) > WEBHOOK_TOLERANCE_MS) return false;
  const parts = Object.fromEntries(
    signature.split(',').map((part) => {
      const at = part.indexOf('=');
      return at < 0 ? [part.trim(), ''] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    }),
  );
  const nonce = parts.nonce;
  const given = parts.v1;
  if (!nonce || !given || !/^[0-9a-f]+$/i.test(given) || given.length > 2048) return false;
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return false;
  }
  const text = signedString(body, nonce);
  return check.publicKeys.some((key) => {
    try {
      return createVerify('sha256').update(text).verify(keyObject(key, 'public'), given, 'hex');
    } catch {
      return false;
    }
  });
}
