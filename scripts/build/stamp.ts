/**
 * The build stamp (issue 10, start-up): a hash of everything the build reads. `npm run build` writes
 * it to dist/.build-stamp; `npm start` (scripts/start.ts) rebuilds only when it differs.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** What the client build reads, relative to the project root. */
export const BUILD_INPUTS = ['src', 'public', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package-lock.json', 'scripts/build'];
export const STAMP_FILE = '.build-stamp';

function files(root: string, path: string, out: string[]): void {
  const full = join(root, path);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) files(root, join(path, name), out);
  } else out.push(path);
}

export function sourceHash(root: string, env: Record<string, string | undefined> = process.env): string {
  const hash = createHash('sha256');
  const list: string[] = [];
  for (const input of BUILD_INPUTS) files(root, input, list);
  for (const path of list) {
    hash.update(relative(root, join(root, path)));
    hash.update('\0');
    hash.update(readFileSync(join(root, path)));
    hash.update('\0');
  }
  // Vite bakes VITE_* variables into the bundle: a different value is a different build.
  for (const key of Object.keys(env).filter((k) => k.startsWith('VITE_')).sort()) hash.update(`${key}=${env[key]}\0`);
  return hash.digest('hex');
}

export function readStamp(distDir: string): string | null {
  const path = join(distDir, STAMP_FILE);
  return existsSync(path) ? readFileSync(path, 'utf8').trim() : null;
}
