/**
 * The last step of `vite build` (issue 10): prerender the public routes, precompress the output (brotli + gzip twins) and write the
 * build stamp `npm start` compares to decide whether to rebuild.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';
import { precompress } from './precompress.ts';
import { prerenderRoutes } from './prerender.ts';
import { sourceHash, STAMP_FILE } from './stamp.ts';

export function postBuild(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'sine-bisaya:post-build',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        if (config.build.ssr) return;
        const outDir = resolve(config.root, config.build.outDir);
        const routes = await prerenderRoutes(config.root, outDir);
        config.logger.info(`prerendered ${routes.join(', ')}`);
        const totals = precompress(outDir);
        config.logger.info(
          `precompressed ${totals.files} files: ${(totals.bytes / 1024).toFixed(1)} KB → br ${(totals.br / 1024).toFixed(1)} KB, gzip ${(totals.gzip / 1024).toFixed(1)} KB`,
        );
        writeFileSync(join(outDir, STAMP_FILE), sourceHash(config.root));
      },
    },
  };
}
