/**
 * Webhook signatures between the gateway and the reference API.
 *
 * Maya itself sends `X-Maya-Webhook-Signature: nonce=<hex>,v1=<signature>` and a timestamp header, and
 * signs with RSA-SHA256 (Maya keeps the private key, merchants get the public one); Maya also asks
 * merchants to accept webhooks only from its published IP addresses. The local sandbox keeps the same
 * headers but signs with HMAC-SHA256 and a secret shared with the API (MAYA_WEBHOOK_SECRET), over
 * `<timestamp>.<nonce>.<raw body>`. Whatever the signature says, the API never trusts a webhook's
 * status: it asks the gateway for the payment and applies what the gateway answers.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Maya-Webhook-Signature';
export const TIMESTAMP_HEADER = 'X-Maya-Webhook-Timestamp';
/** A signature older or newer than this is refused (replays of old deliveries). */
export const WEBHOOK_TOLERANCE_S = 300;

const mac = (secret: string, timestamp: string, nonce: string, body: string) =>
  createHmac('sha256', secret).update(`${timestamp}.${nonce}.${body}`).digest('hex');

export function signWebhook(secret: string, body: string, nowMs = Date.now()): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  const nonce = randomBytes(16).toString('hex');
  return { [SIGNATURE_HEADER]: `nonce=${nonce},v1=${mac(secret, timestamp, nonce, body)}`, [TIMESTAMP_HEADER]: timestamp };
}

export function verifyWebhook(secret: string, body: string, signature: string | undefined, timestamp: string | undefined, nowMs = Date.now()): boolean {
  if (!signature || !timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > WEBHOOK_TOLERANCE_S) return false;
  const parts = Object.fromEntries(
    signature.split(',').map((part) => {
      const at = part.indexOf('=');
      return at < 0 ? [part.trim(), ''] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    }),
  );
  const nonce = parts.nonce;
  const given = parts.v1;
  if (!nonce || !given || !/^[0-9a-f]{64}$/.test(given)) return false;
  const expected = Buffer.from(mac(secret, timestamp, nonce, body), 'hex');
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}
