/** Accessibility (issue 6): axe-core's WCAG 2.2 A/AA rules on every route, signed out and in, both themes. */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openPage, signedInPages, signedOutPages, signInAs, THEMES, type PageCase } from './routes';

// axe runs on a dozen pages in two themes per test: longer than the default 30 s.
test.describe.configure({ timeout: 180_000 });

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

async function violations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

async function checkEveryPage(page: Page, pages: PageCase[]) {
  for (const theme of THEMES) {
    await page.evaluate((t) => localStorage.setItem('theme', t), theme);
    for (const pageCase of pages) {
      await openPage(page, pageCase);
      expect.soft(await violations(page), `${pageCase.path} in the ${theme} theme`).toEqual([]);
    }
  }
}

test('signed out: no WCAG 2.2 A/AA violations on any page, in either theme', async ({ page }) => {
  await page.goto('/');
  await checkEveryPage(page, signedOutPages);
});

test('signed in: no WCAG 2.2 A/AA violations on any page or in the open menu, in either theme', async ({ page }) => {
  await signInAs(page, 'premium@example.com');
  await checkEveryPage(page, signedInPages);
  for (const theme of THEMES) {
    await page.evaluate((t) => localStorage.setItem('theme', t), theme);
    await openPage(page, signedInPages[0]!);
    await page.getByRole('button', { name: /My Account/ }).click();
    await page.getByRole('menuitem', { name: 'Account' }).waitFor();
    expect.soft(await violations(page), `open menu in the ${theme} theme`).toEqual([]);
    await page.keyboard.press('Escape');
  }
});
