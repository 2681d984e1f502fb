/**
 * `npm run i18n:review` (issue 20): writes docs/i18n/review.md, every message side by side (id | English |
 * Bisaya | where it appears) so a native speaker can review the whole product in one sitting. "Where" is
 * found in the code: the app's files that call the message (`m.<id>`), and the server's (and the contract's)
 * files that write its English (the server's words are put into the viewer's language on the way out, translate.ts).
 *
 * Since the native review (issue 37) the file also says which messages the next reader needs to read: each
 * message whose English or Bisaya differs from the catalogs as the native reviewer read them
 * (docs/i18n/reviewed/, kept as they were), or that is new since then, is marked, counted and listed at the
 * top with its words before and now. The marking is computed from the catalogs, never written by hand.
 * `--check` exits 1 when the file is not what the catalogs and the code give (test/lib/catalogs.test.ts).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const OUT = join(root, 'docs/i18n/review.md');
/** The catalogs as the native reviewer read them (docs/i18n/reviewed/README.md). */
const REVIEWED = 'docs/i18n/reviewed';

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'i18n' && dir.endsWith('src')) continue; // the compiled catalogs themselves
    if (statSync(path).isDirectory()) files(path, out);
    else if (/\.(ts|tsx)$/.test(name)) out.push(path);
  }
  return out;
}

const read = (path: string) => {
  const { $schema: _schema, ...messages } = JSON.parse(readFileSync(join(root, path), 'utf8')) as Record<string, string>;
  return messages;
};
const catalog = (locale: string) => read(join('messages', `${locale}.json`));

/** What changed in a message since the review: new, or which of its two sides differs; null when neither. */
export type Change = 'new' | 'Bisaya' | 'English' | 'both';

export function changes(): Map<string, Change> {
  const en = catalog('en');
  const ceb = catalog('ceb');
  const before = { en: read(join(REVIEWED, 'en.json')), ceb: read(join(REVIEWED, 'ceb.json')) };
  const out = new Map<string, Change>();
  for (const id of Object.keys(en).sort()) {
    if (!(id in before.en) || !(id in before.ceb)) out.set(id, 'new');
    else {
      const english = before.en[id] !== en[id];
      const bisaya = before.ceb[id] !== ceb[id];
      if (english || bisaya) out.set(id, english && bisaya ? 'both' : english ? 'English' : 'Bisaya');
    }
  }
  return out;
}

export function review(): string {
  const en = catalog('en');
  const ceb = catalog('ceb');
  const before = { en: read(join(REVIEWED, 'en.json')), ceb: read(join(REVIEWED, 'ceb.json')) };
  const changed = changes();
  const sources = [...files(join(root, 'src')), ...files(join(root, 'server'))].map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }));
  const escape = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const ids = Object.keys(en).sort();
  const rows = ids.map((id) => {
    const call = new RegExp(`\\bm\\.${id}\\b`);
    // The server writes the English itself: its longest fixed piece, if long enough to be telling.
    const piece = en[id]!.split(/\{\w+\}/).sort((a, b) => b.length - a.length)[0]!.trim();
    const where = sources
      .filter(({ path, text }) => call.test(text) || (/^(server|src\/api)\//.test(path) && piece.length >= 12 && text.includes(piece)))
      .map(({ path }) => path);
    const change = changed.get(id);
    return `| ${change ? `● ${change}` : ''} | \`${id}\` | ${escape(en[id]!)} | ${escape(ceb[id] ?? '')} | ${where.length ? where.join(', ') : '(not used yet)'} |`;
  });
  const of = (kind: Change) => ids.filter((id) => changed.get(id) === kind);
  const list = (kind: Change, label: string) => {
    const some = of(kind);
    return some.length ? [`- ${label} (${some.length}): ${some.map((id) => `\`${id}\``).join(', ')}`] : [];
  };
  // Before and now, side by side, for each changed message (a new one has no before).
  const sides = (id: string) => {
    const change = changed.get(id)!;
    const out: string[] = [];
    if (change === 'new') out.push(`| \`${id}\` | new | | ${escape(en[id]!)} / ${escape(ceb[id] ?? '')} |`);
    if (change === 'English' || change === 'both') out.push(`| \`${id}\` | English | ${escape(before.en[id]!)} | ${escape(en[id]!)} |`);
    if (change === 'Bisaya' || change === 'both') out.push(`| \`${id}\` | Bisaya | ${escape(before.ceb[id]!)} | ${escape(ceb[id] ?? '')} |`);
    return out;
  };
  const reviewedCount = Object.keys(before.en).length;
  return [
    '# Every message, side by side',
    '',
    'For a native speaker\'s review of the whole product in one sitting (issue 20). The catalogs are `messages/en.json`',
    '(English, the spec\'s words letter for letter) and `messages/ceb.json` (Bisaya); the terms are fixed in',
    '[glossary.md](glossary.md). Written by `npm run i18n:review` from the catalogs and the code; do not edit by hand.',
    '',
    '## Read only these: changed since the native review',
    '',
    `**${changed.size} of ${ids.length} messages** are new or changed since the native review read the catalogs`,
    `(${reviewedCount} messages, kept as they were in [reviewed/](reviewed/README.md)); they are marked ● in the table below.`,
    'A message counts as changed when its English or its Bisaya differs from what the reviewer read.',
    '',
    ...list('new', 'New since the review'),
    ...list('Bisaya', 'Bisaya changed'),
    ...list('English', 'English changed'),
    ...list('both', 'English and Bisaya changed'),
    '',
    '| id | side | before (as reviewed) | now |',
    '|---|---|---|---|',
    ...ids.filter((id) => changed.has(id)).flatMap(sides),
    '',
    '## Every message',
    '',
    '| since review | id | English | Bisaya | where |',
    '|---|---|---|---|---|',
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
  const changed = changes();
  console.info(`docs/i18n/review.md: ${text.split('\n').filter((line) => /^\| (● \w+)? \| `/.test(line)).length} messages, ${changed.size} new or changed since the native review`);
}
