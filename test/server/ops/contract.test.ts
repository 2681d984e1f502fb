/**
 * Issue 35: the console's calls (src/api/ops/endpoints.ts) against the server, every one, through the
 * app's own request function: each answer must parse with its zod schema (src/api/ops/schemas.ts), so
 * the console and the server agree on every shape. A 401 on an ops call reaches `onOpsUnauthorized`.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpsApi } from '../../../src/api/ops/endpoints';
import { SERVER_START_TIMEOUT_MS } from '../support/billing-helpers';
import { startOpsServer, totpCode, type OpsServer } from '../support/ops-helpers';
import { FREE, newRecords, PREMIUM, resetSeams, snapshotPaymentMethods, verifiedCard } from '../support/seams-harness';
import { CONSENT } from '../support/consent';

let server: OpsServer;

beforeAll(async () => {
  server = await startOpsServer();
  await snapshotPaymentMethods(server);
  await resetSeams(server);
}, SERVER_START_TIMEOUT_MS);
afterAll(async () => {
  await server?.db.close();
});

describe('the console calls, each answer read with its schema', () => {
  it('walks every call as an admin would', async () => {
    const at = await server.freezeClock();
    const card = await verifiedCard(server, FREE);
    expect((await server.as(FREE).post('/payment/vault/create', { ...CONSENT, planId: 1, cardToken: card })).status).toBe(200);
    const record = (await newRecords(server, FREE))[0]!;
    const email = `contract-${Date.now()}@example.com`;
    expect((await server.call('POST', '/dev/operators', { body: { email, role: 'admin' } })).status).toBe(200);
    const viewerToken = (await server.signIn(email)).json.data.accessToken as string;
    let opsToken: string | null = null;
    let expired = 0;
    const api = createOpsApi({
      host: '',
      getViewerToken: () => viewerToken,
      getOpsToken: () => opsToken,
      onViewerUnauthorized: () => {},
      onOpsUnauthorized: () => expired++,
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => server.app.request(String(input), init)) as typeof fetch,
    });

    expect(await api.me()).toEqual({ email, name: 'Test Operator', role: 'admin', enrolled: false });
    const { secret, otpauthUrl } = await api.enrol();
    expect(otpauthUrl).toContain('otpauth://totp/');
    const enrolled = await api.confirmEnrol({ code: totpCode(secret) });
    expect(enrolled.recoveryCodes).toHaveLength(10);
    opsToken = enrolled.session.opsToken;
    opsToken = (await api.startSession({ code: totpCode(secret, Date.now() + 30_000) })).session.opsToken;

    const found = await api.search({ q: record.reference_id });
    expect(found.results[0]!.matchedBy).toBe('reference');
    const timeline = await api.viewer({ userId: found.results[0]!.userId });
    const payment = timeline.payments.find((p) => p.id === record.id)!;
    expect((await api.mayaView({ attemptId: payment.attempts[0]!.id })).status).toBe('PAYMENT_SUCCESS');
    expect(Object.keys(await api.queues())).toEqual(['pastDue', 'ourFault', 'stuck', 'reversals', 'unverifiedWebhooks']);

    const subscriptionId = timeline.subscriptions[0]!.id;
    const reason = 'Contract walk: every call once';
    expect((await api.extend({ subscriptionId, days: 2, reason })).subscription.id).toBe(subscriptionId);
    expect((await api.setDunning({ subscriptionId, stopped: true, reason })).subscription.dunningStopped).toBe(true);
    await expect(api.retry({ subscriptionId, reason })).rejects.toMatchObject({ status: 409 });
    expect((await api.resolveRecord({ recordId: record.id, reason })).status).toBe('PAYMENT_SUCCESS');
    expect((await api.resendMail({ mailId: timeline.mails[0]!.id, reason })).to).toBe(FREE);
    expect(await api.reverse({ recordId: record.id, amount: payment.reversible.maxAmount, reason, requestKey: randomUUID() })).toEqual({ kind: 'void', amount: '99.00', outcome: 'SUCCEEDED' });
    expect((await api.cancel({ subscriptionId, when: 'now', reason })).subscription.status).toBe('EXPIRED');

    const expiresOn = new Date(at.getTime() + 20 * 86_400_000).toISOString().slice(0, 10);
    const batch = await api.createVoucherBatch({ partner: 'Smart', count: 3, days: 7, planId: 1, expiresOn, perAccount: true, useLimit: null, reason });
    expect((await api.voucherBatches()).batches[0]!.id).toBe(batch.id);
    const detail = await api.voucherBatch({ batchId: batch.id });
    expect(detail.codes).toHaveLength(3);
    const csv = await api.voucherBatchCsv({ batchId: batch.id });
    expect((await csv.text()).split('\r\n')[0]).toBe('code,partner,plan,days,expires_on,status,redemptions');
    expect((await api.disableVoucher({ code: detail.codes[0]!.code, reason })).code).toBe(detail.codes[0]!.code);
    expect((await api.disableVoucherBatch({ batchId: batch.id, reason })).disabledAt).not.toBeNull();
    const from = new Date(at.getTime() - 86_400_000).toISOString().slice(0, 10);
    const to = new Date(at.getTime() + 86_400_000).toISOString().slice(0, 10);
    for (const kind of ['payments', 'refunds', 'redemptions'] as const) {
      const lines = (await (await api.exportCsv({ kind, from, to })).text()).trim().split('\r\n');
      expect(lines.at(-1)!.startsWith('TOTAL,'), kind).toBe(true);
    }

    const granted = await api.grant({ email: PREMIUM, role: 'support', reason });
    expect(granted).toMatchObject({ email: PREMIUM, role: 'support' });
    expect((await api.operators()).operators.some((o) => o.email === PREMIUM)).toBe(true);
    expect((await api.revokeSessions({ userId: granted.userId, reason })).revoked).toBe(0);
    const audit = await api.audit({ actor: email });
    // extend, dunning, resolve, resend, reverse, cancel, mint, disable a code, disable the batch, grant, revoke (the refused retry wrote none).
    expect(audit.entries.map((e) => e.action).sort()).toEqual([
      'mail.resend', 'operator.grant', 'operator.sessions.revoke', 'payment.reverse', 'record.resolve', 'subscription.cancel', 'subscription.dunning',
      'subscription.extend', 'voucher.disable', 'voucher_batch.create', 'voucher_batch.disable',
    ]);

    await api.endSession();
    expect(expired).toBe(0);
    await expect(api.queues()).rejects.toMatchObject({ status: 401, message: 'Your operator session has expired. Please verify again.' });
    expect(expired).toBe(1);
  });
});
