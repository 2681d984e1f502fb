/**
 * "Download my data" (issue 36): the export holds the viewer's own data and nothing secret, and no
 * other account's; a download link works once, only for its owner, and not after it expired; the
 * files are offered 24 hours.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../../server/identity/tokens';
import { dropExpiredExports, EXPORT_OFFERED_MS, EXPORT_STALE_MS, exportHtml, gatherData, requestExport } from '../../../server/identity/dataExport';
import { startBillingServer, SERVER_START_TIMEOUT_MS, V1, type BillingServer } from '../support/billing-helpers';

let server: BillingServer;
const OWNER = 'premium@example.com';
const OTHER = 'free@example.com';
/** Values planted in the other account and among the owner's secrets: none may appear in the owner's files. */
const PLANTED = {
  otherName: 'Zyxwvutsrq',
  otherTin: '987-654-321-00000',
  otherMailSubject: 'Qwertyzxcv subject for the other account',
  otherCardLast4: '9371',
  ownerMailBody: 'SECRET-BODY-4dc1e0',
  ownerOtp: 'QZ7X9K',
};

beforeAll(async () => {
  server = await startBillingServer();
  const other = (await server.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [OTHER])).rows[0]!.id;
  await server.db.query('UPDATE users SET first_name = $2, tin = $3 WHERE id = $1', [other, PLANTED.otherName, PLANTED.otherTin]);
  await server.db.query(`INSERT INTO mailbox (to_email, subject, body) VALUES ($1, $2, 'x')`, [OTHER, PLANTED.otherMailSubject]);
  await server.db.query(
    `INSERT INTO saved_cards (card_token_id, user_id, card_type, first6, last4) VALUES ('other-card-token-77aa', $1, 'visa', '400000', $2)`,
    [other, PLANTED.otherCardLast4],
  );
  // The owner's own secrets: a mail body with a code, a login link, a reset token.
  await server.db.query(`INSERT INTO mailbox (to_email, subject, body, otp) VALUES ($1, 'Your code', $2, $3)`, [OWNER, PLANTED.ownerMailBody, PLANTED.ownerOtp]);
}, SERVER_START_TIMEOUT_MS);

const token = () => server.tokenOf(OWNER);
const call = async (method: string, path: string, body?: unknown, as = OWNER) => server.call(method, `${V1}/account/export${path}`, { token: await server.tokenOf(as), body });
const download = async (linkToken: string, as = OWNER) => {
  const response = await server.app.request(`${V1}/account/export/download?token=${encodeURIComponent(linkToken)}`, { headers: { Authorization: `Bearer ${await server.tokenOf(as)}` } });
  return { status: response.status, text: await response.text(), headers: response.headers };
};
const waitReady = async () => {
  for (let i = 0; i < 100; i++) {
    const state = await call('GET', '');
    if (state.json.data.state !== 'PREPARING') return state;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the export was not prepared');
};

describe('an export', () => {
  it('is prepared by a job after POST and is then READY for 24 hours', async () => {
    expect((await call('GET', '')).json.data).toMatchObject({ state: 'NONE' });
    const started = await call('POST', '');
    expect(started.status).toBe(202);
    expect(['PREPARING', 'READY']).toContain(started.json.data.state);
    const ready = await waitReady();
    expect(ready.json.data.state).toBe('READY');
    expect(new Date(ready.json.data.expiresAt).getTime() - new Date(ready.json.data.readyAt).getTime()).toBe(EXPORT_OFFERED_MS);
  });

  it('holds the profile, subscriptions, payments, invoices, consents, mails, language; no other account, no secret', async () => {
    const link = await call('POST', '/link', { format: 'json' });
    expect(link.status).toBe(200);
    const file = await download(link.json.data.token);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(/attachment; filename="sine-bisaya-data-\d{4}-\d{2}-\d{2}\.json"/);
    const data = JSON.parse(file.text);
    expect(data.profile).toMatchObject({ email: OWNER, firstName: 'Juan', lastName: 'Dela Cruz', language: 'en' });
    expect(data.subscriptions.length).toBeGreaterThan(0);
    expect(data.payments.length).toBeGreaterThan(0);
    expect(data.invoices.length).toBeGreaterThan(0);
    expect(data.savedCards).toEqual([expect.objectContaining({ cardType: 'visa', last4: '1381' })]);
    expect(data.sessions.length).toBeGreaterThan(0);
    // Each sign-in with the device it was made on (issue 36's devices list) and when it was last used.
    expect(Object.keys(data.sessions[0])).toEqual(expect.arrayContaining(['signedInAt', 'signedOutAt', 'lastUsedAt', 'device', 'clientAddress', 'place']));
    expect(data.mailsSent.map((m: { subject: string }) => m.subject)).toContain('Your code');
    for (const key of ['renewalConsents', 'voucherRedemptions']) expect(Array.isArray(data[key])).toBe(true);

    // Secrets: the password hash, tokens, codes, card tokens and numbers, Maya's ids.
    const owner = (await server.db.query<{ id: string; password_hash: string }>('SELECT id, password_hash FROM users WHERE email = $1', [OWNER])).rows[0]!;
    const maya = await server.db.query<{ customer_id: string }>('SELECT customer_id FROM maya_customers WHERE user_id = $1', [owner.id]);
    const refresh = await server.db.query<{ token_hash: string }>('SELECT token_hash FROM refresh_tokens WHERE user_id = $1', [owner.id]);
    const secrets = [
      owner.password_hash, 'scrypt$', 'seed-card-premium', '412345', (await token()), PLANTED.ownerMailBody, PLANTED.ownerOtp, link.json.data.token, sha256(link.json.data.token),
      ...maya.rows.map((r) => r.customer_id), ...refresh.rows.map((r) => r.token_hash),
    ];
    const others = [OTHER, PLANTED.otherName, PLANTED.otherTin, PLANTED.otherMailSubject, PLANTED.otherCardLast4, 'other-card-token-77aa'];
    const html = await download((await call('POST', '/link', { format: 'html' })).json.data.token);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html.text).toContain('Dela Cruz');
    for (const text of [file.text, html.text]) {
      for (const secret of secrets) expect(text, `a secret in the export: ${secret.slice(0, 12)}`).not.toContain(secret);
      for (const value of others) expect(text, `another account's ${value}`).not.toContain(value);
    }
  });

  it('is gathered by the viewer id only (the other account gets its own, not the owner\'s)', async () => {
    const other = (await server.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [OTHER])).rows[0]!.id;
    const text = JSON.stringify(await gatherData(server.db, other));
    expect(text).toContain(PLANTED.otherName);
    expect(text).not.toContain(OWNER);
    expect(text).not.toContain('Dela Cruz');
  });
});

describe('the readable page', () => {
  it('is written in the viewer\'s language, its values escaped', async () => {
    const other = (await server.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [OTHER])).rows[0]!.id;
    const data = (await gatherData(server.db, other))!;
    const en = exportHtml({ ...data, profile: { ...data.profile, lastName: '<script>alert(1)</script>' } });
    expect(en).toContain('<h1>Your data at Sine Bisaya</h1>');
    expect(en).toContain('<h2>Sign-ins</h2>');
    expect(en).not.toContain('<script>alert(1)</script>');
    expect(en).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const ceb = exportHtml({ ...data, profile: { ...data.profile, language: 'ceb' } });
    expect(ceb).toContain('<html lang="ceb">');
    expect(ceb).toContain('<h1>Imong data sa Sine Bisaya</h1>');
    expect(ceb).toContain('<h2>Mga pag-sign in</h2>');
    expect(ceb).toMatch(/Tanan nga gitipigan sa Sine Bisaya bahin sa imong account, giandam .+\./);
    // Column labels in the reader's language, instants as the app writes them (the JSON keeps ISO).
    expect(en).toContain('<th scope="col">Last Name</th>');
    expect(ceb).toContain('<th scope="col">Apelyido</th>');
    expect(ceb).toContain('<th scope="col">Petsa sa Pagkatawo</th>');
    expect(en).not.toMatch(/<td>\d{4}-\d{2}-\d{2}T/);
  });
});

describe('a download link', () => {
  it('works once', async () => {
    const link = (await call('POST', '/link', { format: 'json' })).json.data.token as string;
    expect((await download(link)).status).toBe(200);
    const again = await download(link);
    expect(again.status).toBe(404);
    expect(again.text).not.toContain(OWNER);
  });

  it('works only with its owner\'s session: not without one, not with another account\'s', async () => {
    const link = (await call('POST', '/link', { format: 'json' })).json.data.token as string;
    const anonymous = await server.app.request(`${V1}/account/export/download?token=${encodeURIComponent(link)}`);
    expect(anonymous.status).toBe(401);
    const stranger = await download(link, OTHER);
    expect(stranger.status).toBe(404);
    expect(stranger.text).not.toContain(OWNER);
    // Neither spent it: the owner still can.
    expect((await download(link)).status).toBe(200);
  });

  it('does not work with a made-up token', async () => {
    expect((await download('not-a-token')).status).toBe(404);
  });

  it('expires with its minutes, and the files after 24 hours', async () => {
    const link = (await call('POST', '/link', { format: 'json' })).json.data.token as string;
    const at = await server.clock();
    await server.setClock(new Date(at.getTime() + 6 * 60 * 1000));
    expect((await download(link)).status).toBe(404);
    const fresh = (await call('POST', '/link', { format: 'html' })).json.data.token as string;
    await server.setClock(new Date(at.getTime() + EXPORT_OFFERED_MS + 60_000));
    expect((await download(fresh)).status).toBe(404);
    expect((await call('GET', '')).json.data.state).toBe('EXPIRED');
    expect((await call('POST', '/link', { format: 'json' })).status).toBe(409);
    const files = await server.db.query(`SELECT 1 FROM data_exports WHERE json IS NOT NULL OR html IS NOT NULL`);
    expect(files.rows).toHaveLength(0);
    await server.setClock(null);
  });

  it('is refused before the export is ready, and the calls need a session', async () => {
    expect((await server.call('POST', `${V1}/account/export`)).status).toBe(401);
    expect((await server.call('GET', `${V1}/account/export`)).status).toBe(401);
    const link = await call('POST', '/link', { format: 'json' }, OTHER);
    expect(link.status).toBe(409);
    expect((await call('POST', '/link', { format: 'pdf' })).status).toBe(400);
  });
});

describe('housekeeping', () => {
  it('a copy whose job was lost counts as failed after two minutes, and can be asked for again', async () => {
    const userId = (await server.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', ['canceled@example.com'])).rows[0]!.id;
    // Asked for, but no job ever runs for it.
    const { id } = await requestExport(server.db, userId);
    const token = await server.tokenOf('canceled@example.com');
    expect((await server.call('GET', `${V1}/account/export`, { token })).json.data.state).toBe('PREPARING');
    const at = await server.clock();
    await server.setClock(new Date(at.getTime() + EXPORT_STALE_MS));
    expect((await server.call('GET', `${V1}/account/export`, { token })).json.data.state).toBe('FAILED');
    expect((await server.db.query<{ state: string }>('SELECT state FROM data_exports WHERE id = $1', [id])).rows[0]!.state).toBe('FAILED');
    expect((await server.call('POST', `${V1}/account/export`, { token })).status).toBe(202);
    await server.setClock(null);
  });

  it('drops files past their 24 hours without anyone asking', async () => {
    // The copy asked for again above, once ready.
    await expect.poll(async () => (await server.db.query(`SELECT 1 FROM data_exports WHERE state = 'READY' AND json IS NOT NULL`)).rows.length).toBeGreaterThan(0);
    const at = await server.clock();
    await server.setClock(new Date(at.getTime() + EXPORT_OFFERED_MS + 60_000));
    await dropExpiredExports(server.db);
    expect((await server.db.query(`SELECT 1 FROM data_exports WHERE json IS NOT NULL OR html IS NOT NULL`)).rows).toHaveLength(0);
    await server.setClock(null);
  });
});
