/**
 * The viewer's language for a request (issue 20): the `lang` cookie the app writes when a language is
 * chosen (src/i18n), else the first language of `Accept-Language` we have (`ceb`, `ceb-PH` → Bisaya),
 * else English. The same order the app follows in the browser, so a prerendered page served in one
 * language is the page the app then takes over in that language.
 */
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { LANGUAGE_COOKIE, LANGUAGES, type Language } from '../../src/i18n/languages';

export { LANGUAGES, type Language } from '../../src/i18n/languages';

const isLanguage = (value: string | undefined): value is Language => (LANGUAGES as readonly string[]).includes(value ?? '');

/** The first language of an Accept-Language header we have, by preference (q) then order. */
export function fromAcceptLanguage(header: string | undefined): Language | null {
  if (!header) return null;
  const ranges = header.split(',').slice(0, 20).map((part, index) => {
    const [tag = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return { tag: tag.trim().toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1, index };
  });
  ranges.sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag, q } of ranges) {
    if (q <= 0) continue;
    const base = tag.split('-')[0];
    if (isLanguage(base)) return base;
  }
  return null;
}

export function requestLanguage(c: Context): Language {
  const chosen = getCookie(c, LANGUAGE_COOKIE);
  if (isLanguage(chosen)) return chosen;
  return fromAcceptLanguage(c.req.header('Accept-Language')) ?? 'en';
}
