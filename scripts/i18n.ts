/**
 * `npm run i18n` (issue 20): compiles the message catalogs (messages/en.json, messages/ceb.json; the inlang
 * project in project.inlang/) into tree-shakable message functions in src/i18n/paraglide with Paraglide JS 2.
 * The output is generated, not kept in git; `npm start`, `npm test`, `npm run build` and the typecheck run
 * this first (it does nothing when the catalogs have not changed since the last compile).
 * The language is chosen by the `lang` cookie (the server reads it too), then the stored choice, then the
 * browser's preferred languages (`ceb`, `ceb-PH` → Bisaya), else English.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LANGUAGE_COOKIE, LANGUAGE_STORAGE_KEY } from '../src/i18n/languages';

const outdir = './src/i18n/paraglide';
const stampFile = join(outdir, '.catalog-hash');
const inputs = [
  ...readdirSync('messages').filter((file) => file.endsWith('.json')).sort().map((file) => join('messages', file)),
  'project.inlang/settings.json',
  'scripts/i18n.ts',
  'src/i18n/languages.ts',
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
  cookieName: LANGUAGE_COOKIE,
  localStorageKey: LANGUAGE_STORAGE_KEY,
  cookieMaxAge: 60 * 60 * 24 * 400,
  // Types come from the output's JSDoc (tsconfig allowJs): emitting .d.ts files takes half a minute.
  emitTsDeclarations: false,
  emitReadme: false,
  emitPrettierIgnore: false,
});

/**
 * A message of a one-language compile, reduced to the function it is: Paraglide's module asks the runtime
 * for the language (a call kept for its side effects) and wraps the language's function in another; with
 * one language there is nothing to ask, and the route's chunk gets `export const id = (i) => \`…\``.
 */
function singleLanguage(text: string, file: string): string {
  const body = /\nconst \w+ = \/\*\* @type \{[^{}]*\} \*\/ \((i?)\) => \{\n\treturn \/\*\* @type \{LocalizedString\} \*\/ \((.*)\)\n\};\n/s.exec(text);
  const exported = /\nexport const (\w+) = /.exec(text);
  const renamed = /\nexport \{ (\w+) as (\w+) \}/.exec(text);
  if (!body || !exported || text.match(/\nconst \w+ = /g)!.length !== 1) throw new Error(`i18n: ${file} is not a one-language message as expected; Paraglide's output changed`);
  return `/* eslint-disable */\nexport const ${exported[1]} = (${body[1]}) => ${body[2]};\n${renamed ? `export { ${renamed[1]} as ${renamed[2]} };\n` : ''}`;
}

// A build is made per language (vite.config.ts): its messages come from a compile of that language alone,
// so a route's chunk carries only its own words in its own language and no language-choosing runtime.
const settings = JSON.parse(readFileSync('project.inlang/settings.json', 'utf8')) as { locales: string[]; modules: string[] };
for (const locale of settings.locales) {
  const project = join('node_modules', `.i18n-${process.pid}`, `${locale}.inlang`); // per process: worktrees may share node_modules
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'settings.json'), JSON.stringify({
    ...settings,
    baseLocale: locale,
    locales: [locale],
    modules: settings.modules.map((module) => resolve(module)),
    'plugin.inlang.messageFormat': { pathPattern: resolve('messages/{locale}.json') },
  }));
  const out = join('src/i18n/static', locale);
  await compile({ project, outdir: out, strategy: ['baseLocale'], emitReadme: false, emitPrettierIgnore: false });
  // Each message still asks the runtime for the language (a call kept for its side effects); with one
  // language there is nothing to ask, so the call and the runtime import go.
  const dir = join(out, 'messages');
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.js') && !name.startsWith('_index'))) {
    writeFileSync(join(dir, file), singleLanguage(readFileSync(join(dir, file), 'utf8'), join(dir, file)));
  }
}
rmSync(join('node_modules', `.i18n-${process.pid}`), { recursive: true, force: true });
writeFileSync(stampFile, stamp);
console.info(`i18n: compiled ${inputs.filter((file) => file.startsWith('messages')).join(', ')} into ${outdir}`);
// The inlang project keeps handles open after compiling; this script has nothing left to do.
process.exit(0);
