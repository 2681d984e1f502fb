/**
 * Build step (issue 10, paint before JavaScript): renders the public routes to static HTML with their
 * CSS (src/entry-prerender.tsx through a Vite SSR build), writes them as dist/<route>/index.html
 * (the landing as dist/index.html, the plain shell kept as dist/shell.html for the other routes), and
 * adds a tiny external blocking script that applies a stored light theme before first paint — no
 * inline script, so the CSP stays `script-src 'self'`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

interface PrerenderModule {
  PRERENDERED_ROUTES: Array<{ path: string; page: string | null }>;
  renderRoute(path: string): Promise<{ html: string; title: string }>;
  darkTheme: string;
  lightTheme: string;
  STORAGE_KEYS: { theme: string };
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The theme before first paint: dark unless 'light' (or 'system' and a light preference) is stored. */
export function themeScript(dark: string, light: string, key: string): string {
  return `(function(){var l=false;try{var c=localStorage.getItem(${JSON.stringify(key)});l=c==='light'||(c==='system'&&matchMedia('(prefers-color-scheme: light)').matches)}catch(e){}` +
    `var r=document.documentElement;r.classList.add(l?${JSON.stringify(light)}:${JSON.stringify(dark)});r.style.colorScheme=l?'light':'dark'})();\n`;
}

export async function prerenderRoutes(root: string, outDir: string): Promise<string[]> {
  const ssrDir = join(root, 'node_modules', '.prerender');
  await build({
    root,
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'warn',
    build: { ssr: 'src/entry-prerender.tsx', outDir: ssrDir, emptyOutDir: true, manifest: false, copyPublicDir: false, minify: false },
  });
  const mod = (await import(pathToFileURL(join(ssrDir, 'entry-prerender.js')).href)) as PrerenderModule;
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;
  const closure = (key: string, seen = new Set<string>()) => {
    const walk = (k: string) => {
      if (seen.has(k) || !manifest[k]) return;
      seen.add(k);
      manifest[k]!.imports?.forEach(walk);
    };
    walk(key);
    return seen;
  };
  const entryChain = closure(entryKey);

  const theme = themeScript(mod.darkTheme, mod.lightTheme, mod.STORAGE_KEYS.theme);
  const themeFile = `assets/theme-${createHash('sha256').update(theme).digest('base64url').slice(0, 8)}.js`;
  writeFileSync(join(outDir, themeFile), theme);

  // The shell every other route gets, now with the theme script first in <head>.
  const shell = readFileSync(join(outDir, 'index.html'), 'utf8').replace('</title>', `</title>\n    <script src="/${themeFile}"></script>`);
  writeFileSync(join(outDir, 'shell.html'), shell);

  const written: string[] = [];
  for (const route of mod.PRERENDERED_ROUTES) {
    const { html, title } = await mod.renderRoute(route.path);
    const extra = route.page ? [...closure(route.page)].filter((key) => !entryChain.has(key)) : [];
    const head = [
      ...extra.flatMap((key) => manifest[key]!.css ?? []).map((css) => `<link rel="stylesheet" crossorigin href="/${css}">`),
      ...extra.map((key) => manifest[key]!.file).filter((f) => f.endsWith('.js')).map((js) => `<link rel="modulepreload" crossorigin href="/${js}">`),
    ].map((line) => `  ${line}\n  `).join('');
    const page = shell
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
      .replace('</head>', `${head}  </head>`)
      .replace('<div id="root"></div>', `<div id="root">${html}</div>`);
    const file = route.path === '/' ? join(outDir, 'index.html') : join(outDir, route.path.slice(1), 'index.html');
    mkdirSync(resolve(file, '..'), { recursive: true });
    writeFileSync(file, page);
    written.push(route.path);
  }
  rmSync(ssrDir, { recursive: true, force: true });
  return written;
}
