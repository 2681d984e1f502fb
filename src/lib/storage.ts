/** The browser keys of product.md#storage-keys, read and written in one place. */
export const STORAGE_KEYS = {
  token: 'token',
  user: 'user',
  theme: 'theme',
  welcomeBack: 'welcomeBack',
} as const;

function store(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null; // storage blocked (private mode, policy): the app still runs, just forgets
  }
}

export function readItem(key: string): string | null {
  try {
    return store()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(key: string, value: string): void {
  try {
    store()?.setItem(key, value);
  } catch {
    /* quota or policy: nothing to do */
  }
}

export function removeItem(key: string): void {
  try {
    store()?.removeItem(key);
  } catch {
    /* ignore */
  }
}
