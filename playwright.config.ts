import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4180);

/** Browser tests in Debian's Chromium against `npm start` on a throwaway in-memory database. */
export default defineConfig({
  testDir: 'test/e2e',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    headless: true,
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
        '--disable-sync', '--no-first-run', '--disable-quic',
      ],
    },
  },
  webServer: {
    command: 'npm start',
    url: `http://localhost:${port}/app-config.json`,
    env: { PORT: String(port), DATA_DIR: ':memory:' },
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
