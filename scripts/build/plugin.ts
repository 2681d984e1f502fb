/**
 * The build (issue 10; issue 20 for the languages). `vite build` makes the English build in dist/; its last
 * step prerenders the public routes, then makes the same build for each other language (SB_LOCALE) in a
 * scratch folder and brings its assets and pages into dist (hashed assets side by side, pages and shell as
 * *.<locale>.html, its manifest as .vite/manifest.<locale>.json), then precompresses the output (brotli +
 * gzip twins) and writes the build stamp `npm start` compares to decide whether to rebuild.
 */
import { cpSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import { precompress } from './precompress.ts';
import { prerenderRoutes } from './prerender.ts';
import { sourceHash, STAMP_FILE } from './stamp.ts';

/** The languages (project.inlang/settings.json); English is the main build. */
export const BUILD_LOCALES = ['en', 'ceb'] as const;
/** The language this build is made for. */
export const buildLocale = (): string => process.env.SB_LOCALE ?? 'en';

/** In a language's build, its messages are that language's compile alone (scripts/i18n.ts). */
export function localeMessages(locale: string): Plugin {
  const shared = resolve('src/i18n/paraglide/messages.js');
  const own = resolve(`src/i18n/static/${locale}/messages.js`);
  return {
    name: 'sine-bisaya:locale-messages',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!source.endsWith('paraglide/messages.js')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === shared ? own : null;
    },
  };
}

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) filesUnder(path, out);
    else out.push(path);
  }
  return out;
}

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
        const locale = buildLocale();
        const routes = await prerenderRoutes(config.root, outDir, locale);
        config.logger.info(`prerendered (${locale}) ${routes.join(', ')}`);
        if (locale !== 'en') return; // a language's build inside the English one: the English one finishes

        for (const other of BUILD_LOCALES.filter((l) => l !== 'en')) {
          const scratch = join(config.root, 'node_modules', `.build-${other}-${process.pid}`); // node_modules may be shared by checkouts
          process.env.SB_LOCALE = other;
          try {
            await build({ root: config.root, configFile: config.configFile, logLevel: 'warn', build: { outDir: scratch, emptyOutDir: true } });
          } finally {
            delete process.env.SB_LOCALE;
          }
          for (const file of filesUnder(scratch)) {
            const path = relative(scratch, file);
            const target = path === join('.vite', 'manifest.json')
              ? join(outDir, '.vite', `manifest.${other}.json`)
              : path === '.script-hashes.json' ? join(outDir, `.script-hashes.${other}.json`)
              : path.startsWith(`assets`) || path.endsWith(`.${other}.html`) ? join(outDir, path) : null;
            if (!target) continue;
            mkdirSync(resolve(target, '..'), { recursive: true });
            cpSync(file, target);
          }
          rmSync(scratch, { recursive: true, force: true });
        }
        const totals = precompress(outDir);
        config.logger.info(
          `precompressed ${totals.files} files: ${(totals.bytes / 1024).toFixed(1)} KB → br ${(totals.br / 1024).toFixed(1)} KB, gzip ${(totals.gzip / 1024).toFixed(1)} KB`,
        );
        writeFileSync(join(outDir, STAMP_FILE), sourceHash(config.root));
      },
    },
  };
}
