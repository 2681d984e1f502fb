/**
 * `npm run i18n` (issue 20): compiles the message catalogs (messages/en.json, messages/ceb.json; the inlang
 * project in project.inlang/) into tree-shakable message functions in src/i18n/paraglide with Paraglide JS 2.
 * The output is generated, not kept in git; `npm start`, `npm test`, `npm run build` and the typecheck run
 * this first (it does nothing when the catalogs have not changed since the last compile).
 * The language is chosen by the `lang` cookie (the server reads it too), then the stored choice, then the
 * browser's preferred languages (`ceb`, `ceb-PH` → Bisaya), else English.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const outdir = './src/i18n/paraglide';
const stampFile = join(outdir, '.catalog-hash');
const inputs = [
  ...readdirSync('messages').filter((file) => file.endsWith('.json')).sort().map((file) => join('messages', file)),
  'project.inlang/settings.json',
  'scripts/i18n.ts',
  'package-lock.json',
];
const hash = createHash('sha256');
for (const file of inputs) hash.update(file).update(readFileSync(file));
const stamp = hash.digest('hex');

if (!process.argv.includes('--force') && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) process.exit(0);

const { compile } = await import('@inlang/paraglide-js');
await compile({
  project: './project.inlang',
  outdir,
  strategy: ['cookie', 'localStorage', 'preferredLanguage', 'baseLocale'],
  cookieName: 'lang',
  localStorageKey: 'language',
  cookieMaxAge: 60 * 60 * 24 * 400,
  // Types come from the output's JSDoc (tsconfig allowJs): emitting .d.ts files takes half a minute.
  emitTsDeclarations: false,
  emitReadme: false,
  emitPrettierIgnore: false,
});
writeFileSync(stampFile, stamp);
console.info(`i18n: compiled ${inputs.filter((file) => file.startsWith('messages')).join(', ')} into ${outdir}`);
// The inlang project keeps handles open after compiling; this script has nothing left to do.
process.exit(0);
