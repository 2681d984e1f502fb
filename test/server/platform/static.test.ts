/** The built app as the server sends it (issue 10): precompressed twins, caching, revalidation, the shell. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../../../scripts/build/precompress';
import { IMMUTABLE, REVALIDATE, staticSite } from '../../../server/platform/static';

const SCRIPT = `console.log(${JSON.stringify('Sine Bisaya '.repeat(200))});`;
const SHELL = `<!doctype html><html><body><div id="root"></div>${' '.repeat(2000)}</body></html>`;
const LANDING = `<!doctype html><html><body><div id="root"><h1>Welcome</h1></div>${' '.repeat(2000)}</body></html>`;
const LOGIN = `<!doctype html><html><body><div id="root"><h1>Log in</h1></div>${' '.repeat(2000)}</body></html>`;
let dist: string;
let app: Hono;

beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'dist-'));
  mkdirSync(join(dist, 'assets'));
  mkdirSync(join(dist, 'login'));
  mkdirSync(join(dist, '.vite'));
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), SCRIPT);
  writeFileSync(join(dist, 'index.html'), LANDING); // the prerendered landing
  writeFileSync(join(dist, 'shell.html'), SHELL); // what every other client route gets
  writeFileSync(join(dist, 'login', 'index.html'), LOGIN);
  writeFileSync(join(dist, '.vite', 'manifest.json'), '{}');
  writeFileSync(join(dist, 'favicon.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  precompress(dist);
  app = new Hono();
  app.get('/api/v1/ping', (c) => c.json({ ok: true }));
  app.use('*', staticSite(dist));
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });

describe('static files', () => {
  it('sends brotli to a client that takes it, gzip to one that takes only gzip, identity otherwise; always Vary', async () => {
    const br = await get('/assets/index-abc123.js', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers.get('Content-Encoding')).toBe('br');
    expect(br.headers.get('Vary')).toBe('Accept-Encoding');
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(SCRIPT);

    const gz = await get('/assets/index-abc123.js', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers.get('Content-Encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(SCRIPT);

    const refused = await get('/assets/index-abc123.js', { 'Accept-Encoding': 'br;q=0, gzip' });
    expect(refused.headers.get('Content-Encoding')).toBe('gzip');

    const plain = await get('/assets/index-abc123.js');
    expect(plain.headers.get('Content-Encoding')).toBeNull();
    expect(plain.headers.get('Vary')).toBe('Accept-Encoding');
    expect(plain.headers.get('Content-Type')).toMatch(/^text\/javascript/);
    expect(await plain.text()).toBe(SCRIPT);
    expect(Number(br.headers.get('Content-Length'))).toBeLessThan(SCRIPT.length / 4);
  });

  it('makes hashed assets immutable for a year and revalidates pages with an ETag', async () => {
    expect((await get('/assets/index-abc123.js')).headers.get('Cache-Control')).toBe(IMMUTABLE);
    const page = await get('/');
    expect(page.headers.get('Cache-Control')).toBe(REVALIDATE);
    const etag = page.headers.get('ETag');
    expect(etag).toMatch(/^".+"$/);
    const again = await get('/', { 'If-None-Match': etag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await get('/', { 'If-None-Match': '"other"' })).status).toBe(200);
  });

  it('serves a prerendered page at its route, the shell at any other route, and no shell for a missing asset', async () => {
    expect(await (await get('/')).text()).toBe(LANDING);    expect(await (await get('/login')).text()).toBe(LOGIN);
    expect(await (await get('/login/')).text()).toBe(LOGIN);
    expect(await (await get('/account')).text()).toBe(SHELL);
    expect(await (await get('/subscription/change-plan')).text()).toBe(SHELL);
    expect((await get('/assets/gone-123.js')).status).toBe(404);
    expect((await get('/api/v1/ping')).status).toBe(200);
    expect(await (await get('/.vite/manifest.json')).text()).toBe(SHELL);
  });

  it('leaves incompressible files alone and answers HEAD without a body', async () => {
    const png = await get('/favicon.png', { 'Accept-Encoding': 'br, gzip' });
    expect(png.headers.get('Content-Encoding')).toBeNull();
    expect(png.headers.get('Vary')).toBeNull();
    const head = await app.request('/', { method: 'HEAD', headers: { 'Accept-Encoding': 'br' } });
    expect(head.status).toBe(200);
    expect(head.headers.get('Content-Encoding')).toBe('br');
    expect(await head.text()).toBe('');
  });
});
