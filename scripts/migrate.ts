/**
 * `npm run migrate`: applies the migrations this code knows to the database of DATABASE_URL (or DATA_DIR's
 * PGlite), and nothing else (no catalog, no demo data), then says what it did. Run it before a deploy
 * (docs/operations.md#migrations): a migration that fails stops the deploy before any process is
 * replaced. Safe beside running processes: it takes the same lock as their start-up.
 */
import { migrate, migrationNames, openDatabase, withStartupLock } from '../server/platform/db';

const dataDir = process.env.DATA_DIR ?? '.data';
if (dataDir === ':memory:') {
  console.error('npm run migrate: DATA_DIR=:memory: is a throwaway database; set DATABASE_URL or DATA_DIR to the database to migrate');
  process.exit(1);
}
const db = await openDatabase(dataDir, process.env.DATABASE_URL);
try {
  const applied = async () => {
    const exists = await db.query<{ t: string | null }>("SELECT to_regclass('schema_migrations')::text AS t");
    if (!exists.rows[0]?.t) return new Set<string>();
    return new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
  };
  const before = await applied();
  await withStartupLock(db, () => migrate(db));
  const after = await applied();
  const added = migrationNames().filter((name) => after.has(name) && !before.has(name));
  const where = process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : dataDir;
  console.info(added.length ? `Migrated ${where}: ${added.join(', ')}` : `${where} is current: ${after.size} migrations applied, none to do`);
} catch (error) {
  console.error(`npm run migrate failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await db.close();
}
