/**
 * "Delete my account" (issue 36): the password and the typed email first; then the account cannot sign
 * in, its sessions, links and codes are void, its invoices remain without personal data, a renewal due
 * after the deletion is not charged, its cards are removed at Maya (retried when Maya fails), a mail
 * confirms, and the email can sign up again.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dueWork, renewSubscription, type RenewalDeps } from '../../../server/billing/renewals';
import { defaultGatewayConfig } from '../../../server/gateway/config';
import { createMayaClient, GatewayError, type Gateway } from '../../../server/gateway/maya';
import { createMailer } from '../../../server/platform/mail';
import { eraseAtMaya } from '../../../server/billing/erasure';
import { ERASURE_MAIL, erasedEmail } from '../../../server/identity/deletion';
import { clearSandboxFaults, setSandboxFaults } from '../../../server/sandbox/faults';
import { DAY_MS, startBillingServer, SERVER_START_TIMEOUT_MS, V1, type BillingServer } from '../support/billing-helpers';

let server: BillingServer;
let deps: RenewalDeps;
const PASSWORD = 'Bisaya-Demo-2026';
beforeAll(async () => {
  server = await startBillingServer();
  const gateway = createMayaClient({ ...defaultGatewayConfig(0), fetch: ((input: RequestInfo | URL, init?: RequestInit) => server.app.request(String(input), init)) as typeof fetch });
  deps = { db: server.db, gateway, log: () => {}, publicBaseUrl: 'http://localhost', mailer: createMailer(server.db, '') };
}, SERVER_START_TIMEOUT_MS);

const userOf = async (email: string) =>
  (await server.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email])).rows[0]?.id ?? null;
const remove = (token: string, body: unknown) => server.call('POST', `${V1}/account/delete`, { token, body });

describe('asking to delete', () => {
  it('needs a session, the right password and the account email typed', async () => {
    const token = (await server.signIn('canceled@example.com')).json.data.accessToken as string;
    expect((await server.call('POST', `${V1}/account/delete`, { body: { password: PASSWORD, confirmation: 'canceled@example.com' } })).status).toBe(401);
    const wrongPassword = await remove(token, { password: 'not-it-2026', confirmation: 'canceled@example.com' });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.json.message).toBe('Your password is incorrect');
    const wrongEmail = await remove(token, { password: PASSWORD, confirmation: 'free@example.com' });
    expect(wrongEmail.status).toBe(400);
    expect(wrongEmail.json.message).toBe('Type your email address exactly as shown to confirm');
    // Nothing happened.
    expect(await userOf('canceled@example.com')).not.toBeNull();
    expect((await server.call('GET', `${V1}/account/profile`, { token })).status).toBe(200);
  });
});

describe('password guesses at deletion', () => {
  it('count as sign-in guesses: the throttle answers 429 before the password is checked again', async () => {
    expect((await server.call('POST', '/dev/reset')).status).toBe(200);
    const EMAIL = 'free@example.com';
    const token = (await server.signIn(EMAIL)).json.data.accessToken as string;
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await remove(token, { password: `Wrong-guess-${i}`, confirmation: EMAIL })).status);
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses).toContain(429);
    // Sign-in shares the count.
    const signIn = await server.signIn(EMAIL);
    expect(signIn.status).toBe(429);
    expect(await userOf(EMAIL)).not.toBeNull();
  });
});

describe('a deleted account', () => {
  const EMAIL = 'premium@example.com';
  let userId: string;
  let subscriptionId: string;
  let endDate: Date;
  let tokens: string[];
  let refreshToken: string;
  beforeEach(async () => {
    // Every account back as seeded (the demo reset: a deleted one comes back).
    expect((await server.call('POST', '/dev/reset')).status).toBe(200);
  });

  it('is erased in one go: cannot sign in, sessions and codes void, subscription canceled now, invoices kept without personal data', async () => {
    userId = (await userOf(EMAIL))!;
    const first = (await server.signIn(EMAIL)).json.data;
    const second = (await server.signIn(EMAIL)).json.data;
    tokens = [first.accessToken, second.accessToken];
    refreshToken = second.refreshToken;
    await server.db.query(`UPDATE users SET tin = '123-456-789-00000', photo = '/uploads/me.png' WHERE id = $1`, [userId]);
    // A recovery code outstanding, a login link outstanding.
    expect((await server.call('POST', `${V1}/auth/forgot/send-otp`, { body: { email: EMAIL } })).status).toBe(200);
    const sub = (await server.db.query<{ id: string; end_date: Date }>(
      `SELECT id, end_date FROM subscriptions WHERE user_id = $1 AND status = 'ACTIVE' ORDER BY start_date DESC LIMIT 1`, [userId],
    )).rows[0]!;
    subscriptionId = sub.id;
    endDate = sub.end_date;
    const invoicesBefore = (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM tax_documents WHERE user_id = $1', [userId])).rows[0]!.n;
    expect(invoicesBefore).toBeGreaterThan(0);

    const answer = await remove(first.accessToken, { password: PASSWORD, confirmation: ' Premium@Example.com ' });
    expect(answer.status).toBe(200);
    expect(answer.json.message).toBe('Your account has been deleted');

    // Signed out everywhere, cannot sign in, cannot refresh.
    for (const token of tokens) expect((await server.call('GET', `${V1}/account/profile`, { token })).status).toBe(401);
    expect((await server.signIn(EMAIL)).status).not.toBe(200);
    const refreshed = await server.call('POST', `${V1}/auth/refresh-token`, { body: { refreshToken } });
    expect(refreshed.status).not.toBe(200);
    expect((await server.db.query('SELECT 1 FROM sessions WHERE user_id = $1 AND revoked_at IS NULL', [userId])).rows).toHaveLength(0);
    expect((await server.db.query('SELECT 1 FROM otp_challenges WHERE user_id = $1 OR email = $2', [userId, EMAIL])).rows).toHaveLength(0);
    expect((await server.db.query('SELECT 1 FROM login_links WHERE user_id = $1 AND consumed_at IS NULL', [userId])).rows).toHaveLength(0);

    // The profile is gone.
    const row = (await server.db.query<Record<string, unknown>>('SELECT * FROM users WHERE id = $1', [userId])).rows[0]!;
    expect(row).toMatchObject({ email: erasedEmail(userId), first_name: '', last_name: '', middle_name: null, birthdate: null, photo: null, tin: null });
    expect(row.deleted_at).toBeInstanceOf(Date);
    // The subscription canceled at once; no card, no wallet link, no Maya customer kept.
    const after = (await server.db.query<{ status: string; auto_renew: boolean; end_date: Date; next_attempt_at: Date | null }>(
      'SELECT status, auto_renew, end_date, next_attempt_at FROM subscriptions WHERE id = $1', [subscriptionId],
    )).rows[0]!;
    expect(after).toMatchObject({ status: 'CANCELED', auto_renew: false, next_attempt_at: null });
    expect(after.end_date.getTime()).toBeLessThan(endDate.getTime());
    expect((await server.db.query('SELECT 1 FROM saved_cards WHERE user_id = $1', [userId])).rows).toHaveLength(0);
    expect((await server.db.query('SELECT 1 FROM maya_customers WHERE user_id = $1', [userId])).rows).toHaveLength(0);
    // The card is gone at Maya (the sandbox) too.
    expect((await server.db.query(`SELECT 1 FROM sandbox_cards WHERE card_token_id = 'seed-card-premium'`)).rows).toHaveLength(0);
    expect((await server.db.query('SELECT done_at FROM maya_erasures WHERE user_id = $1', [userId])).rows).toEqual([{ done_at: expect.any(Date) }]);

    // Invoices and payment records stay, without the name, email or TIN.
    const documents = await server.db.query<{ buyer_name: string; buyer_email: string; buyer_tin: string | null; total: string }>(
      'SELECT buyer_name, buyer_email, buyer_tin, total::text AS total FROM tax_documents WHERE user_id = $1', [userId],
    );
    expect(documents.rows).toHaveLength(invoicesBefore);
    for (const doc of documents.rows) expect(doc).toMatchObject({ buyer_name: '[erased]', buyer_email: '', buyer_tin: null });
    expect((await server.db.query('SELECT 1 FROM payment_records WHERE user_id = $1', [userId])).rows.length).toBeGreaterThan(0);
    const everything = JSON.stringify((await server.db.query('SELECT * FROM tax_documents WHERE user_id = $1', [userId])).rows);
    for (const personal of [EMAIL, 'Juan', 'Dela Cruz', '123-456-789-00000']) expect(everything).not.toContain(personal);

    // The mail confirms, to the old address, and it is the only mail kept for it.
    const mails = await server.mail(EMAIL);
    expect(mails.map((m) => m.subject)).toEqual([ERASURE_MAIL.subject]);
    // The mail log (the back office's timeline) keeps nothing of the account or its address.
    expect((await server.db.query('SELECT 1 FROM mail_log WHERE user_id = $1 OR lower(to_email) = lower($2)', [userId, EMAIL])).rows).toHaveLength(0);
  });

  it("of an operator takes the role, the authenticator and the recovery codes, and ends the ops sessions", async () => {
    const admin = 'admin@example.com';
    const adminId = (await userOf(admin))!;
    const token = (await server.signIn(admin)).json.data.accessToken as string;
    await server.db.query(`INSERT INTO operator_totp (user_id, secret_encrypted) VALUES ($1, 'sealed') ON CONFLICT (user_id) DO NOTHING`, [adminId]);
    await server.db.query(`INSERT INTO operator_recovery_codes (user_id, code_hash) VALUES ($1, 'hash')`, [adminId]);
    await server.db.query(`INSERT INTO ops_sessions (user_id, token_hash, expires_at) VALUES ($1, 'ops-token-hash', now() + interval '1 hour')`, [adminId]);
    expect((await server.call('GET', '/api/v1/ops/me', { token })).status).toBe(200);
    expect((await remove(token, { password: PASSWORD, confirmation: admin })).status).toBe(200);
    for (const table of ['operator_roles', 'operator_totp', 'operator_recovery_codes']) {
      expect((await server.db.query(`SELECT 1 FROM ${table} WHERE user_id = $1`, [adminId])).rows, table).toHaveLength(0);
    }
    expect((await server.db.query('SELECT 1 FROM ops_sessions WHERE user_id = $1 AND revoked_at IS NULL', [adminId])).rows).toHaveLength(0);
  });

  it('is never charged again: a renewal due after the deletion finds nothing to charge', async () => {
    userId = (await userOf(EMAIL))!;
    const sub = (await server.db.query<{ id: string; end_date: Date }>(
      `SELECT id, end_date FROM subscriptions WHERE user_id = $1 AND status = 'ACTIVE' ORDER BY start_date DESC LIMIT 1`, [userId],
    )).rows[0]!;
    const token = (await server.signIn(EMAIL)).json.data.accessToken as string;
    const paymentsBefore = (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_records WHERE user_id = $1', [userId])).rows[0]!.n;
    expect((await remove(token, { password: PASSWORD, confirmation: EMAIL })).status).toBe(200);
    await server.setClock(new Date(sub.end_date.getTime() + 60_000));
    expect((await dueWork(server.db, await server.clock())).renew).not.toContain(sub.id);
    // A renewal job queued before the deletion runs now.
    expect(await renewSubscription(deps, sub.id)).toBe('skipped');
    await server.setClock(new Date(sub.end_date.getTime() + 3 * DAY_MS));
    expect(await renewSubscription(deps, sub.id)).toBe('skipped');
    expect((await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_records WHERE user_id = $1', [userId])).rows[0]!.n).toBe(paymentsBefore);
    expect((await server.db.query(`SELECT 1 FROM sandbox_payments WHERE created_at > $1`, [sub.end_date])).rows).toHaveLength(0);
    await server.setClock(null);
  });

  it('frees the email: it can sign up again as a new account', async () => {
    const EMAIL2 = 'voucher@example.com';
    const old = (await userOf(EMAIL2))!;
    const token = (await server.signIn(EMAIL2)).json.data.accessToken as string;
    expect((await remove(token, { password: PASSWORD, confirmation: EMAIL2 })).status).toBe(200);
    const body = { email: EMAIL2, password: 'Lami-kaayo-2026', passwordConfirm: 'Lami-kaayo-2026', firstName: 'Nena', lastName: 'Cabahug', birthdate: '1995-03-14' };
    const start = await server.call('POST', `${V1}/auth/sign-up`, { body });
    expect(start.status).toBe(200);
    const code = (await server.mail(EMAIL2)).find((m) => m.otp)?.otp;
    expect(code).toBeTruthy();
    const done = await server.call('POST', `${V1}/auth/sign-up/verify-otp`, { body: { verificationToken: start.json.data.verificationToken, otpCode: code } });
    expect(done.status).toBe(200);
    const fresh = (await userOf(EMAIL2))!;
    expect(fresh).not.toBe(old);
    // The new account starts empty: nothing of the old one's subscriptions.
    const status = await server.call('GET', `${V1}/subscription/status`, { token: done.json.data.accessToken });
    expect(status.json.data?.planType ?? 'FREE').toBe('FREE');
    expect((await server.signIn(EMAIL2, 'Lami-kaayo-2026')).status).toBe(200);
    // The address redeemed BISAYA30 (once per person) before: the new account cannot have it again (newcomer walk).
    const again = await server.call('POST', `${V1}/subscription-voucher/redeem`, { token: done.json.data.accessToken, body: { code: 'BISAYA30' } });
    expect(again.status, again.json.message).toBe(409);
  });

  it('supersedes a hosted checkout still open: nobody can pay it for the erased account', async () => {
    const EMAIL = 'free@example.com';
    const userId = (await userOf(EMAIL))!;
    const token = (await server.signIn(EMAIL)).json.data.accessToken as string;
    const checkout = await server.call('POST', `${V1}/payment/checkout/create`, { token, body: { planId: 1 } });
    expect(checkout.status, checkout.json.message).toBe(200);
    const pending = await server.db.query<{ id: string }>(`SELECT id FROM payment_records WHERE user_id = $1 AND status = 'PENDING'`, [userId]);
    expect(pending.rows).toHaveLength(1);
    expect((await remove(token, { password: PASSWORD, confirmation: EMAIL })).status).toBe(200);
    const records = await server.db.query<{ status: string; superseded: boolean }>(
      `SELECT status, (gateway_response->>'superseded')::boolean AS superseded FROM payment_records WHERE id = $1`, [pending.rows[0]!.id],
    );
    expect(records.rows).toEqual([{ status: 'PAYMENT_EXPIRED', superseded: true }]);
  });

  it('keeps tax documents otherwise unchangeable: any other edit or a delete is still refused', async () => {
    const doc = (await server.db.query<{ id: string }>('SELECT id FROM tax_documents LIMIT 1')).rows[0]!;
    await expect(server.db.query(`UPDATE tax_documents SET total = total WHERE id = $1`, [doc.id])).rejects.toThrow(/never edited or deleted/);
    await expect(server.db.query(`UPDATE tax_documents SET buyer_name = '[erased]', buyer_email = '', buyer_tin = NULL, vat = vat + 1, vatable = vatable - 1 WHERE id = $1`, [doc.id])).rejects.toThrow(/never edited or deleted/);
    await expect(server.db.query(`UPDATE tax_documents SET buyer_name = 'Someone else' WHERE id = $1`, [doc.id])).rejects.toThrow(/never edited or deleted/);
    await expect(server.db.query(`DELETE FROM tax_documents WHERE id = $1`, [doc.id])).rejects.toThrow(/never edited or deleted/);
  });
});

describe('removal at Maya', () => {
  it('is retried until Maya agrees, and a card Maya no longer knows counts as removed', async () => {
    const userId = (await userOf('premium@example.com')) ?? (await userOf('free@example.com'))!;
    await server.db.query(`INSERT INTO maya_erasures (user_id, kind, customer_id, ref, created_at) VALUES ($1, 'CARD', 'cust-1', 'card-a', now()), ($1, 'CARD', 'cust-1', 'card-b', now())`, [userId]);
    let down = true;
    const calls: string[] = [];
    const gateway = {
      async deleteCustomerCard(_customer: string, card: string) {
        calls.push(card);
        if (down) throw new GatewayError(503, 'HTTP_503', 'down');
        if (card === 'card-b') throw new GatewayError(404, 'PY0025', 'Card not found.');
      },
      async deleteWalletLink() {},
    } as unknown as Gateway;
    expect(await eraseAtMaya(server.db, gateway, userId)).toBe(2);
    const failed = await server.db.query<{ attempts: number; last_error: string; done_at: Date | null }>(`SELECT attempts, last_error, done_at FROM maya_erasures WHERE ref IN ('card-a', 'card-b')`);
    expect(failed.rows).toEqual([expect.objectContaining({ attempts: 1, last_error: '503 HTTP_503', done_at: null }), expect.objectContaining({ attempts: 1, done_at: null })]);
    down = false;
    expect(await eraseAtMaya(server.db, gateway, userId)).toBe(0);
    expect(await eraseAtMaya(server.db, gateway, userId)).toBe(0);
    expect(calls).toEqual(['card-a', 'card-b', 'card-a', 'card-b']);
  });
});

describe('deleting while Maya fails (the sandbox fault switch)', () => {
  it.each(['http500', 'http429', 'timeout', 'unreadable'] as const)('with Maya answering %s: the account is erased anyway, the card removal waits and is done once Maya is back', async (mode) => {
    expect((await server.call('POST', '/dev/reset')).status).toBe(200);
    const EMAIL = 'premium@example.com';
    const userId = (await userOf(EMAIL))!;
    const token = (await server.signIn(EMAIL)).json.data.accessToken as string;
    await setSandboxFaults(server.db, { faults: [{ on: 'any', mode, times: 1, ...(mode === 'timeout' ? { holdMs: 10 } : {}) }] });
    try {
      const answer = await remove(token, { password: PASSWORD, confirmation: EMAIL });
      expect(answer.status).toBe(200);
    } finally {
      await clearSandboxFaults(server.db);
    }
    expect((await server.db.query('SELECT email FROM users WHERE id = $1', [userId])).rows).toEqual([{ email: erasedEmail(userId) }]);
    expect((await server.db.query('SELECT 1 FROM saved_cards WHERE user_id = $1', [userId])).rows).toHaveLength(0);
    const open = await server.db.query<{ done_at: Date | null }>('SELECT done_at FROM maya_erasures WHERE user_id = $1', [userId]);
    // 'unreadable' is a 200 Maya did act on: the delete has no answer to read, so it counts as done.
    if (mode === 'unreadable') expect(open.rows).toEqual([{ done_at: expect.any(Date) }]);
    else {
      expect(open.rows).toEqual([{ done_at: null }]);
      expect((await server.db.query(`SELECT 1 FROM sandbox_cards WHERE card_token_id = 'seed-card-premium'`)).rows).toHaveLength(1);
      // The job's retry, once Maya is back.
      expect(await eraseAtMaya(server.db, deps.gateway, userId)).toBe(0);
    }
    expect((await server.db.query(`SELECT 1 FROM sandbox_cards WHERE card_token_id = 'seed-card-premium'`)).rows).toHaveLength(0);
  });
});
