/**
 * Start-up of the database, in its order: open, migrate, write the catalog and (in development) the
 * demo data. Used by the server process (serve.ts) and by the tests, so both start from the same database.
 */
import { ensureCatalog, SEED_VOUCHERS } from './billing/catalog';
import { migrate, openDatabase, withStartupLock, type Db } from './platform/db';
import type { AppEnv } from './settings';

/** The demo accounts' addresses (server/dev/seed.ts, the README). */
export const DEMO_EMAILS = ['free@example.com', 'premium@example.com', 'canceled@example.com', 'voucher@example.com'] as const;
/** The demo operators (server/dev/seed.ts, issue 35): a production database must hold none of them. */
export const DEMO_OPERATOR_EMAILS = ['support@example.com', 'finance@example.com', 'admin@example.com'] as const;

/**
 * Migrations, then the catalog. In development (the default) the seed follows: the demo vouchers and
 * accounts (server/dev/seed.ts). In production only the plans are written, and a database that holds
 * the demo data (its accounts sign in with the password in the README, its vouchers give Premium away)
 * or a moved dev clock is refused (productionProblems). Idempotent.
 */
export async function prepareDatabase(db: Db, appEnv: AppEnv = 'development'): Promise<void> {
  await withStartupLock(db, async () => {
    await migrate(db);
    if (appEnv === 'production') {
      await ensureCatalog(db, { vouchers: false });
      const problems = await productionDataProblems(db);
      if (problems.length) throw new Error(`APP_ENV=production: not starting, the database holds dev data (docs/operations.md#demo-data):\n${problems.map((p) => `- ${p}`).join('\n')}`);
      return;
    }
    const { seed } = await import('./dev/seed');
    await seed(db);
  });
}

/** What a production database must not hold: the demo accounts, the demo vouchers, a fixed dev clock. */
export async function productionDataProblems(db: Db): Promise<string[]> {
  const problems: string[] = [];
  const demo = await db.query<{ email: string }>('SELECT email FROM users WHERE email = ANY($1::text[]) ORDER BY email', [[...DEMO_EMAILS]]);
  if (demo.rows.length) problems.push(`the demo accounts ${demo.rows.map((r) => r.email).join(', ')} (their password is in the README)`);
  const operators = await db.query<{ email: string }>('SELECT email FROM users WHERE email = ANY($1::text[]) ORDER BY email', [[...DEMO_OPERATOR_EMAILS]]);
  if (operators.rows.length) problems.push(`the demo operators ${operators.rows.map((r) => r.email).join(', ')} (their password is in the README)`);
  const vouchers = await db.query<{ code: string }>('SELECT code FROM vouchers WHERE code = ANY($1::text[]) ORDER BY code', [SEED_VOUCHERS.map((v) => v.code)]);
  if (vouchers.rows.length) problems.push(`the demo vouchers ${vouchers.rows.map((r) => r.code).join(', ')} (printed in the README)`);
  const clock = await db.query<{ fixed_at: Date }>('SELECT fixed_at FROM server_clock');
  if (clock.rows.length) problems.push(`the billing clock fixed at ${clock.rows[0]!.fixed_at.toISOString()} by /dev/clock (DELETE FROM server_clock)`);
  return problems;
}

/** The database of DATA_DIR (or DATABASE_URL), ready to serve. */
export async function openPreparedDatabase(dataDir: string, databaseUrl?: string, appEnv: AppEnv = 'development'): Promise<Db> {
  const db = await openDatabase(dataDir, databaseUrl);
  try {
    await prepareDatabase(db, appEnv);
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
  return db;
}
