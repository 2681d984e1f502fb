/**
 * Start-up of the database, in its order: open, migrate, write the catalog and the demo data. Used by
 * the server process (serve.ts) and by the tests, so both start from the same database.
 */
import { seed } from './dev/seed';
import { migrate, openDatabase, withStartupLock, type Db } from './platform/db';

/** Migrations, then the seed (the catalog of plans and vouchers, the demo accounts): idempotent. */
export async function prepareDatabase(db: Db): Promise<void> {
  await withStartupLock(db, async () => {
    await migrate(db);
    await seed(db);
  });
}

/** The database of DATA_DIR (or DATABASE_URL), ready to serve. */
export async function openPreparedDatabase(dataDir: string, databaseUrl?: string): Promise<Db> {
  const db = await openDatabase(dataDir, databaseUrl);
  await prepareDatabase(db);
  return db;
}
