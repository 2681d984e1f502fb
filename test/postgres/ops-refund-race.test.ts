/**
 * Issue 35 on PostgreSQL: two API processes on one database, a refund pressed twice (the same
 * confirmation on both processes at once) and by two operators at once (each on its own process):
 * Maya voids the payment once, the ledger holds one reversal, the audit log one entry. Also: an ops
 * session and a TOTP enrolment made on one process work on the other (the key comes from JWT_SECRET).
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, startServer, stopAll } from './support/processes';

let database: Awaited<ReturnType<typeof createDatabase>>;
const dataDir = mkdtempSync(join(tmpdir(), 'ops-race-'));
const processes: ChildProcess[] = [];
let a: string;
let b: string;

type Answer = { status: number; json: { success: boolean; message: string; data: any } }; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read nested fields freely

async function call(base: string, method: string, path: string, token?: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Answer['json'] };
}

const code = (secret: string, at = Date.now()) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at });

/** A finance operator enrolled on process `enrolOn`; answers its ops token. */
async function financeOperator(email: string, enrolOn: string): Promise<{ opsToken: string; accessToken: string; secret: string }> {
  expect((await call(a, 'POST', '/dev/operators', undefined, { email, role: 'finance' })).status).toBe(200);
  const signIn = await call(enrolOn, 'POST', '/api/v1/mobile/auth/sign-in-email', undefined, { email, password: 'Bisaya-Demo-2026' });
  const accessToken = signIn.json.data.accessToken as string;
  const enrol = await call(enrolOn, 'POST', '/api/v1/ops/enrol', accessToken, {});
  const secret = enrol.json.data.secret as string;
  const confirmed = await call(enrolOn, 'POST', '/api/v1/ops/enrol/confirm', accessToken, { code: code(secret) });
  expect(confirmed.status, confirmed.json.message).toBe(200);
  return { opsToken: confirmed.json.data.session.opsToken, accessToken, secret };
}

beforeAll(async () => {
  database = await createDatabase('sine_bisaya_ops');
  const env = { ...process.env, DATABASE_URL: database.url, DATA_DIR: dataDir, JWT_SECRET: 'o'.repeat(40) };
  [a, b] = await Promise.all([startServer(processes, env).then((s) => s.base), startServer(processes, env).then((s) => s.base)]);
}, 120_000);

afterAll(async () => {
  await stopAll(processes);
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the back office on two processes', () => {
  it('an enrolment on one process verifies on the other; its session works on both', async () => {
    const op = await financeOperator(`cross-${Date.now()}@example.com`, a);
    expect((await call(b, 'GET', '/api/v1/ops/queues', op.opsToken)).status).toBe(200);
    const again = await call(b, 'POST', '/api/v1/ops/session', op.accessToken, { code: code(op.secret, Date.now() + 30_000) });
    expect(again.status, again.json.message).toBe(200);
    expect((await call(a, 'GET', '/api/v1/ops/queues', again.json.data.session.opsToken)).status).toBe(200);
    // A viewer is nobody on either process.
    const viewer = (await call(b, 'POST', '/api/v1/mobile/auth/sign-in-email', undefined, { email: 'premium@example.com', password: 'Bisaya-Demo-2026' })).json.data.accessToken;
    for (const base of [a, b]) expect((await call(base, 'GET', '/api/v1/ops/me', viewer)).status).toBe(404);
  });

  it('a refund pressed twice and by two operators at once reverses once', async () => {
    // The free viewer buys Monthly on a card (saved and confirmed with the bank, as the app does).
    const token = (await call(a, 'POST', '/api/v1/mobile/auth/sign-in-email', undefined, { email: 'free@example.com', password: 'Bisaya-Demo-2026' })).json.data.accessToken as string;
    const saved = await call(a, 'POST', '/api/v1/mobile/payment/vault/cards', token, { number: '5123456789012346', expMonth: '12', expYear: '2099', cvc: '123', isDefault: true });
    expect(saved.status, saved.json.message).toBe(200);
    const pressed = await fetch(saved.json.data.verificationUrl, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'action=approve', redirect: 'manual' });
    await fetch(new URL(pressed.headers.get('Location')!, a), { redirect: 'manual' });
    const renewsOn = new Date(Date.now() + 30 * 86_400_000);
    const consentText = await import('../../src/lib/renewalConsent').then((m) => m.renewalConsentText({ renewsOn, amount: '99.00', currency: 'PHP' }, 'en'));
    const bought = await call(a, 'POST', '/api/v1/mobile/payment/vault/create', token, {
      planId: 1, cardToken: saved.json.data.cardTokenId, renewalConsent: { accepted: true, text: consentText, language: 'en' },
    });
    expect(bought.status, bought.json.message).toBe(200);
    const history = await call(a, 'GET', '/api/v1/mobile/payment/history', token);
    const record = history.json.data.find((p: { status: string; paymentMethod: string }) => p.status === 'PAYMENT_SUCCESS' && p.paymentMethod === 'MAYA_VAULT');
    expect(record).toBeTruthy();

    const one = await financeOperator(`fin-a-${Date.now()}@example.com`, a);
    const two = await financeOperator(`fin-b-${Date.now()}@example.com`, b);
    const key = randomUUID();
    const body = { amount: record.totalAmount, reason: 'Charged by mistake: refund it', requestKey: key };
    const path = `/api/v1/ops/payments/${record.id}/reverse`;
    const answers = await Promise.all([
      call(a, 'POST', path, one.opsToken, body),
      call(b, 'POST', path, one.opsToken, body),
      call(b, 'POST', path, two.opsToken, { ...body, requestKey: randomUUID() }),
      call(a, 'POST', path, two.opsToken, { ...body, requestKey: randomUUID() }),
    ]);
    const ok = answers.filter((x) => x.status === 200);
    // Whoever takes the payment first reverses it: the same confirmation answers the same on both
    // processes (both the result, or both refused when another operator was first); the rest are refused.
    expect(answers[0]!.status).toBe(answers[1]!.status);
    expect(ok.length).toBe(answers[0]!.status === 200 ? 2 : 1);
    expect(answers.filter((x) => x.status !== 200).map((x) => x.status)).toEqual(Array(4 - ok.length).fill(409));
    for (const answer of ok) expect(answer.json.data).toEqual({ kind: 'void', amount: '99.00', outcome: 'SUCCEEDED' });

    const reversals = await database.client.query(`SELECT count(*)::int AS n FROM gateway_attempts WHERE record_id = $1 AND reverses IS NOT NULL AND outcome = 'SUCCEEDED'`, [record.id]);
    expect(reversals.rows[0].n).toBe(1);
    const atMaya = await database.client.query(`SELECT status, refunded_amount::text AS refunded FROM sandbox_payments WHERE request_reference_number = $1`, [record.referenceId]);
    expect(atMaya.rows).toEqual([{ status: 'VOIDED', refunded: '99.00' }]);
    const audit = await database.client.query(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'payment.reverse' AND target_id = $1`, [record.id]);
    expect(audit.rows[0].n).toBe(1);
    const memos = await database.client.query(`SELECT count(*)::int AS n FROM tax_documents WHERE payment_record_id = $1 AND kind = 'CREDIT_MEMO'`, [record.id]);
    expect(memos.rows[0].n).toBe(1);
    // The audit log refuses an edit on PostgreSQL too.
    await expect(database.client.query(`UPDATE audit_log SET reason = 'edited' WHERE target_id = $1`, [record.id])).rejects.toThrow(/append-only/);
  });
});
