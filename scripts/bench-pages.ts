/**
 * `npm run bench:pages` (issue 21): how long a signed-in viewer on a phone waits for each page's main
 * content, in Debian's Chromium against `npm start` on BENCH_PORT (4292) with an in-memory database.
 * Throttled through the DevTools protocol as the issue measures it: CPU 4× slower, 150 ms round trip,
 * 1.6 Mbps down (750 kbps up), cache disabled; signed in as premium@ (the session in local storage, as
 * after a sign-in), a cold load of each address; the median of 3 per route. "Main content" is each
 * page's own data on screen, found by role or structure, so it reads the same in either language. The
 * figure is the time from the navigation's start to the first frame that paints it, as the page's own
 * clock reads it (as web vitals are timed); the wall clock to Playwright noticing is printed beside it.
 * Figures only: exits 0 whatever they are (goal ≤ 1.8 s each), unless a run fails.
 * BENCH_LANGUAGE=ceb measures the Bisaya build.
 */
import { chromium } from 'playwright';
import { startBenchServer } from './bench-server';

const port = Number(process.env.BENCH_PORT ?? 4292);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const language = process.env.BENCH_LANGUAGE ?? 'en';
const GOAL_MS = 1800;

/**
 * Each route's main content, as a check run in the page: a selector that matches once it is there, or
 * for /account the profile form filled (an input's value, which no DOM mutation reports).
 */
const routes: Array<{ path: string; what: string; shown: string }> = [
  { path: '/subscription', what: 'current subscription, history and payments', shown: `Boolean(document.querySelector('section[aria-labelledby="current-title"] dl') && document.querySelector('section[aria-labelledby="history-title"][aria-busy="false"]') && document.querySelector('section[aria-labelledby="payments-title"][aria-busy="false"]'))` },
  { path: '/account', what: 'the profile form, filled', shown: `Boolean(document.querySelector('main input[name="firstName"]')?.value)` },
  { path: '/subscription/change-plan', what: 'the plan cards', shown: `Boolean(document.querySelector('main ul[aria-label] > li'))` },
  { path: '/subscription/change-payment-method', what: 'the current payment method', shown: `Boolean(document.querySelector('#new-method-title'))` },
];

/**
 * Installed before the page's own scripts: checks `shown` at every animation frame (the frame that will
 * paint) and keeps the first frame's time, in ms since the navigation started, in window.__shownAt. The
 * time is read in the page, so Playwright's own polling (up to 500 ms between checks) adds nothing.
 */
const watchScript = (shown: string) => `(() => {
  const check = (time) => {
    if (${shown}) { window.__shownAt = time; return; }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

const bench = await startBenchServer(port, { stdio: ['ignore', 'ignore', 'inherit'] });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

try {
  await bench.ready();
  const signIn = await fetch(`${bench.base}/api/v1/mobile/auth/sign-in-email`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'premium@example.com', password: 'Bisaya-Demo-2026' }),
  });
  const { data } = (await signIn.json()) as { data: { accessToken: string; user: unknown } };
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  console.info(`Signed-in pages, language ${language}, throttled (CPU 4×, 150 ms RTT, 1.6 Mbps down, no cache), median of ${runs}; goal ≤ ${GOAL_MS / 1000} s:`);
  for (const route of routes) {
    const times: number[] = [];
    const walls: number[] = [];
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      await context.addCookies([{ name: 'lang', value: language, url: bench.base }]);
      await context.addInitScript(({ token, user }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('user', JSON.stringify(user));
      }, { token: data.accessToken, user: data.user });
      await context.addInitScript({ content: watchScript(route.shown) });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const started = Date.now();
      await page.goto(`${bench.base}${route.path}`, { waitUntil: 'commit' });
      await page.waitForFunction(() => (window as { __shownAt?: number }).__shownAt !== undefined, undefined, { polling: 100 });
      walls.push(Date.now() - started);
      times.push(await page.evaluate(() => (window as unknown as { __shownAt: number }).__shownAt));
      await context.close();
    }
    const value = median(times);
    console.info(`  ${route.path.padEnd(36)} ${(value / 1000).toFixed(2)} s (runs ${times.map((t) => (t / 1000).toFixed(2)).join(', ')})  ${route.what}${value > GOAL_MS ? '  — over the goal' : ''}`);
    console.info(`  ${''.padEnd(36)} wall clock from the navigation call to Playwright seeing it (its polling included): ${(median(walls) / 1000).toFixed(2)} s`);
  }
  await browser.close();
} finally {
  await bench.stop();
}
