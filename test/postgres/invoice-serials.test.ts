/**
 * Invoice numbers under load (issue 34, product.md#invoices): two API processes on one PostgreSQL take
 * 50 card purchases at once, half on each, while a fault rolls back the deciding transaction of one
 * purchase in five AFTER its invoice number was taken (a trigger refuses the invoice's INSERT, which
 * follows the series' UPDATE … RETURNING). Those purchases are decided again once the fault is gone.
 * Afterwards every purchase is paid once and has one invoice, and the series runs 1..N with no number
 * taken twice and none skipped: the rolled-back numbers were given back. Runs in the `postgres` project:
 *   PG_PORT=5461 scripts/with-postgres.sh npx vitest run --project postgres test/postgres/invoice-serials.test.ts
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkMoneyInvariants } from '../server/support/money-invariants';
import { createDatabase, startServer, stopAll } from './support/processes';
import { CONSENT } from '../server/support/consent';

const PURCHASES = 50;
/** The buyers whose deciding transaction is rolled back (one in five). */
const FAILING = 10;
const dataDir = mkdtempSync(join(tmpdir(), 'invoice-serials-'));
const processes: ChildProcess[] = [];
let database: Awaited<ReturnType<typeof createDatabase>>;
let db: pg.Client;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const count = async (sql: string, values: unknown[] = []) => (await db.query<{ n: number }>(sql, values)).rows[0]!.n;

/** A server process on a free port (the local sandbox answers on the server's own port). */
async function startProcess(): Promise<string> {
  const { base } = await startServer(processes, {
    ...process.env, DATABASE_URL: database.url, DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40), SANDBOX_LATENCY_MS: '20',
  });
  return base;
}

async function call(base: string, method: string, path: string, body?: unknown, token?: string) {
  const response = await fetch(`${base}/api/v1/mobile${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json().catch(() => null)) as { message: string; data: any } | null }; // eslint-disable-line @typescript-eslint/no-explicit-any -- read field by field
}

beforeAll(async () => {
  database = await createDatabase('sine_bisaya_serials');
  db = database.client;
}, 120_000);

afterAll(async () => {
  await stopAll(processes);
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

it(`${PURCHASES} purchases at once on two processes, ${FAILING} rolled back after taking their number: invoice numbers unique and without gaps`, async () => {
  const a = await startProcess(); // migrates and seeds (its six paid payments get SB-INV-00000001…06)
  const b = await startProcess();
  const seeded = await count(`SELECT last::int AS n FROM document_series WHERE series = 'INVOICE'`);
  expect(seeded).toBe(6);

  // Buyers with a verified card at the sandbox (approving), no subscription; the demo password.
  await db.query(
    `WITH u AS (
       INSERT INTO users (email, password_hash, first_name, last_name, birthdate, created_at, updated_at)
       SELECT CASE WHEN g <= $2 THEN 'serial-fail-' ELSE 'serial-' END || g || '@example.com', (SELECT password_hash FROM users WHERE email = 'free@example.com'),
              'Serial', 'Buyer ' || g, '1990-01-01', now(), now()
       FROM generate_series(1, $1::int) g RETURNING id, email),
     c AS (INSERT INTO sandbox_customers (first_name, last_name, email, created_at) SELECT 'Serial', 'Buyer', email, now() FROM u RETURNING id, email),
     sc AS (
       INSERT INTO sandbox_cards (card_token_id, customer_id, brand, first6, last4, behaviour, state, is_default, created_at, updated_at)
       SELECT 'serial-card-' || c.email, c.id, 'visa', '512345', '2346', 'APPROVE', 'VERIFIED', true, now(), now() FROM c RETURNING card_token_id)
     INSERT INTO saved_cards (card_token_id, user_id, card_type, first6, last4, state, is_default, customer_id, created_at, updated_at)
     SELECT 'serial-card-' || u.email, u.id, 'visa', '512345', '2346', 'VERIFIED', true, c.id, now(), now() FROM u JOIN c ON c.email = u.email`,
    [PURCHASES, FAILING],
  );
  await db.query('CREATE TABLE seeded_subscriptions AS SELECT id FROM subscriptions; CREATE TABLE seeded_payment_records AS SELECT id FROM payment_records');
  // The fault: the invoice of a failing buyer is refused at its INSERT, after the number was taken; the
  // whole deciding transaction rolls back. The sequence (not transactional) counts how often it fired.
  await db.query(`
    CREATE SEQUENCE serial_faults;
    CREATE FUNCTION serial_fault() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.buyer_email LIKE 'serial-fail-%' THEN
        PERFORM nextval('serial_faults');
        RAISE EXCEPTION 'test fault: invoice % refused after its number was taken', NEW.number;
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER serial_fault BEFORE INSERT ON tax_documents FOR EACH ROW EXECUTE FUNCTION serial_fault();`);

  const buyers = (await db.query<{ email: string }>(`SELECT email FROM users WHERE email LIKE 'serial%' ORDER BY email`)).rows.map((r) => r.email);
  expect(buyers).toHaveLength(PURCHASES);
  const tokens = new Map<string, string>();
  for (const [index, email] of buyers.entries()) {
    const signedIn = await call(index % 2 ? b : a, 'POST', '/auth/sign-in-email', { email, password: 'Bisaya-Demo-2026' });
    expect(signedIn.status, signedIn.json?.message).toBe(200);
    tokens.set(email, signedIn.json!.data.accessToken as string);
  }

  // All at once, alternating between the processes.
  const answers = await Promise.all(
    buyers.map((email, index) => call(index % 2 ? a : b, 'POST', '/payment/vault/create', { ...CONSENT, planId: 1, cardToken: `serial-card-${email}` }, tokens.get(email))),
  );
  const ok = answers.filter((answer) => answer.status === 200).length;
  const faults = await count('SELECT (CASE WHEN is_called THEN last_value ELSE 0 END)::int AS n FROM serial_faults');
  expect(faults, 'the fault rolled back the failing buyers’ deciding transactions').toBeGreaterThanOrEqual(FAILING);
  expect(ok).toBeGreaterThanOrEqual(PURCHASES - FAILING);
  // While the failing ones are rolled back, their numbers were given back: what was issued has no gap.
  const issuedMidway = await count(`SELECT count(*)::int AS n FROM tax_documents WHERE kind = 'INVOICE'`);
  expect(await count(`SELECT last::int AS n FROM document_series WHERE series = 'INVOICE'`)).toBe(issuedMidway);
  expect(await count(`SELECT count(*)::int AS n FROM payment_records r JOIN users u ON u.id = r.user_id WHERE u.email LIKE 'serial-fail-%' AND r.status = 'PAYMENT_SUCCESS'`)).toBe(0);

  // The fault is gone; the failing buyers' payments (charged at Maya, not yet decided) are decided
  // when their payments are read (the history asks about open ones), on either process.
  await db.query('DROP TRIGGER serial_fault ON tax_documents');
  for (let round = 0; round < 100; round++) {
    const open = (await db.query<{ email: string }>(
      `SELECT u.email FROM payment_records r JOIN users u ON u.id = r.user_id WHERE u.email LIKE 'serial%' AND r.status <> 'PAYMENT_SUCCESS'`,
    )).rows.map((r) => r.email);
    if (!open.length) break;
    await Promise.all(open.map((email, index) => call(index % 2 ? a : b, 'GET', '/payment/history', undefined, tokens.get(email))));
    await sleep(200);
  }

  // Every purchase paid once, with one invoice.
  expect(await count(`SELECT count(*)::int AS n FROM payment_records r JOIN users u ON u.id = r.user_id WHERE u.email LIKE 'serial%' AND r.status = 'PAYMENT_SUCCESS'`)).toBe(PURCHASES);
  expect(await count(
    `SELECT count(*)::int AS n FROM payment_records r JOIN users u ON u.id = r.user_id JOIN tax_documents d ON d.payment_record_id = r.id AND d.kind = 'INVOICE'
     WHERE u.email LIKE 'serial%' AND r.status = 'PAYMENT_SUCCESS'`,
  )).toBe(PURCHASES);
  // The series: 1..N, each number once, the counter at N.
  const total = seeded + PURCHASES;
  const serials = (await db.query<{ serial: string; number: string }>(`SELECT d.serial::text AS serial, d.number FROM tax_documents d WHERE d.kind = 'INVOICE' ORDER BY d.serial`)).rows;
  expect(serials.map((r) => Number(r.serial))).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  expect(serials.map((r) => r.number)).toEqual(Array.from({ length: total }, (_, i) => `SB-INV-${String(i + 1).padStart(8, '0')}`));
  expect(await count(`SELECT last::int AS n FROM document_series WHERE series = 'INVOICE'`)).toBe(total);
  const checks = await checkMoneyInvariants((sql, values) => db.query(sql, values), { settlingMs: 0 });
  console.info(`[serials] ${PURCHASES} purchases on two processes, ${faults} deciding transactions rolled back after taking a number; invoices 1..${total} without gap or repeat; ${checks} money invariants hold`);
}, 300_000);
