/**
 * Build step (issue 10, paint before JavaScript): renders the public routes to static HTML with their
 * CSS inline (src/entry-prerender.tsx through a Vite SSR build), writes them as dist/<route>/index.html
 * (the landing as dist/index.html, the plain shell kept as dist/shell.html for the other routes), and
 * puts one small script inline in <head> (the CSP allows it by its SHA-256, issue 21: no request before the first
 * paint) that applies a stored light theme before first paint and starts a signed-in page's reads.
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
  renderRoute(path: string, locale: string): Promise<{ html: string; title: string }>;
  documentTexts(locale: string): { description: string; skipLink: string };
  darkTheme: string;
  lightTheme: string;
  STORAGE_KEYS: { theme: string; token: string };
  EARLY_ROUTES: Array<{ path: string; page: string; reads: string[] }>;
  DISPLAY_TIME_ZONE: string;
}

/** What the boot script starts for a signed-in page (issue 21): its API reads, and its code to preload. */
export type EarlyStarts = Record<string, { r: string[]; m: string[]; c?: string[] }>;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The one script in <head> (classic, blocking, under 1 KB; `L` adds a modulepreload, or a preload `as` a type, in CORS mode as Vite's loader does):
 * - the theme before first paint: dark unless 'light' (or 'system' and a light preference) is stored;
 * - on a prerendered page (data-entry): the app's module loaded only after that first paint is on
 *   screen, so the paint neither shares the network with the app's JavaScript nor waits for it to run;
 * - until the app has taken the page over (src/main.tsx sets <html data-ready>), the page's form
 *   controls are disabled (data-boot-lock keeps each one's own state) and no form submits natively:
 *   nothing typed is lost, and no password ever goes into a URL.
 */
export function bootScript(dark: string, light: string, key: string, tokenKey = 'token', early: EarlyStarts = {}, timeZone = 'Asia/Manila'): string {
  return `(function(){function L(u,a){var k=document.createElement('link');k.rel=a?'preload':'modulepreload';if(a)k.setAttribute('as',a);k.crossOrigin='';k.href=u;document.head.appendChild(k)}var l=false;try{var c=localStorage.getItem(${JSON.stringify(key)});l=c==='light'||(c==='system'&&matchMedia('(prefers-color-scheme: light)').matches)}catch(e){}` +
    `var r=document.documentElement;r.classList.add(l?${JSON.stringify(light)}:${JSON.stringify(dark)});r.style.colorScheme=l?'light':'dark';` +
    // A signed-in page's first reads and its code start now, beside the app's JavaScript (issue 21; src/api/earlyReads.ts).
    `try{var E=${JSON.stringify(early)},T=localStorage.getItem(${JSON.stringify(tokenKey)}),R=E[location.pathname.replace(/[/]+$/,'')];` +
    // Each answer's body is read as it arrives, while the main thread waits for the app (src/api/http.ts).
    // A read the network fails is the app's to ask for again (http.ts): marked handled here, so its failure
    // is no unhandled rejection ('Failed to fetch') before the app takes it, or if it never does (issue 37).
    `if(T&&R){var q={};R.r.forEach(function(p){var f=q[p]=fetch(p,{headers:{Accept:'application/json',Authorization:'Bearer '+T}}).then(function(a){return a.text().then(function(b){return{s:a.status,b:b}})});f.catch(function(){})});window.__sbEarly={t:T,q:q};` +
    `R.m.forEach(function(u){L(u)});` +
    // Its styles fetched now too (the lazy page waits for them); preloaded only: Vite's loader links them
    // when the page loads, after the app's own styles, so the cascade is as without this.
    `(R.c||[]).forEach(function(u){L(u,'style')});` +
    // The platform's first date formatter in a time zone loads ICU's zone and locale data: ~110 ms of a
    // throttled phone's main thread, paid while the page renders its first dates (src/lib/dates.ts). Paid
    // here instead, once the shell has painted, while the main thread waits for the app's JavaScript.
    `requestAnimationFrame(function(){setTimeout(function(){try{new Intl.DateTimeFormat('en-US',{timeZone:${JSON.stringify(timeZone)}}).format(0)}catch(e){}},0)})}}catch(e){}` +
    `var s=document.currentScript,e=s&&s.getAttribute('data-entry');if(!e)return;var p=(s.getAttribute('data-preload')||'').split(' ').filter(Boolean);` +
    `document.addEventListener('submit',function(v){if(!r.hasAttribute('data-ready'))v.preventDefault()},true);` +
    `document.addEventListener('DOMContentLoaded',function(){if(r.hasAttribute('data-ready'))return;document.querySelectorAll('#root form input,#root form button,#root form select,#root form textarea,#root form fieldset').forEach(function(x){x.setAttribute('data-boot-lock',x.disabled?'1':'0');x.disabled=true})});` +
    `var g=0;function G(){if(g)return;g=1;var h=document.head;p.forEach(function(u){L(u)});` +
    `var m=document.createElement('script');m.type='module';m.crossOrigin='';m.src=e;h.appendChild(m)}` +
    // Once the first contentful paint is on screen (its entry is written when the frame is presented, which
    // can be after the next task, or a frame or more later: a module already fetched would then run before
    // the paint and hold it up). A browser without paint timing loads it 100 ms after the first frame; one
    // with it, a second after at the latest, should the entry never come.
    `var w=1000;try{if(PerformanceObserver.supportedEntryTypes.indexOf('paint')<0)throw 0;new PerformanceObserver(function(l,o){if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();setTimeout(G,0)}}).observe({type:'paint',buffered:true})}catch(x){w=100}` +
    `requestAnimationFrame(function(){setTimeout(G,w)})})();\n`;
}

/**
 * Prerenders the public routes of the build in `outDir`, made for `locale` (one build per language): English
 * pages are <route>/index.html and the shell shell.html; another language's are index.<locale>.html and
 * shell.<locale>.html, which the server serves to a viewer of that language (server/platform/static.ts).
 */
export async function prerenderRoutes(root: string, outDir: string, locale: string): Promise<string[]> {
  const named = (base: string) => (locale === 'en' ? `${base}.html` : `${base}.${locale}.html`);
  // One folder per language and process: Node caches an imported module by its URL, so the second language's
  // prerender would otherwise get the first one's module (and its messages); and node_modules may be shared by
  // several checkouts building at once (git worktrees with a linked node_modules).
  const ssrDir = join(root, 'node_modules', `.prerender-${locale}-${process.pid}`);
  await build({
    root,
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'warn',
    build: { ssr: 'src/entry-prerender.tsx', outDir: ssrDir, emptyOutDir: true, manifest: false, copyPublicDir: false, minify: false },
    define: { __SB_LOCALE__: JSON.stringify(locale) },
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

  // Each signed-in page's chunk and the signed-in group's, beyond what the entry already loads.
  const groupKey = 'src/views/SignedInGroup.tsx';
  const early: EarlyStarts = Object.fromEntries(mod.EARLY_ROUTES.map((route) => {
    const chunks = [...closure(route.page), ...closure(groupKey)].filter((key) => !entryChain.has(key) && manifest[key]);
    const css = [...new Set(chunks.flatMap((key) => manifest[key]!.css ?? []))].map((file) => `/${file}`);
    return [route.path, { r: route.reads, m: [...new Set(chunks.map((key) => `/${manifest[key]!.file}`))].filter((file) => file.endsWith('.js')), ...(css.length ? { c: css } : {}) }];
  }));
  const boot = bootScript(mod.darkTheme, mod.lightTheme, mod.STORAGE_KEYS.theme, mod.STORAGE_KEYS.token, early, mod.DISPLAY_TIME_ZONE);
  // Inline, so the first paint waits for no request (issue 21); the CSP allows it by its hash, which the
  // server reads from .script-hashes.json (server/platform/static.ts builtScriptHashes).
  if (boot.includes('</script')) throw new Error('The boot script cannot be inlined');
  writeFileSync(join(outDir, '.script-hashes.json'), JSON.stringify([createHash('sha256').update(boot).digest('base64')]));

  // The shell every other route gets: the boot script (theme only) first in <head>, the app as built.
  const built = readFileSync(join(outDir, 'index.html'), 'utf8');
  // (Replacements are functions: the script's own `$` must not read as a replacement pattern.)
  const shell = built.replace('</title>', () => `</title>\n    <script>${boot}</script>`);
  // index.html's own words (language, description, skip link) in the build's language.
  const texts = mod.documentTexts(locale);
  const localize = (html: string) => html
    .replace('<html lang="en">', `<html lang="${locale}">`)
    .replace(/<meta name="description" content="[^"]*" \/>/, `<meta name="description" content="${escapeHtml(texts.description).replace(/"/g, '&quot;')}" />`)
    .replace('>Skip to content</a>', `>${escapeHtml(texts.skipLink)}</a>`);
  writeFileSync(join(outDir, named('shell')), localize(shell));
  const entryScript = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(built)![1]!;
  const entryPreloads = [...built.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]!);

  const written: string[] = [];
  for (const route of mod.PRERENDERED_ROUTES) {
    const { html, title } = await mod.renderRoute(route.path, locale);
    const extra = route.page ? [...closure(route.page)].filter((key) => !entryChain.has(key)) : [];
    // All the page's CSS inline (a few KB; the CSP allows inline styles, not scripts): no
    // render-blocking stylesheet requests before first paint.
    const cssFiles = [
      ...[...built.matchAll(/<link rel="stylesheet"[^>]*href="\/([^"]+)"[^>]*>/g)].map((m) => m[1]!),
      ...extra.flatMap((key) => manifest[key]!.css ?? []),
    ];
    const css = [...new Set(cssFiles)].map((file) => readFileSync(join(outDir, file), 'utf8').trim()).join('\n');
    const preloads = [...entryPreloads, ...extra.map((key) => `/${manifest[key]!.file}`).filter((f) => f.endsWith('.js'))];
    const page = built
      .replace(/\s*<link rel="(?:stylesheet|modulepreload)"[^>]*>/g, '')
      .replace(/\s*<script type="module"[^>]*><\/script>/, '')
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
      .replace('</head>', () => `  <script data-entry="${entryScript}" data-preload="${preloads.join(' ')}">${boot}</script>\n    <style>${css.replace(/<\/style/gi, '<\\/style')}</style>\n  </head>`)
      .replace('<div id="root"></div>', () => `<div id="root">${html}</div>`);
    const name = named('index');
    const file = route.path === '/' ? join(outDir, name) : join(outDir, route.path.slice(1), name);
    mkdirSync(resolve(file, '..'), { recursive: true });
    writeFileSync(file, localize(page));
    written.push(locale === 'en' ? route.path : `${route.path} (${locale})`);
  }
  rmSync(ssrDir, { recursive: true, force: true });
  return written;
}
