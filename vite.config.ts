import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { buildLocale, localeMessages, postBuild } from './scripts/build/plugin.ts';

const apiPort = process.env.API_PORT ?? '8081';

/** The modules every signed-in page uses (their 'signed-in' chunk, below). */
const SIGNED_IN_SHARED = new RegExp([
  String.raw`node_modules[\\/]@tanstack[\\/]`,
  String.raw`src[\\/]api[\\/](queries|queryClient|schemas|endpoints)\.ts$`,
  String.raw`src[\\/]views[\\/](useApi|parts[\\/](ErrorBox|bindings|OnDemand|ScheduledChange))\.tsx?$`,
  String.raw`node_modules[\\/]react-error-boundary[\\/]`,
  String.raw`src[\\/]machines[\\/](actors|shared)\.ts$`,
  String.raw`src[\\/]lib[\\/]leave\.ts$`,
  // The renewal sentence and its tick (product.md#renewal-consent), on four signed-in pages: no chunk of
  // their own (each new chunk's name is one more entry in the landing's preload map, which had no room).
  String.raw`src[\\/]lib[\\/](renewalConsent|billingPeriod)\.ts$`,
  String.raw`src[\\/]views[\\/]parts[\\/](RenewalConsent\.tsx|renewalConsent\.css\.ts)`,
].join('|'));

export default defineConfig(({ command }) => ({
  plugins: [react(), vanillaExtractPlugin(), localeMessages(buildLocale()), postBuild()],
  // One build per language (issue 20, scripts/build/plugin.ts): the language is fixed at build time.
  define: command === 'build' ? { __SB_LOCALE__: JSON.stringify(buildLocale()) } : {},
  build: {
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    // Everything the entry imports statically is one chunk: the landing loads all of it anyway, and one
    // file gzips 2.7 KB smaller than the six Rolldown split it into (issue 10: landing ≤ 93 KB).
    // Beyond the entry, two more groups cut a signed-in page's files from 21 to 11 (issue 21): on a phone
    // each file waits a round trip for one of six connections, and most were under 1 KB.
    // - 'signed-in': what the signed-in pages share (React Query, the API's contract and queries, the
    //   machines' shared actors, the error box, the on-demand parts' error boundary), one file instead of nine;
    // - 'messages': the messages two or more chunks use (each was a file of its own, some of 33 bytes).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'index', tags: ['$initial'] },
            { name: 'signed-in', test: SIGNED_IN_SHARED },
            { name: 'messages', test: /src[\\/]i18n[\\/]static[\\/]/, minShareCount: 2 },
          ],
        },
      },
    },
  },
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
    // Vitest's default is one worker fewer than the cores: on a 2-core machine one, so every file ran in turn.
    maxWorkers: '100%',
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ['test/server/**', 'test/e2e/**', 'test/postgres/**'],
          setupFiles: ['test/support/setup.ts'],
          // Each file still gets its own jsdom and its own modules (Ark UI's overlays keep module-level
          // state), in a VM context of a long-lived worker instead of a new process: jsdom and the
          // worker start once per worker, not once per file (about 1.3 s each, 40 files).
          pool: 'vmThreads',
          // Two files run at once on two cores: a bound above setup.ts's 5 s waits, not a timing under test.
          testTimeout: 15000,
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
          // The process logger writes nowhere unless a test asks for its lines (issue 33).
          setupFiles: ['test/support/server-logs.ts'],
          // One worker runs file after file, keeping its imports and PGlite's compiled WebAssembly (no DOM here).
          isolate: false,
          unstubEnvs: true,
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
}));
