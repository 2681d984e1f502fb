/**
 * The message catalogs (issue 20): every message exists in both languages, with the same placeholders,
 * never empty; ids are what Paraglide compiles into function names.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { review } from '../../scripts/i18n-review';

const root = join(import.meta.dirname, '../..');
const settings = JSON.parse(readFileSync(join(root, 'project.inlang/settings.json'), 'utf8')) as { baseLocale: string; locales: string[] };
const catalog = (locale: string) => {
  const { $schema: _schema, ...messages } = JSON.parse(readFileSync(join(root, 'messages', `${locale}.json`), 'utf8')) as Record<string, string>;
  return messages;
};
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('message catalogs', () => {
  const base = catalog(settings.baseLocale);

  it('are English and Bisaya, English the base', () => {
    expect(settings.baseLocale).toBe('en');
    expect(settings.locales).toEqual(['en', 'ceb']);
    expect(Object.keys(base).length).toBeGreaterThan(500);
  });

  it.each(settings.locales.filter((locale) => locale !== settings.baseLocale))('%s has every message, with the same placeholders', (locale) => {
    const other = catalog(locale);
    expect(Object.keys(other).sort()).toEqual(Object.keys(base).sort());
    for (const [id, english] of Object.entries(base)) {
      expect(other[id]!.trim(), id).not.toBe('');
      expect(placeholders(other[id]!), id).toEqual(placeholders(english));
    }
  });

  it('names each message with an id Paraglide can compile', () => {
    const reserved = new Set(["break", "case", "catch", "class", "const", "continue", "default", "delete", "do", "else", "export", "extends", "finally", "for", "function", "if", "import", "in", "new", "return", "super", "switch", "this", "throw", "try", "typeof", "var", "void", "while", "with", "yield", "let", "static", "enum", "await", "null", "true", "false"]);
    for (const id of Object.keys(base)) {
      expect(id).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(reserved.has(id), `${id} is a reserved word`).toBe(false);
    }
  });

  it('are listed side by side in docs/i18n/review.md, as the catalogs and the code now are (npm run i18n:review)', () => {
    expect(readFileSync(join(root, 'docs/i18n/review.md'), 'utf8')).toBe(review());
  });
});
