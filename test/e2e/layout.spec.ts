/** Issue 6 item 2: at 390, 768 and 1280 px no page scrolls sideways and no control is wider than its card. */
import { expect, test, type Page } from '@playwright/test';
import { openPage, signedInPages, signedOutPages, signInAs, WIDTHS, type PageCase } from './routes';
import { DEMO_PASSWORD } from './support';

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

/** Eight payments as a viewer of a year has them: renewals with 26-character references, retries, every status. */
function yearOfPayments() {
  const statuses = ['PAYMENT_SUCCESS', 'PAYMENT_SUCCESS', 'PAYMENT_FAILED', 'PAYMENT_SUCCESS', 'PENDING', 'PAYMENT_SUCCESS', 'PAYMENT_EXPIRED', 'PAYMENT_SUCCESS'];
  return statuses.map((status, index) => ({
    id: `payment-${index}`, userId: 'viewer', subscriptionId: 'subscription', checkoutId: null,
    referenceId: index % 2 ? `SB-${(0xa1b2c3d4e5f6 + index).toString(16).toUpperCase()}` : `SB-RN-${'3C5BA4E27FED91A0B2C'}${index}`,
    status, amount: '99.00', discountedAmount: '0.00', totalAmount: index === 3 ? '990.00' : '99.00',
    paymentMethod: (['MAYA_VAULT', 'MAYA_WALLET', 'MAYA_CHECKOUT'] as const)[index % 3], paymentLink: null, gatewayResponse: null,
    retryCount: index === 0 ? 1 : index === 5 ? 3 : 0, lastRetryDate: null,
    createdAt: new Date(Date.UTC(2026, 10 - index, 27, 5, 9)).toISOString(), updatedAt: new Date(Date.UTC(2026, 10 - index, 27, 5, 9)).toISOString(),
    planName: index === 3 ? 'Yearly' : 'Monthly',
  }));
}

for (const locale of ['en-US', 'ceb-PH'] as const) {
  test.describe(`the payments panel (${locale})`, () => {
    test.use({ locale });

    test('shows every row whole, each reference on one line and nothing sideways, at 390, 768 and 1280 px (review finding 18)', async ({ page }) => {
      await page.route('**/api/v1/mobile/payment/history', (route) => route.fulfill({ json: { success: true, message: 'OK', data: yearOfPayments() } }));
      await page.goto('/login');
      await page.locator('input[type=email]').fill('premium@example.com');
      await page.locator('input[type=password]').fill(DEMO_PASSWORD);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL((url) => !url.pathname.startsWith('/login'));
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/subscription');
        const panel = page.locator('section[aria-labelledby="payments-title"]');
        await expect(panel.locator('tbody tr')).toHaveCount(8);
        const found = await panel.evaluate((section) => {
          const box = section.querySelector<HTMLElement>('[role="region"]')!;
          const rows = [...section.querySelectorAll('tbody tr')];
          const last = rows.at(-1)!.getBoundingClientRect();
          // Every box between the last row and the page that clips its content must show that row whole.
          const cutBy: string[] = [];
          for (let parent = rows.at(-1)!.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
            const style = getComputedStyle(parent);
            if (style.overflowY === 'visible' && style.overflowX === 'visible') continue;
            const frame = parent.getBoundingClientRect();
            if (last.bottom > frame.bottom + 0.5 || last.top < frame.top - 0.5) cutBy.push(`${parent.tagName} ${parent.className}`);
          }
          const references = [...section.querySelectorAll('tbody td:last-child > span')];
          // One box per line the text takes (the span is a grid item, a block, on a card).
          const lines = (span: Element) => {
            const range = document.createRange();
            range.selectNodeContents(span);
            return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
          };
          return {
            sideways: box.scrollWidth - box.clientWidth,
            cutBy,
            brokenReferences: references.filter((span) => lines(span) > 1).map((span) => span.textContent),
            pageSideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          };
        });
        expect.soft(found.sideways, `${width} px: the payments scroll sideways`).toBeLessThanOrEqual(0);
        expect.soft(found.cutBy, `${width} px: boxes that cut the last payment`).toEqual([]);
        expect.soft(found.brokenReferences, `${width} px: references broken over lines`).toEqual([]);
        expect.soft(found.pageSideways, `${width} px: the page scrolls sideways`).toBeLessThanOrEqual(0);
      }
    });
  });
}

test('an invoice printed in the dark theme is dark ink on a white page, its seller and totals readable (review finding 19, issue 34)', async ({ page }) => {
  await signInAs(page, 'premium@example.com');
  await page.evaluate(() => localStorage.setItem('theme', 'dark'));
  await page.goto('/subscription');
  await page.getByRole('link', { name: /^Invoice for / }).first().click();
  await expect(page.getByText('Visa **** 1381')).toBeVisible(); // the card, not just 'Card'
  await page.emulateMedia({ media: 'print' });
  const colours = await page.evaluate(() => {
    const article = document.querySelector('article')!;
    // The muted words ('Sold by', 'Prices are VAT-inclusive.') are the lightest text on the paper.
    const muted = [...article.querySelectorAll('p, span')].find((node) => node.textContent === 'Sold by')!;
    return {
      page: getComputedStyle(document.body).backgroundColor,
      card: getComputedStyle(article).backgroundColor,
      title: getComputedStyle(article.querySelector('h1')!).color,
      muted: getComputedStyle(muted).color,
    };
  });
  expect(colours.page).toBe('rgb(255, 255, 255)');
  expect(colours.card).toBe('rgb(255, 255, 255)');
  expect(colours.title).toBe('rgb(0, 0, 0)');
  // WCAG AA for small text on white: no lighter than #767676.
  const [r, g, b] = colours.muted.match(/\d+/g)!.map(Number);
  expect(Math.max(r!, g!, b!)).toBeLessThanOrEqual(0x76);
});

for (const locale of ['en-US', 'ceb-PH'] as const) {
  test.describe(`the wizard's plan cards (${locale})`, () => {
    test.use({ locale });

    test("keep each price and its period on one line at 320, 390, 768 and 1280 px ('₱99 kada bulan'; review finding 27)", async ({ page }) => {
      await page.goto('/login');
      await page.locator('input[type=email]').fill('free@example.com');
      await page.locator('input[type=password]').fill(DEMO_PASSWORD);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL((url) => !url.pathname.startsWith('/login'));
      for (const width of [320, ...WIDTHS]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/subscription/payment');
        const prices = page.locator('article p, li p, section p').filter({ hasText: /^₱\d/ });
        await expect(prices.first()).toBeVisible();
        const lines = await prices.evaluateAll((elements) => elements.map((element) => {
          const range = document.createRange();
          range.selectNodeContents(element);
          return { text: element.textContent, lines: new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size };
        }));
        expect(lines.length, `${width} px: the plans' prices`).toBeGreaterThanOrEqual(2);
        expect.soft(lines.filter((price) => price.lines > 1), `${width} px: prices broken over lines`).toEqual([]);
      }
    });
  });
}
