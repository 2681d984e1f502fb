/**
 * Global setup of the server tests (issue 10: the suite stays quick). A new PGlite runs initdb, then
 * the migrations and the seed (a scrypt hash among them): seconds on this machine, and the server
 * tests start about thirty test servers. Here that happens once per run; the migrated and seeded data
 * directory is written to a file, and every test server starts from a copy of it
 * (`startTestServer` in test/server/support/helpers.ts): the same database `openPreparedDatabase(':memory:')` gives.
 *
 * With DATABASE_URL (npm run test:postgres) nothing is made: test servers get a throwaway database
 * on that server, as before.
 */
import { PGlite } from '@electric-sql/pglite';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { pgliteDb } from '../../server/platform/db';
import { prepareDatabase } from '../../server/startup';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The file holding the migrated and seeded PGlite data directory ('' on PostgreSQL). */
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('pgliteTemplate', '');
    return;
  }
  const lite = new PGlite();
  await lite.waitReady;
  // What openPreparedDatabase(':memory:') does to a new PGlite: migrate, then seed.
  await prepareDatabase(pgliteDb(lite));
  const dump = await lite.dumpDataDir('none');
  await lite.close();
  const dir = await mkdtemp(join(tmpdir(), 'sine-bisaya-pglite-'));
  const file = join(dir, 'template.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
