/**
 * Paint before JavaScript (issue 10): the public routes arrive as HTML with their CSS, hydrate without
 * a warning, and a stored light theme is on <html> before first paint. The one script in <head> is inline (no
 * request before the first paint, issue 21) and the Content-Security-Policy allows exactly it, by its hash.
 */
import { createHash } from 'node:crypto';
import { expect, test, type ConsoleMessage } from '@playwright/test';

const PUBLIC = [
  { path: '/', heading: /Welcome to/ },
  { path: '/login', heading: 'Log In' },
  { path: '/register', heading: /Sign Up|Create/ },
  { path: '/forgot-password', heading: /Forgot|Reset|Recover/ },
  { path: '/legal/terms', heading: /Terms/ },
  { path: '/legal/privacy', heading: /Privacy/ },
];

const problems = (messages: ConsoleMessage[]) =>
  messages.filter((m) => m.type() === 'error' || m.type() === 'warning').map((m) => m.text());

for (const { path, heading } of PUBLIC) {
  test(`${path} paints without JavaScript and hydrates without warnings`, async ({ browser, request }) => {
    const response = await request.get(path);
    const html = await response.text();
    expect(html).toMatch(/<div id="root"><!--\$-->/);
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
    expect(inline).toHaveLength(1);
    const scriptSrc = /script-src ([^;]*)/.exec(response.headers()['content-security-policy'] ?? '')![1]!;
    expect(scriptSrc.split(' ')).toEqual(["'self'", ...scriptSrc.split(' ').slice(1).filter((source) => source.startsWith("'sha256-"))]);
    expect(scriptSrc).toContain(`'sha256-${createHash('sha256').update(inline[0]!).digest('base64')}'`);

    const noJs = await browser.newContext({ javaScriptEnabled: false });
    const still = await noJs.newPage();
    await still.goto(path);
    await expect(still.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await noJs.close();

    const context = await browser.newContext();
    const page = await context.newPage();
    const messages: ConsoleMessage[] = [];
    const errors: string[] = [];
    page.on('console', (m) => messages.push(m));
    page.on('pageerror', (e) => errors.push(e.message)); // a hydration mismatch is reported as an error
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    // Hydrated (the boot script marks <html data-ready> once React owns the page): React answers a
    // click (the theme radio is React state).
    await expect(page.locator('html')).toHaveAttribute('data-ready', '');
    await page.getByRole('radio', { name: 'Light' }).check();
    await expect(page.locator('html')).toHaveCSS('color-scheme', 'light');
    expect([...problems(messages), ...errors]).toEqual([]);
    await context.close();
  });
}

test('a stored light theme is on <html> before the app runs', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: true });
  await context.addInitScript(() => localStorage.setItem('theme', 'light'));
  const page = await context.newPage();
  // Block the app's module: only the small theme script runs.
  await page.route(/\/assets\/index-.*\.js$/, (route) => route.abort());
  await page.goto('/login');
  await expect(page.locator('html')).toHaveCSS('color-scheme', 'light');
  await context.close();
});
