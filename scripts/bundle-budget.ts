/**
 * Bundle budgets (issue 10), from Vite's manifest after `npm run build`; prints every route and exits
 * non-zero above either budget.
 * - landing (`/`): the entry chunk and its static imports, gzipped ≤ 93 KB (1.4× bare React 19).
 * - every other route (each lazy page the entry imports, src/views/pages/*.tsx): the landing's JS plus
 *   the page's chunk, everything it imports statically and its own lazy parts, gzipped ≤ 150 KB.
 * Chunks any route loads later on demand (the toast area on a first notification, the account menu
 * when signed in, the common-password list once a new-password form is in use) are printed apart,
 * not added. So are a page's own lazy parts that it loads only when a person asks for them (WHEN_ASKED:
 * never when idle, only on the opener's pointer, focus or press); its other lazy parts (loaded when
 * idle) count. The dev-only inspector (?inspect) is not counted.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Issue 10's budgets: CI fails above either. */
export const LANDING_BUDGET_KB = 93;
export const ROUTE_BUDGET_KB = 150;

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** Lazy imports of the entry that are not pages (the dev-only inspector is not one a viewer loads). */
const DEV_ONLY = /@statelyai\/inspect|src\/lib\/inspector/;
const PAGE = /^src\/views\/pages\/(\w+)\.tsx$/;
/**
 * A page's lazy parts it loads only when a person asks for them, never when idle (test/lib/bundle-budget
 * checks that no source loads them with useLoadedWhenIdle): the subscription page's cancel / reactivate
 * dialog, whose code comes when its opener is pointed at, focused or pressed; the back office's enrolment
 * QR (issue 35: `qrcode`, drawn once per operator, at enrolment).
 */
export const WHEN_ASKED = ['src/views/parts/CancelDialog.tsx', 'src/views/pages/ChangePlanDialog.tsx', 'src/views/pages/account/DeviceSignOutDialog.tsx', 'src/views/ops/EnrolQr.tsx'];

function closure(manifest: Manifest, keys: string[], seen = new Set<string>()): Set<string> {
  const walk = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const next of manifest[key].imports ?? []) walk(next);
  };
  keys.forEach(walk);
  return seen;
}

function entryKey(manifest: Manifest): string {
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry);
  if (!entry) throw new Error('No entry chunk in the manifest');
  return entry[0];
}

const jsFiles = (manifest: Manifest, keys: Set<string>) =>
  [...keys].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));

/** The JS files the landing route loads. */
export function landingFiles(manifest: Manifest): string[] {
  return jsFiles(manifest, closure(manifest, [entryKey(manifest)]));
}

/** Every other route by page name ('LoginPage', …) with the JS files it loads (see above). */
export function routeFiles(manifest: Manifest): Map<string, string[]> {
  const entry = entryKey(manifest);
  const lazy = (manifest[entry]!.dynamicImports ?? []).filter((key) => !DEV_ONLY.test(key));
  const pages = lazy.filter((key) => PAGE.test(key));
  const routes = new Map<string, string[]>();
  for (const page of pages) {
    const own = [page, ...(manifest[page]!.dynamicImports ?? []).filter((key) => !DEV_ONLY.test(key) && !WHEN_ASKED.includes(key))];
    routes.set(PAGE.exec(page)![1]!, jsFiles(manifest, closure(manifest, [entry, ...own])));
  }
  return routes;
}

/**
 * Chunks loaded on demand, not counted in any route: every lazy import of a chunk a route loads that is
 * neither a page nor the page's own lazy part (the toast area, the account menu, the common-password
 * list a new-password form fetches), with the JS each adds to what the chunk asking for it came with.
 */
export function onDemandFiles(manifest: Manifest): Map<string, string[]> {
  const entry = entryKey(manifest);
  const pages = (manifest[entry]!.dynamicImports ?? []).filter((key) => PAGE.test(key));
  const loaded = closure(manifest, [entry, ...pages]);
  const found = new Map<string, string[]>();
  for (const key of loaded) {
    for (const lazy of manifest[key]!.dynamicImports ?? []) {
      if (PAGE.test(lazy) || DEV_ONLY.test(lazy) || (PAGE.test(key) && !WHEN_ASKED.includes(lazy)) || found.has(lazy)) continue;
      const have = closure(manifest, [entry, key]); // what the chunk that asks for it came with
      found.set(lazy, jsFiles(manifest, new Set([...closure(manifest, [lazy])].filter((k) => !have.has(k)))));
    }
  }
  return found;
}

/** Every language's build is measured (issue 20: one build per language; English's manifest is manifest.json). */
export function main(dist = process.argv[2] ?? 'dist'): number {
  const manifestPath = join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) {
    console.error(`No ${manifestPath}: run \`npm run build\` first.`);
    return 1;
  }
  const others = readdirSync(join(dist, '.vite')).map((file) => /^manifest\.(\w+)\.json$/.exec(file)?.[1]).filter((l): l is string => Boolean(l));
  let failed = 0;
  for (const locale of ['en', ...others.sort()]) failed += measure(dist, locale, locale === 'en' ? manifestPath : join(dist, '.vite', `manifest.${locale}.json`));
  if (failed) console.error(`${failed} route(s) over budget`);
  return failed ? 1 : 0;
}

function measure(dist: string, locale: string, manifestPath: string): number {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const sizes = new Map<string, number>();
  const kb = (files: string[]) =>
    files.reduce((sum, file) => {
      if (!sizes.has(file)) sizes.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length);
      return sum + sizes.get(file)!;
    }, 0) / 1024;

  let failed = 0;
  const row = (name: string, value: number, budget: number) => {
    const over = value > budget;
    if (over) failed += 1;
    console.info(`  ${value.toFixed(1).padStart(6)} KB  ${name.padEnd(23)} budget ${budget} KB${over ? `  OVER by ${(value - budget).toFixed(1)} KB` : ''}`);
  };
  console.info(`Gzipped JS per route, language ${locale} (landing: the entry chain; other routes: + the page chunk and its imports):`);
  const landing = landingFiles(manifest);
  row('landing /', kb(landing), LANDING_BUDGET_KB);
  for (const file of landing) console.info(`           ${(kb([file])).toFixed(1).padStart(6)} KB  ${file}`);
  for (const [page, files] of [...routeFiles(manifest)].sort(([a], [b]) => a.localeCompare(b))) row(page, kb(files), ROUTE_BUDGET_KB);
  for (const [key, files] of onDemandFiles(manifest)) console.info(`  on demand: ${kb(files).toFixed(1).padStart(6)} KB  ${key}`);
  return failed;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(main());
