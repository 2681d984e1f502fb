/**
 * The viewer's language (issue 20): the `lang` cookie, then Accept-Language, else English; the built pages
 * and shells of each language's build served by it, varying on Cookie and Accept-Language.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromAcceptLanguage, LANGUAGES, requestLanguage } from '../../../server/platform/language';
import { staticSite } from '../../../server/platform/static';

describe('the viewer\'s language', () => {
  it('is the languages of the catalogs', () => {
    const settings = JSON.parse(readFileSync(join(import.meta.dirname, '../../../project.inlang/settings.json'), 'utf8')) as { locales: string[] };
    expect([...LANGUAGES]).toEqual(settings.locales);
  });

  it('reads Accept-Language by preference, then order, by base language', () => {
    expect(fromAcceptLanguage('ceb-PH,ceb;q=0.9,en;q=0.8')).toBe('ceb');
    expect(fromAcceptLanguage('fil-PH, ceb;q=0.7, en;q=0.9')).toBe('en');
    expect(fromAcceptLanguage('en-US,en;q=0.9')).toBe('en');
    expect(fromAcceptLanguage('fr, de')).toBeNull();
    expect(fromAcceptLanguage('ceb;q=0, en')).toBe('en');
    expect(fromAcceptLanguage(undefined)).toBeNull();
  });

  it('prefers the chosen language (cookie) to the browser\'s, and ignores a cookie it does not know', async () => {
    const app = new Hono().get('/', (c) => c.text(requestLanguage(c)));
    const ask = async (headers: Record<string, string>) => (await app.request('/', { headers })).text();
    expect(await ask({ Cookie: 'lang=ceb', 'Accept-Language': 'en' })).toBe('ceb');
    expect(await ask({ Cookie: 'lang=en', 'Accept-Language': 'ceb' })).toBe('en');
    expect(await ask({ Cookie: 'lang=xx', 'Accept-Language': 'ceb-PH' })).toBe('ceb');
    expect(await ask({})).toBe('en');
  });
});

describe('pages in each language', () => {
  let dist: string;
  let app: Hono;
  beforeAll(() => {
    dist = mkdtempSync(join(tmpdir(), 'dist-lang-'));
    mkdirSync(join(dist, 'login'));
    writeFileSync(join(dist, 'index.html'), '<html lang="en">Welcome</html>');
    writeFileSync(join(dist, 'index.ceb.html'), '<html lang="ceb">Maayong pag-abot</html>');
    writeFileSync(join(dist, 'login', 'index.html'), '<html lang="en">Sign In</html>');
    writeFileSync(join(dist, 'login', 'index.ceb.html'), '<html lang="ceb">Mag-log in</html>');
    writeFileSync(join(dist, 'shell.html'), '<html lang="en">shell</html>');
    writeFileSync(join(dist, 'shell.ceb.html'), '<html lang="ceb">shell</html>');
    app = new Hono().use('*', staticSite(dist));
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('serves the prerendered page and the shell in the viewer\'s language, varying on what chose it', async () => {
    for (const [path, en, ceb] of [['/', 'Welcome', 'Maayong pag-abot'], ['/login', 'Sign In', 'Mag-log in'], ['/subscription', 'shell', 'shell']] as const) {
      const english = await app.request(path, { headers: { 'Accept-Language': 'en-US' } });
      const bisaya = await app.request(path, { headers: { 'Accept-Language': 'ceb-PH,en;q=0.5' } });
      const chosen = await app.request(path, { headers: { Cookie: 'lang=ceb', 'Accept-Language': 'en' } });
      expect(await english.text()).toContain(en);
      const bisayaText = await bisaya.text();
      expect(bisayaText).toContain(ceb);
      expect(bisayaText).toContain('lang="ceb"');
      expect(await chosen.text()).toContain('lang="ceb"');
      for (const response of [english, bisaya, chosen]) expect(response.headers.get('Vary')).toContain('Accept-Language');
      expect(bisaya.headers.get('ETag')).not.toBe(english.headers.get('ETag'));
    }
  });
});
