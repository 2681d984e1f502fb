import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { postBuild } from './scripts/build/plugin.ts';

const apiPort = process.env.API_PORT ?? '8081';

export default defineConfig({
  plugins: [react(), vanillaExtractPlugin(), postBuild()],
  build: { manifest: true, sourcemap: false, target: 'es2022' },
  server: {
    port: 5173,
    proxy: {
      '/api': `http://localhost:${apiPort}`,
      '/app-config.json': `http://localhost:${apiPort}`,
      '/dev': `http://localhost:${apiPort}`,
      '/uploads': `http://localhost:${apiPort}`,
      '/sandbox': `http://localhost:${apiPort}`,
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ['test/server/**', 'test/e2e/**', 'test/postgres/**'],
          setupFiles: ['test/support/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['test/server/**/*.test.ts'],
          // One migrated and seeded PGlite per run; test servers start from copies of it.
          globalSetup: ['test/support/pglite-template.ts'],
          testTimeout: 20000,
          hookTimeout: 30000,
        },
      },
      // Two API processes on one PostgreSQL: only where one is given (npm run test:postgres, CI).
      ...(process.env.DATABASE_URL
        ? [{ extends: true as const, test: { name: 'postgres', environment: 'node', include: ['test/postgres/**/*.test.ts'], testTimeout: 60000, hookTimeout: 120000 } }]
        : []),
    ],
  },
});
