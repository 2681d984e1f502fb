/**
 * Issue 35: who may operate. Operator sign-in is the normal sign-in plus TOTP (a code's step used once,
 * wrong codes throttled), recovery codes are single use, ops sessions are short (15 minutes idle, 8 hours
 * at most) and end with sign-out, a role change, and the viewer's password change; the secret is sealed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS, OPS_MESSAGES } from '../../../src/api/ops/schemas';
import { SERVER_START_TIMEOUT_MS } from '../support/billing-helpers';
import { startOpsServer, totpCode, type OpsServer } from '../support/ops-helpers';

let server: OpsServer;
beforeAll(async () => {
  server = await startOpsServer();
}, SERVER_START_TIMEOUT_MS);
afterAll(async () => {
  await server?.db.close();
});

describe('operator sign-in', () => {
  it('a seeded operator is not enrolled; enrols with a code, gets ten recovery codes and a session', async () => {
    const signIn = await server.signIn('support@example.com');
    const viewer = server.opsAs(signIn.json.data.accessToken);
    const me = await viewer.get('/me');
    expect(me.status).toBe(200);
    expect(me.json.data).toEqual({ email: 'support@example.com', name: 'Sam Support', role: 'support', enrolled: false });
    // Verifying before enrolling is refused.
    expect((await viewer.post('/session', { code: '123456' })).status).toBe(409);
    const enrol = await viewer.post('/enrol');
    expect(enrol.json.data.otpauthUrl).toMatch(/^otpauth:\/\/totp\/.*secret=[A-Z2-7]+.*algorithm=SHA1.*digits=6.*period=30/);
    // A second enrol replaces the pending secret.
    const again = await viewer.post('/enrol');
    expect(again.json.data.secret).not.toBe(enrol.json.data.secret);
    const wrong = await viewer.post('/enrol/confirm', { code: totpCode(enrol.json.data.secret) });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toBe(OPS_MESSAGES.wrongCode);
    const confirmed = await viewer.post('/enrol/confirm', { code: totpCode(again.json.data.secret) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.json.data.recoveryCodes).toHaveLength(10);
    for (const code of confirmed.json.data.recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect(confirmed.json.data.session.operator).toEqual({ email: 'support@example.com', name: 'Sam Support', role: 'support' });
    expect(confirmed.json.data.session.opsToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await viewer.get('/me')).json.data.enrolled).toBe(true);
    // Enrolled: no second enrolment.
    expect((await viewer.post('/enrol')).status).toBe(409);
    // The ops token opens the operator calls.
    expect((await server.opsAs(confirmed.json.data.session.opsToken).get('/queues')).status).toBe(200);
    // The secret is stored sealed, never as it is.
    const stored = (await server.db.query<{ secret_encrypted: string }>(`SELECT secret_encrypted FROM operator_totp t JOIN users u ON u.id = t.user_id WHERE u.email = 'support@example.com'`)).rows[0]!;
    expect(stored.secret_encrypted).not.toContain(again.json.data.secret);
    expect(stored.secret_encrypted.startsWith('v1.')).toBe(true);
    expect(server.logs.join('\n')).not.toContain(again.json.data.secret);
  });

  it('refuses a TOTP code used once already (replay), takes the next step once', async () => {
    const op = await server.operator('support');
    const viewer = server.opsAs(op.accessToken);
    // The code that confirmed the enrolment cannot open a session.
    const replay = await viewer.post('/session', { code: totpCode(op.secret) });
    expect(replay.status).toBe(400);
    expect(replay.json.message).toBe(OPS_MESSAGES.wrongCode);
    // In the operator's language (the catalogs: messages/ceb.json).
    const inBisaya = await server.call('POST', `${OPS}/session`, { token: op.accessToken, body: { code: '000000' }, headers: { 'Accept-Language': 'ceb' } });
    expect(inBisaya.json.message).toBe('Sayop ang code.');
    const next = totpCode(op.secret, Date.now() + 30_000);
    expect((await viewer.post('/session', { code: next })).status).toBe(200);
    expect((await viewer.post('/session', { code: next })).status).toBe(400);
  });

  it('a recovery code opens one session, once', async () => {
    const op = await server.operator('finance');
    const viewer = server.opsAs(op.accessToken);
    const code = op.recoveryCodes[3]!;
    const first = await viewer.post('/session', { code: code.toUpperCase() });
    expect(first.status).toBe(200);
    expect(first.json.data.session.operator.role).toBe('finance');
    const second = await viewer.post('/session', { code });
    expect(second.status).toBe(400);
    expect(second.json.message).toBe(OPS_MESSAGES.wrongCode);
    // Another one still works.
    expect((await viewer.post('/session', { code: op.recoveryCodes[4]! })).status).toBe(200);
  });

  it('wrong codes are throttled per operator (429 with Retry-After); waiting does not grow it', async () => {
    const op = await server.operator('support');
    const viewer = server.opsAs(op.accessToken);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await viewer.post('/session', { code: '000000' })).status);
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    const throttled = await viewer.post('/session', { code: totpCode(op.secret, Date.now() + 30_000) });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('Retry-After'))).toBeGreaterThan(0);
  });
});

describe('ops sessions', () => {
  it('end after 15 minutes idle, and after 8 hours whatever the use (401, then verify again)', async () => {
    const op = await server.operator('support');
    expect((await op.get('/queues')).status).toBe(200);
    await server.db.query(`UPDATE ops_sessions SET last_used_at = now() - interval '16 minutes' WHERE user_id = $1`, [op.userId]);
    const idle = await op.get('/queues');
    expect(idle.status).toBe(401);
    expect(idle.json.message).toBe(OPS_MESSAGES.sessionExpired);
    const fresh = await server.opsAs(op.accessToken).post('/session', { code: op.recoveryCodes[0]! });
    const token = fresh.json.data.session.opsToken as string;
    // Used 14 minutes ago: still open, and the use starts its idle time again.
    await server.db.query(`UPDATE ops_sessions SET last_used_at = now() - interval '14 minutes' WHERE user_id = $1 AND revoked_at IS NULL`, [op.userId]);
    expect((await server.opsAs(token).get('/queues')).status).toBe(200);
    expect((await server.opsAs(token).get('/queues')).status).toBe(200);
    await server.db.query(`UPDATE ops_sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [op.userId]);
    expect((await server.opsAs(token).get('/queues')).status).toBe(401);
  });

  it('end with sign-out of the back office', async () => {
    const op = await server.operator('support');
    expect((await op.post('/session/end')).status).toBe(200);
    expect((await op.get('/queues')).status).toBe(401);
  });

  it("end when the viewer's password changes (credentials.ts)", async () => {
    const op = await server.operator('support');
    const changed = await server.call('PUT', '/api/v1/mobile/account/password', {
      token: op.accessToken, body: { oldPassword: 'Bisaya-Demo-2026', newPassword: 'Another-Pass-2027', confirmNewPassword: 'Another-Pass-2027' },
    });
    expect(changed.status).toBe(200);
    expect((await op.get('/queues')).status).toBe(401);
  });

  it('a role change ends them (401); a role removed makes the token nobody (404)', async () => {
    const op = await server.operator('support');
    const admin = await server.operator('admin');
    const promoted = await admin.post('/operators', { email: op.email, role: 'finance', reason: 'Moves to the finance team' });
    expect(promoted.status).toBe(200);
    expect(promoted.json.data.role).toBe('finance');
    expect((await op.get('/queues')).status).toBe(401);
    const session = await server.opsAs(op.accessToken).post('/session', { code: op.recoveryCodes[1]! });
    const token = session.json.data.session.opsToken as string;
    expect((await server.opsAs(token).get('/voucher-batches')).status).toBe(200);
    expect((await admin.post('/operators', { email: op.email, role: 'none', reason: 'Left the company' })).status).toBe(200);
    const gone = await server.opsAs(token).get('/queues');
    expect(gone.status).toBe(404);
    expect(gone.json.message).toBe(`No route for GET ${OPS}/queues`);
    expect((await server.opsAs(op.accessToken).get('/me')).status).toBe(404);
  });

  it("an admin revokes another operator's sessions (one audit entry)", async () => {
    const op = await server.operator('support');
    const admin = await server.operator('admin');
    const revoked = await admin.post(`/operators/${op.userId}/sessions/revoke`, { reason: 'Laptop lost on the jeepney' });
    expect(revoked.status).toBe(200);
    expect(revoked.json.data.revoked).toBe(1);
    expect((await op.get('/queues')).status).toBe(401);
    const audit = await admin.get(`/audit?action=operator.sessions.revoke&userId=${op.userId}`);
    expect(audit.json.data.entries).toHaveLength(1);
    expect(audit.json.data.entries[0]).toMatchObject({ actorEmail: admin.email, actorRole: 'admin', reason: 'Laptop lost on the jeepney', after: { revoked: 1 } });
  });

  it('the operators list shows roles, enrolment and open sessions (admin only)', async () => {
    const admin = await server.operator('admin');
    const list = await admin.get('/operators');
    expect(list.status).toBe(200);
    const me = list.json.data.operators.find((o: { email: string }) => o.email === admin.email);
    expect(me).toMatchObject({ role: 'admin', enrolled: true, grantedBy: 'dev:/dev/operators', activeSessions: 1 });
    expect(list.json.data.operators.find((o: { email: string }) => o.email === 'admin@example.com')).toMatchObject({ role: 'admin', enrolled: false, grantedBy: 'seed' });
  });
});

describe('the sealing key and a JWT_SECRET rotation', () => {
  it('a secret sealed with the previous secret\'s key still opens, and is sealed again with the current one; an unknown key opens nothing', async () => {
    const { confirmEnrolment, deriveOpsKey, operatorOf, startEnrolment, verifyCode } = await import('../../../server/ops/auth');
    const { randomBytes } = await import('node:crypto');
    const [oldKey, newKey, strangerKey] = [randomBytes(32), randomBytes(32), randomBytes(32)].map(deriveOpsKey);
    const email = 'voucher@example.com';
    expect((await server.call('POST', '/dev/operators', { body: { email, role: 'support' } })).status).toBe(200);
    const userId = (await server.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email])).rows[0]!.id;
    expect((await server.signIn(email)).status).toBe(200);
    const viewerSessionId = (await server.db.query<{ id: string }>('SELECT id FROM sessions WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1', [userId])).rows[0]!.id;
    const operator = (await operatorOf(server.db, userId))!;
    const context = (nowMs: number) => ({ viewerSessionId, client: '127.0.0.1', userAgent: null, nowMs });
    const start = Date.now();
    // Enrolled under the old secret.
    const { secret } = await startEnrolment(server.db, [oldKey!], operator);
    await confirmEnrolment(server.db, [oldKey!], operator, totpCode(secret, start), context(start));
    const sealed = async () => (await server.db.query<{ s: string }>('SELECT secret_encrypted AS s FROM operator_totp WHERE user_id = $1', [userId])).rows[0]!.s;
    const before = await sealed();
    // After the rotation: JWT_SECRET is new, JWT_SECRET_PREVIOUS the old one. The code passes and the secret is sealed anew.
    const later = start + 60_000;
    await expect(verifyCode(server.db, [newKey!, oldKey!], { ...operator, enrolled: true }, totpCode(secret, later), context(later))).resolves.toMatchObject({ opsToken: expect.any(String) });
    expect(await sealed()).not.toBe(before);
    // With the previous secret gone, the new key alone opens it.
    const after = start + 120_000;
    await expect(verifyCode(server.db, [newKey!], { ...operator, enrolled: true }, totpCode(secret, after), context(after))).resolves.toMatchObject({ opsToken: expect.any(String) });
    // A key it was never sealed with opens nothing.
    const last = start + 180_000;
    await expect(verifyCode(server.db, [strangerKey!], { ...operator, enrolled: true }, totpCode(secret, last), context(last))).rejects.toThrow();
  });
});
