/**
 * `npm run ops:grant -- EMAIL ROLE` (issue 35, docs/operations.md#back-office): makes the account of
 * EMAIL an operator with ROLE (support, finance, admin), changes its role, or with ROLE `none` removes
 * it (its ops sessions end). The way to make the first admin: production never seeds an operator.
 * Writes an audit entry whose actor is `cli` (with the shell's user, when known). The account must
 * exist (the person signs up first). Works on the database of DATABASE_URL or DATA_DIR, migrated first.
 */
import { grantRoleSchema } from '../src/api/ops/schemas';
import { grantRole } from '../server/ops/auth';
import { migrate, openDatabase, withStartupLock } from '../server/platform/db';

const [email, role, ...rest] = process.argv.slice(2);
const parsedRole = grantRoleSchema.safeParse(role);
if (!email || !parsedRole.success || rest.length > 1) {
  console.error('Usage: npm run ops:grant -- EMAIL support|finance|admin|none ["reason"]');
  process.exit(2);
}
const dataDir = process.env.DATA_DIR ?? '.data';
if (dataDir === ':memory:' && !process.env.DATABASE_URL) {
  console.error('npm run ops:grant: DATA_DIR=:memory: is a throwaway database; set DATABASE_URL or DATA_DIR');
  process.exit(2);
}
const db = await openDatabase(dataDir, process.env.DATABASE_URL);
try {
  await withStartupLock(db, () => migrate(db));
  const who = process.env.USER ?? process.env.LOGNAME ?? 'unknown';
  const result = await grantRole(db, { userId: null, email: `cli:${who}`, role: 'cli' }, {
    email, role: parsedRole.data, reason: rest[0] ?? `npm run ops:grant by ${who}`,
  });
  console.info(result.role ? `${result.email} is now an operator: ${result.role}` : `${result.email} is no longer an operator`);
} catch (error) {
  console.error(`npm run ops:grant failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await db.close();
}
