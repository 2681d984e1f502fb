/**
 * Issue 35: `npm run ops:grant -- EMAIL ROLE` makes the first admin on a database the server uses (here a
 * PGlite data directory), changes a role, removes it, and writes an audit entry whose actor is the CLI.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/platform/db';
import { openPreparedDatabase } from '../../../server/startup';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'ops-grant-'));

const grant = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/ops-grant.ts', ...args], { cwd: root, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } })
    .then(({ stdout, stderr }) => ({ code: 0, out: `${stdout}${stderr}` }), (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, out: `${error.stdout}${error.stderr}` }));

beforeAll(async () => {
  // A database as production would have it after the viewer signed up (here: the dev seed's free@).
  // Here on PGlite whatever DATABASE_URL says (the command is run on that data directory).
  const db = await openPreparedDatabase(dataDir, '');
  await db.query(`DELETE FROM operator_roles`);
  await db.close();
}, 120_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const rows = async () => {
  const db = await openDatabase(dataDir, '');
  try {
    const roles = await db.query<{ email: string; role: string; granted_by: string }>('SELECT u.email, r.role, r.granted_by FROM operator_roles r JOIN users u ON u.id = r.user_id ORDER BY u.email');
    const audit = await db.query<{ actor_role: string; actor_email: string; after: unknown; reason: string }>(`SELECT actor_role, actor_email, after, reason FROM audit_log WHERE action = 'operator.grant' ORDER BY id`);
    return { roles: roles.rows, audit: audit.rows };
  } finally {
    await db.close();
  }
};

describe('npm run ops:grant', () => {
  it('grants, changes and removes a role, each with an audit entry by the CLI; refuses what it cannot do', async () => {
    const made = await grant('free@example.com', 'admin', 'First admin, ticket OPS-1');
    expect(made).toEqual({ code: 0, out: 'free@example.com is now an operator: admin\n' });
    const removed = await grant('FREE@example.com', 'none');
    expect(removed.out).toBe('free@example.com is no longer an operator\n');
    const { roles, audit } = await rows();
    expect(roles).toEqual([]);
    expect(audit.map((a) => [a.actor_role, a.actor_email.startsWith('cli:'), a.after])).toEqual([['cli', true, { role: 'admin' }], ['cli', true, { role: null }]]);
    expect(audit[0]!.reason).toBe('First admin, ticket OPS-1');
    const unknown = await grant('nobody@example.com', 'admin');
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain('No account uses that email.');
    const usage = await grant('free@example.com', 'owner');
    expect(usage.code).toBe(2);
    expect(usage.out).toContain('Usage: npm run ops:grant -- EMAIL support|finance|admin|none');
  }, 120_000);
});
