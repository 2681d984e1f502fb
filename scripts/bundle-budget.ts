/**
 * Bundle budget: the gzipped JavaScript the landing route loads for a guest, from Vite's manifest
 * (the entry and its static imports; lazy routes are not loaded by the landing page).
 * Fails above the budget. Run after `npm run build`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const LANDING_BUDGET_KB = 110;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export function landingFiles(manifest: Manifest): string[] {
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry);
  if (!entry) throw new Error('No entry chunk in the manifest');
  const seen = new Set<string>();
  const walk = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) walk(next);
  };
  walk(entry[0]);
  return [...seen].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));
}

function main() {
  const dist = process.argv[2] ?? 'dist';
  const manifestPath = join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) {
    console.error(`No ${manifestPath}: run \`npm run build\` first.`);
    process.exit(1);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  let total = 0;
  const rows = landingFiles(manifest).map((file) => {
    const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
    total += size;
    return { file, kb: (size / 1024).toFixed(1) };
  });
  for (const row of rows) console.info(`  ${row.kb.padStart(7)} KB  ${row.file}`);
  const totalKb = total / 1024;
  console.info(`landing route JS: ${totalKb.toFixed(1)} KB gzipped (budget ${LANDING_BUDGET_KB} KB)`);
  if (totalKb > LANDING_BUDGET_KB) {
    console.error(`Over budget by ${(totalKb - LANDING_BUDGET_KB).toFixed(1)} KB`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
