/**
 * The server's words in the viewer's language (issue 20). The API and the emails are written in English,
 * the product spec's words; each answer and each email is put into the viewer's language on its way out,
 * from the same catalogs the app compiles (messages/<locale>.json): an English text that is a catalog
 * message becomes that message in the other language, and one built from a message with placeholders
 * ("Please wait 42 seconds before requesting a new code.") is recognised by its template and rebuilt
 * with the same values, each value that is itself a sentence of the catalogs put into the language too. Anything
 * the catalogs do not know (a gateway's own words) goes out as it came.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES, type Language } from './language';

type Catalog = Record<string, string>;

const root = join(import.meta.dirname, '..', '..');
const readCatalog = (language: Language): Catalog => {
  const { $schema: _schema, ...messages } = JSON.parse(readFileSync(join(root, 'messages', `${language}.json`), 'utf8')) as Catalog;
  return messages;
};

interface Template {
  pattern: RegExp;
  names: string[];
  id: string;
}

const PLACEHOLDER = /\{(\w+)\}/g;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function templateOf(id: string, english: string): Template | null {
  const names = [...english.matchAll(PLACEHOLDER)].map((match) => match[1]!);
  if (names.length === 0) return null;
  const parts = english.split(PLACEHOLDER);
  // split with a capture group alternates text and names: text, name, text, name, text
  const source = parts.map((part, index) => (index % 2 === 0 ? escapeRegExp(part) : '([\\s\\S]+?)')).join('');
  return { pattern: new RegExp(`^${source}$`), names, id };
}

const english = readCatalog('en');
const byText = new Map<string, string>();
for (const [id, text] of Object.entries(english)) if (!PLACEHOLDER.test(text) && !byText.has(text)) byText.set(text, id);
PLACEHOLDER.lastIndex = 0;
// Longer templates first: the most specific one wins when two could match.
const templates = Object.entries(english)
  .map(([id, text]) => templateOf(id, text))
  .filter((template): template is Template => template !== null)
  .sort((a, b) => b.pattern.source.length - a.pattern.source.length);
const catalogs = new Map<Language, Catalog>(LANGUAGES.filter((l) => l !== 'en').map((l) => [l, readCatalog(l)]));

/** Catalog texts every language writes alike ('OK', brand names): answering them needs no language. */
const alike = new Set([...byText].filter(([, id]) => [...catalogs.values()].every((catalog) => catalog[id] === english[id])).map(([text]) => text));
export const readsAlikeEverywhere = (text: string): boolean => alike.has(text);

const fill = (text: string, values: Record<string, string>) => text.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole);

/** An English text of ours in `language` (unchanged in English, or when the catalogs do not know it). */
export function translate(text: string, language: Language, depth = 0): string {
  const catalog = catalogs.get(language);
  if (!catalog || !text) return text;
  const id = byText.get(text);
  if (id) return catalog[id] ?? text;
  if (depth > 2 || text.length > 2000) return text;
  for (const template of templates) {
    const match = template.pattern.exec(text);
    if (!match) continue;
    const values: Record<string, string> = {};
    // A value that is a sentence of ours is put into the language too; a single word (a plan's name, a
    // code, a date) is data and stays as the app shows it elsewhere.
    template.names.forEach((name, index) => {
      const value = match[index + 1]!;
      values[name] = /\s/.test(value.trim()) ? translate(value, language, depth + 1) : value;
    });
    const target = catalog[template.id];
    return target ? fill(target, values) : text;
  }
  return text;
}
