import { chromium } from '@playwright/test';
const base = 'http://localhost:8090';
const args = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args });
const targets = (process.env.PAGES ?? '/subscription').split(',');
for (const locale of ['en-US', 'ceb-PH']) for (const theme of ['light', 'dark']) for (const width of [390, 768, 1280]) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale });
  const page = await context.newPage();
  await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
  await page.goto(`${base}/login`);
  await page.fill('input[name=email]', process.env.EMAIL ?? 'premium@example.com');
  await page.fill('input[name=password]', 'Bisaya-Demo-2026');
  await page.press('input[name=password]', 'Enter');
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  for (const target of targets) {
    await page.goto(`${base}${target}`);
    await page.waitForTimeout(1200);
    const name = `${target.replace(/\W+/g, '_')}-${locale}-${theme}-${width}`;
    if (process.env.SECTION) {
      const el = page.locator(process.env.SECTION);
      if (await el.count()) { await el.first().scrollIntoViewIfNeeded(); await el.first().screenshot({ path: `/tmp/shots/${name}-sec.png` }); }
    }
    await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: true });
  }
  await context.close();
}
await browser.close();
