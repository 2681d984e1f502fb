import { expect, test } from '@playwright/test';
import { watchConsole } from './support';

test.describe('statechart gallery (/dev/statecharts)', () => {
  test('draws every flow as SVG with its paragraph and tables, without CSP errors', async ({ page }) => {
    const problems = watchConsole(page);
    await page.goto('/dev/statecharts');
    await expect(page.getByRole('heading', { level: 1, name: 'Statecharts' })).toBeVisible();
    const sections = page.locator('section');
    await expect(sections).toHaveCount(11);
    await expect(page.locator('body[data-rendered="true"]')).toHaveCount(1);
    await expect(page.locator('section pre.mermaid svg')).toHaveCount(11);
    const signUp = page.locator('section#signUp');
    await expect(signUp.getByText('A new person creates an account')).toBeVisible();
    await expect(signUp.locator('svg')).toContainText('Waiting for the code');
    await expect(signUp.locator('svg')).toContainText('go to /subscription');
    expect(problems).toEqual([]);
  });

  test('finds a flow by name', async ({ page }) => {
    await page.goto('/dev/statecharts');
    await page.getByLabel('Find a flow').fill('password');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/q=password/);
    await expect(page.locator('section')).toHaveCount(2);
    await expect(page.locator('section#recovery')).toHaveCount(1);
    await expect(page.locator('section#password')).toHaveCount(1);
  });

  test('the app itself never loads Mermaid', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (r) => { if (r.resourceType() === 'script') scripts.push(r.url()); });
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
    expect(scripts.filter((u) => /mermaid/i.test(u))).toEqual([]);
  });
});
