/**
 * The built app, served from memory (issue 10): every file under dist is read once at start with the
 * brotli and gzip twins the build wrote beside it (`npm run build`, see vite.config.ts), so a request
 * costs no disk access.
 * - Hashed files under /assets/ are immutable for a year.
 * - Everything else (index.html, the prerendered pages, the favicon) is revalidated: `no-cache` with a
 *   strong ETag, and a matching If-None-Match gets a 304.
 * - Compressible types carry `Vary: Accept-Encoding` and go out as br or gzip when the client takes it.
 * - A prerendered page is dist/<route>/index.html in English and dist/<route>/index.<lang>.html in another
 *   language (issue 20): the viewer's language (language.ts) picks one, and such a page varies on
 *   Cookie and Accept-Language. Any other GET that is not the API gets the shell
 *   (dist/shell.html when the build prerendered `/` into index.html, else index.html).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { Context, MiddlewareHandler } from 'hono';
import { requestLanguage } from './language';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
/** What is worth compressing (and what the build precompresses, see vite.config.ts). */
export const COMPRESSIBLE = /\.(?:html|js|mjs|css|json|svg|ico|txt|webmanifest)$/;

export interface StaticFile {
  type: string;
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  etag: string;
  cacheControl: string;
  compressible: boolean;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue; // .vite/manifest.json and the build stamp stay private
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (!/\.(?:br|gz)$/.test(name)) out.push(path);
  }
  return out;
}

/** Every file of the build by URL path ('/assets/index-abc.js', '/login/index.html', …). */
export function loadDist(distDir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const path of walk(distDir)) {
    const url = '/' + relative(distDir, path).split(sep).join('/');
    const body = readFileSync(path);
    const compressible = COMPRESSIBLE.test(path);
    const twin = (suffix: string) => (compressible && existsSync(path + suffix) ? readFileSync(path + suffix) : undefined);
    files.set(url, {
      type: TYPES[extname(path)] ?? 'application/octet-stream',
      body,
      br: twin('.br'),
      gzip: twin('.gz'),
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      cacheControl: url.startsWith('/assets/') ? IMMUTABLE : REVALIDATE,
      compressible,
    });
  }
  return files;
}

/** The encodings the client accepts (q=0 refuses one). */
function accepts(c: Context, encoding: string): boolean {
  const header = c.req.header('Accept-Encoding');
  if (!header) return false;
  return header.split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    if (name!.trim().toLowerCase() !== encoding) return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

export function send(c: Context, file: StaticFile, varies: string[] = []): Response {
  const headers = new Headers({ 'Content-Type': file.type, 'Cache-Control': file.cacheControl, ETag: file.etag });
  const vary = [...(file.compressible ? ['Accept-Encoding'] : []), ...varies];
  if (vary.length) headers.set('Vary', vary.join(', '));
  // The ETag names the content, whichever encoding carries it.
  const match = c.req.header('If-None-Match');
  if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === file.etag)) {
    return new Response(null, { status: 304, headers });
  }
  let body = file.body;
  if (file.br && accepts(c, 'br')) {
    body = file.br;
    headers.set('Content-Encoding', 'br');
  } else if (file.gzip && accepts(c, 'gzip')) {
    body = file.gzip;
    headers.set('Content-Encoding', 'gzip');
  }
  headers.set('Content-Length', String(body.length));
  return new Response(c.req.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
}

/**
 * The hashes of the inline scripts the build wrote into its pages (dist/.script-hashes.json, one file per
 * language's build), for the Content-Security-Policy; none when there is no build.
 */
export function builtScriptHashes(distDir: string): string[] {
  if (!existsSync(distDir)) return [];
  const lists = readdirSync(distDir).filter((name) => /^\.script-hashes(\.\w+)?\.json$/.test(name));
  return [...new Set(lists.flatMap((name) => JSON.parse(readFileSync(join(distDir, name), 'utf8')) as string[]))];
}

/** The page a path names: a file, a prerendered page (<path>/index.html), or the app shell. */
export function staticSite(distDir: string): MiddlewareHandler {
  const files = loadDist(distDir);
  const shell = files.get('/shell.html') ?? files.get('/index.html');
  if (!shell) throw new Error(`No built app at ${join(distDir, 'index.html')}`);
  const LANGUAGE_VARY = ['Cookie', 'Accept-Language'];
  // A build with more than one language has a shell per language (shell.<lang>.html): the shell then varies too.
  const shellVary = [...files.keys()].some((key) => /^\/shell\.\w+\.html$/.test(key)) ? LANGUAGE_VARY : [];
  return async (c, next) => {
    if ((c.req.method !== 'GET' && c.req.method !== 'HEAD') || c.req.path.startsWith('/api/')) return next();
    const path = c.req.path;
    const page = path.replace(/\/?$/, '/index.html');
    const translated = files.has(page) && files.get(page.replace(/\.html$/, `.${requestLanguage(c)}.html`));
    if (translated) return send(c, translated, LANGUAGE_VARY);
    const file = files.get(path) ?? files.get(page);
    if (file && path !== '/shell.html') return send(c, file, files.has(page) && !files.has(path) ? LANGUAGE_VARY : []);
    // Client-side routes get the app shell (each language's build has its own); a missing asset is a plain 404, not the shell.
    if (path.startsWith('/assets/')) return next();
    const translatedShell = files.get(`/shell.${requestLanguage(c)}.html`);
    return send(c, translatedShell ?? shell, shellVary);
  };
}
