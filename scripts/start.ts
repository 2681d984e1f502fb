/**
 * `npm start` (issue 10): reuse the build in dist when its stamp matches the sources (a hash of what the
 * build reads, scripts/build/stamp.ts); otherwise build first. Then run the server in this process.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { readStamp, sourceHash } from './build/stamp.ts';

const root = resolve(import.meta.dirname, '..');
const distDir = resolve(process.env.DIST_DIR ?? 'dist');
const started = performance.now();
const wanted = sourceHash(root);
if (readStamp(distDir) === wanted) {
  console.info(`Reusing the build in ${distDir} (up to date, checked in ${Math.round(performance.now() - started)} ms).`);
} else {
  console.info('Building the app (sources changed since the last build)…');
  const built = spawnSync(process.execPath, [resolve(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', distDir, '--emptyOutDir'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

await import('../server/main.ts');
