/** Issue 6 item 2: at 390, 768 and 1280 px no page scrolls sideways and no control is wider than its card. */
import { expect, test, type Page } from '@playwright/test';
import { openPage, signedInPages, signedOutPages, signInAs, WIDTHS, type PageCase } from './routes';

interface Overflow { what: string; controlRight: number; cardRight: number }

/** Controls that stick out of a bordered box around them (a card), and the page's sideways scroll. */
async function layoutProblems(page: Page) {
  return page.evaluate(() => {
    const scroller = document.scrollingElement ?? document.documentElement;
    const overflows: Overflow[] = [];
    const controls = document.querySelectorAll<HTMLElement>('main input, main button, main select, main textarea, main a[class]');
    for (const control of controls) {
      const box = control.getBoundingClientRect();
      if (box.width <= 1 || getComputedStyle(control).opacity === '0') continue; // visually hidden inputs
      for (let parent = control.parentElement; parent && parent.id !== 'main'; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        if (style.borderRightStyle === 'none' || parseFloat(style.borderRightWidth) === 0) continue;
        const card = parent.getBoundingClientRect();
        if (box.right > card.right + 0.5 || box.left < card.left - 0.5) {
          overflows.push({ what: `${control.tagName.toLowerCase()} ${control.getAttribute('name') ?? control.textContent?.trim().slice(0, 30) ?? ''}`, controlRight: Math.round(box.right), cardRight: Math.round(card.right) });
        }
        break;
      }
    }
    return { sideways: scroller.scrollWidth - scroller.clientWidth, overflows };
  });
}

async function checkEveryWidth(page: Page, pages: PageCase[]) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const pageCase of pages) {
      await openPage(page, pageCase);
      const problems = await layoutProblems(page);
      expect.soft(problems.overflows, `${pageCase.path} at ${width} px: controls past their card`).toEqual([]);
      expect.soft(problems.sideways, `${pageCase.path} at ${width} px: horizontal scroll`).toBeLessThanOrEqual(0);
    }
  }
}

test('signed out: every page fits at 390, 768 and 1280 px', async ({ page }) => {
  await checkEveryWidth(page, signedOutPages);
});

test('signed in: every page fits at 390, 768 and 1280 px', async ({ page }) => {
  await signInAs(page, 'premium@example.com');
  await checkEveryWidth(page, signedInPages);
});

test('the sign-up form with every error shown still fits its card', async ({ page }) => {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/register');
    await page.getByRole('checkbox', { name: /Accept terms and conditions/ }).check();
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByText('First Name is required')).toBeVisible();
    expect((await layoutProblems(page)).overflows, `at ${width} px`).toEqual([]);
  }
});
