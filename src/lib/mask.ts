/**
 * Hides secrets before anything leaves the app for inspection or logs: passwords, one-time codes,
 * tokens and card data are replaced, whatever object they sit in.
 */
export const MASK = '••••••';

const SECRET_KEY = /pass(word)?|otp|code|token|secret|cvc|cvv|card(number)?$|^number$|pan$|authorization/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

export function maskSecrets<T>(value: T, seen = new WeakSet<object>()): T {
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, seen)) as T;
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return value;
  seen.add(value);
  // Actor references and class instances are passed through: only plain data is walked.
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const secretValue = isSecretKey(key) && item !== null && item !== undefined && item !== '' && typeof item !== 'object';
    // A list of secrets under a secret's name (an operator's recovery codes): each one hidden.
    const secretList = isSecretKey(key) && Array.isArray(item);
    out[key] = secretValue ? MASK : secretList ? item.map((entry: unknown) => (entry !== null && typeof entry === 'object' ? maskSecrets(entry, seen) : MASK)) : maskSecrets(item, seen);
  }
  return out as T;
}
