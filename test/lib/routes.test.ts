import { describe, expect, it } from 'vitest';
import { loginPathFor, safeRedirectPath } from '../../src/lib/route-paths';
import { landingFiles } from '../../scripts/bundle-budget';

describe('safeRedirectPath', () => {
  it('follows paths on this site', () => {
    expect(safeRedirectPath('/account')).toBe('/account');
    expect(safeRedirectPath('/subscription?tab=all')).toBe('/subscription?tab=all');
  });
  it('falls back to / for anything else (no open redirect)', () => {
    expect(safeRedirectPath(null)).toBe('/');
    expect(safeRedirectPath('https://evil.example')).toBe('/');
    expect(safeRedirectPath('//evil.example')).toBe('/');
    expect(safeRedirectPath('/\\evil.example')).toBe('/');
  });
  it('builds /login?from={path}', () => {
    expect(loginPathFor('/account')).toBe('/login?from=%2Faccount');
  });
});

describe('landingFiles', () => {
  it('counts the entry and its static imports, not lazy routes', () => {
    const files = landingFiles({
      'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_shared.js'], dynamicImports: ['src/Login.tsx'] },
      '_shared.js': { file: 'assets/shared.js', imports: ['index.html'] },
      'src/Login.tsx': { file: 'assets/Login.js', imports: ['_shared.js'] },
    });
    expect(files.sort()).toEqual(['assets/index.js', 'assets/shared.js']);
  });
});

describe('login-link redirect target', () => {
  it('goes to redirectUrl on this site, or /subscription', async () => {
    const { redirectTarget } = await import('../../src/views/pages/AuthLinkPage');
    const origin = 'https://sinebisaya.ph';
    expect(redirectTarget(null, origin)).toBe('/subscription');
    expect(redirectTarget('/account', origin)).toBe('/account');
    expect(redirectTarget('https://sinebisaya.ph/subscription/change-plan?x=1', origin)).toBe('/subscription/change-plan?x=1');
    expect(redirectTarget('https://evil.example/phish', origin)).toBe('/subscription');
    expect(redirectTarget('//evil.example', origin)).toBe('/subscription');
    expect(redirectTarget('javascript:alert(1)', origin)).toBe('/subscription');
  });
});
