/**
 * The product's languages (issue 20): English (the spec's words, letter for letter) and Bisaya (`ceb`).
 * Messages are compiled by Paraglide JS 2 (scripts/i18n.ts) from messages/<locale>.json into one function
 * per message. `vite build` makes one build per language (vite.config.ts): there `m` is that language's
 * compile alone, so a route's chunk carries only its own messages, in one language, and no runtime that
 * chooses. In tests, the dev server and the API the language is read at each call (Paraglide's runtime:
 * the `lang` cookie, then local storage, then the browser's languages, else English).
 * A view calls `m.some_id()` while rendering, never at module load.
 */
import { LANGUAGE_COOKIE, LANGUAGE_STORAGE_KEY, LANGUAGES, type Language } from './languages';
import { getLocale, type Locale } from './paraglide/runtime.js';

export { m } from './paraglide/messages.js';
export { locales, overwriteGetLocale, type Locale } from './paraglide/runtime.js';

declare const __SB_LOCALE__: Locale | undefined;
/** The language a per-language build was made for (vite.config.ts defines it), else none. */
const BUILD_LOCALE: Locale | undefined = typeof __SB_LOCALE__ === 'undefined' ? undefined : __SB_LOCALE__;

/** The language in use. */
export function currentLocale(): Locale {
  return BUILD_LOCALE ?? getLocale();
}

/** Each language named in itself, as a chooser shows it. */
export const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', ceb: 'Bisaya' };

const YEAR = 60 * 60 * 24 * 365;

/** `Intl` locale for dates and money (Chromium and Node know `ceb`: "Martes, Nobyembre 24, 2026"). */
export function intlLocale(locale: Locale = currentLocale()): string {
  return locale === 'ceb' ? 'ceb-PH' : 'en-PH';
}

/**
 * Chooses a language: remembered in local storage and in the `lang` cookie (the server serves the pages
 * and its messages in it), stored on a signed-in viewer's account by `save` (the server's own emails are
 * written in it; a failure there does not stop the choice), then the page loads again in it.
 */
export async function chooseLanguage(locale: Locale, save?: () => Promise<unknown>): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, locale);
  } catch { /* storage blocked: the cookie still carries the choice */ }
  document.cookie = `${LANGUAGE_COOKIE}=${locale}; path=/; max-age=${YEAR}; samesite=lax`;
  await save?.().catch(() => undefined);
  // The server serves a language by the cookie: where cookies are refused, a reload would change nothing
  // (and at start-up it would reload forever).
  if (locale !== currentLocale() && cookieLanguage() === locale) window.location.reload();
}

/**
 * At start: `<html lang>` follows the language in use; a choice kept in local storage whose cookie was
 * cleared is written again (and the page loads in it).
 */
export function applyDocumentLanguage(): void {
  document.documentElement.lang = currentLocale();
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch { /* storage blocked */ }
  if (cookieLanguage() === null && LANGUAGES.includes(stored as Language)) void chooseLanguage(stored as Language);
}

/** The language the `lang` cookie holds, if any. */
function cookieLanguage(): string | null {
  const pair = document.cookie.split(';').map((part) => part.trim()).find((part) => part.startsWith(`${LANGUAGE_COOKIE}=`));
  return pair ? pair.slice(LANGUAGE_COOKIE.length + 1) : null;
}
