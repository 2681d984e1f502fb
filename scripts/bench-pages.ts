/**
 * `npm run bench:pages` (issue 21): how long a signed-in viewer on a phone waits for each page's main
 * content, in Debian's Chromium against `npm start` on BENCH_PORT (4292) with an in-memory database.
 * Throttled through the DevTools protocol as the issue measures it: CPU 4× slower, 150 ms round trip,
 * 1.6 Mbps down (750 kbps up), cache disabled; signed in as premium@ (the session in local storage, as
 * after a sign-in), a cold load of each address; the median of 3 per route. "Main content" is each
 * page's own data on screen, found by role or structure, so it reads the same in either language.
 * Figures only: exits 0 whatever they are (goal ≤ 1.8 s each), unless a run fails.
 * BENCH_LANGUAGE=ceb measures the Bisaya build.
 */
import { chromium, type Page } from 'playwright';
import { startBenchServer } from './bench-server';

const port = Number(process.env.BENCH_PORT ?? 4292);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const language = process.env.BENCH_LANGUAGE ?? 'en';
const GOAL_MS = 1800;

const routes: Array<{ path: string; what: string; shown: (page: Page) => Promise<unknown> }> = [
  { path: '/subscription', what: 'current subscription, history and payments', shown: (page) => Promise.all([
    page.locator('section[aria-labelledby="current-title"] dl').first().waitFor(),
    page.locator('section[aria-labelledby="history-title"][aria-busy="false"]').waitFor(),
    page.locator('section[aria-labelledby="payments-title"][aria-busy="false"]').waitFor(),
  ]) },
  { path: '/account', what: 'the profile form, filled', shown: (page) => page.waitForFunction(() => Boolean((document.querySelector('main input[name="firstName"]') as HTMLInputElement | null)?.value)) },
  { path: '/subscription/change-plan', what: 'the plan cards', shown: (page) => page.locator('main ul[aria-label] > li').first().waitFor() },
  { path: '/subscription/change-payment-method', what: 'the current payment method', shown: (page) => page.locator('#new-method-title').waitFor() },
];

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
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      await context.addCookies([{ name: 'lang', value: language, url: bench.base }]);
      await context.addInitScript(({ token, user }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('user', JSON.stringify(user));
      }, { token: data.accessToken, user: data.user });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const started = Date.now();
      await page.goto(`${bench.base}${route.path}`, { waitUntil: 'commit' });
      await route.shown(page);
      times.push(Date.now() - started);
      await context.close();
    }
    const value = median(times);
    console.info(`  ${route.path.padEnd(36)} ${(value / 1000).toFixed(2)} s (runs ${times.map((t) => (t / 1000).toFixed(2)).join(', ')})  ${route.what}${value > GOAL_MS ? '  — over the goal' : ''}`);
  }
  await browser.close();
} finally {
  await bench.stop();
}
