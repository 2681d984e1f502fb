/**
 * `npm run i18n:review` (issue 20): writes docs/i18n/review.md, every message side by side (id | English |
 * Bisaya | where it appears) so a native speaker can review the whole product in one sitting. "Where" is
 * found in the code: the app's files that call the message (`m.<id>`), and the server's (and the contract's)
 * files that write its English (the server's words are put into the viewer's language on the way out, translate.ts).
 * `--check` exits 1 when the file is not what the catalogs and the code give (test/lib/catalogs.test.ts).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const OUT = join(root, 'docs/i18n/review.md');

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'i18n' && dir.endsWith('src')) continue; // the compiled catalogs themselves
    if (statSync(path).isDirectory()) files(path, out);
    else if (/\.(ts|tsx)$/.test(name)) out.push(path);
  }
  return out;
}

const catalog = (locale: string) => {
  const { $schema: _schema, ...messages } = JSON.parse(readFileSync(join(root, 'messages', `${locale}.json`), 'utf8')) as Record<string, string>;
  return messages;
};

export function review(): string {
  const en = catalog('en');
  const ceb = catalog('ceb');
  const sources = [...files(join(root, 'src')), ...files(join(root, 'server'))].map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }));
  const escape = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const rows = Object.keys(en).sort().map((id) => {
    const call = new RegExp(`\\bm\\.${id}\\b`);
    // The server writes the English itself: its longest fixed piece, if long enough to be telling.
    const piece = en[id]!.split(/\{\w+\}/).sort((a, b) => b.length - a.length)[0]!.trim();
    const where = sources
      .filter(({ path, text }) => call.test(text) || (/^(server|src\/api)\//.test(path) && piece.length >= 12 && text.includes(piece)))
      .map(({ path }) => path);
    return `| \`${id}\` | ${escape(en[id]!)} | ${escape(ceb[id] ?? '')} | ${where.length ? where.join(', ') : '(not used yet)'} |`;
  });
  return [
    '# Every message, side by side',
    '',
    'For a native speaker\'s review of the whole product in one sitting (issue 20). The catalogs are `messages/en.json`',
    '(English, the spec\'s words letter for letter) and `messages/ceb.json` (Bisaya); the terms are fixed in',
    '[glossary.md](glossary.md). Written by `npm run i18n:review` from the catalogs and the code; do not edit by hand.',
    '',
    '| id | English | Bisaya | where |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = review();
  if (process.argv.includes('--check')) {
    const same = readFileSync(OUT, 'utf8') === text;
    if (!same) console.error('docs/i18n/review.md is not up to date: run `npm run i18n:review`.');
    process.exit(same ? 0 : 1);
  }
  writeFileSync(OUT, text);
  console.info(`docs/i18n/review.md: ${text.split('\n').filter((line) => line.startsWith('| `')).length} messages`);
}
