/**
 * Issue 35: voucher campaigns (mint, CSV, redeem through the viewer's own call, one per account or a
 * use limit, disable a code or a batch, expiry) and the finance exports, whose TOTAL rows equal the
 * ledger's sums and what Maya holds.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CODE_PATTERN } from '../../../server/ops/campaigns';
import { VOUCHER_MESSAGES } from '../../../server/billing/vouchers';
import { SERVER_START_TIMEOUT_MS } from '../support/billing-helpers';
import { startOpsServer, type OpsServer, type TestOperator } from '../support/ops-helpers';
import { CANCELED, FREE, newRecords, resetSeams, snapshotPaymentMethods, verifiedCard } from '../support/seams-harness';
import { CONSENT } from '../support/consent';

let server: OpsServer;
let finance: TestOperator;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  server = await startOpsServer();
  await snapshotPaymentMethods(server);
  finance = await server.operator('finance');
}, SERVER_START_TIMEOUT_MS);
beforeEach(async () => {
  await resetSeams(server);
});
afterAll(async () => {
  await server?.db.close();
});

const manilaDay = (at: Date) => new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
const redeem = (email: string, code: string) => server.as(email).post('/subscription-voucher/redeem', { code });

async function mint(overrides: Record<string, unknown> = {}) {
  const at = await server.freezeClock();
  const minted = await finance.post('/voucher-batches', {
    partner: 'Cebu Pacific inflight', count: 5, days: 14, planId: 1, expiresOn: manilaDay(new Date(at.getTime() + 30 * DAY)), perAccount: true, useLimit: null,
    reason: 'Campaign for November', ...overrides,
  });
  expect(minted.status, minted.json.message).toBe(200);
  const detail = await finance.get(`/voucher-batches/${minted.json.data.id}`);
  return { batch: minted.json.data, codes: detail.json.data.codes.map((c: { code: string }) => c.code) as string[], at };
}

describe('voucher campaigns', () => {
  it('mints unguessable codes, lists them as CSV, and a viewer redeems one through the existing call', async () => {
    const { batch, codes } = await mint();
    expect(batch).toMatchObject({ partner: 'Cebu Pacific inflight', count: 5, days: 14, planName: 'Monthly', used: 0, perAccount: true, useLimit: null, disabledAt: null, createdBy: finance.email });
    expect(codes).toHaveLength(5);
    expect(new Set(codes).size).toBe(5);
    for (const code of codes) expect(code).toMatch(CODE_PATTERN);
    const csv = await server.app.request(`/api/v1/ops/voucher-batches/${batch.id}/codes.csv`, { headers: { Authorization: `Bearer ${finance.opsToken}` } });
    expect(csv.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('code,partner,plan,days,expires_on,status,redemptions');
    expect(lines).toHaveLength(6);
    const redeemed = await redeem(FREE, codes[0]!.toLowerCase());
    expect(redeemed.status, redeemed.json.message).toBe(200);
    expect(redeemed.json.data).toMatchObject({ paymentMethod: 'VOUCHER', details: { voucherCode: codes[0], subscriptionDays: 14 } });
    // One per account: a second code of the batch is refused.
    expect((await redeem(FREE, codes[1]!)).json.message).toBe(VOUCHER_MESSAGES.usedByYou);
    // Once per code (no use limit): another viewer cannot use it.
    expect((await redeem(CANCELED, codes[0]!)).json.message).toBe(VOUCHER_MESSAGES.unknown);
    const detail = (await finance.get(`/voucher-batches/${batch.id}`)).json.data;
    expect(detail.batch.used).toBe(1);
    expect(detail.redemptions).toEqual([expect.objectContaining({ code: codes[0], email: FREE })]);
    expect((await finance.get('/voucher-batches')).json.data.batches[0]).toMatchObject({ id: batch.id, used: 1 });
  });

  it('a use limit lets that many accounts redeem one code', async () => {
    const { codes } = await mint({ count: 1, useLimit: 2, perAccount: false });
    expect((await redeem(FREE, codes[0]!)).status).toBe(200);
    expect((await redeem(CANCELED, codes[0]!)).status).toBe(200);
    expect((await redeem('voucher@example.com', codes[0]!)).json.message).toBe(VOUCHER_MESSAGES.unknown);
  });

  it('a disabled code or batch answers the invalid-voucher message; each disable is audited', async () => {
    const { batch, codes } = await mint({ count: 2 });
    const disabled = await finance.post(`/vouchers/${codes[0]}/disable`, { reason: 'Code posted on Facebook' });
    expect(disabled.status, disabled.json.message).toBe(200);
    expect((await redeem(FREE, codes[0]!)).json.message).toBe(VOUCHER_MESSAGES.unknown);
    expect((await finance.post(`/voucher-batches/${batch.id}/disable`, { reason: 'Partner ended the deal' })).status).toBe(200);
    expect((await redeem(FREE, codes[1]!)).json.message).toBe(VOUCHER_MESSAGES.unknown);
    const audit = (await finance.get(`/audit?actor=${encodeURIComponent(finance.email)}`)).json.data.entries.map((e: { action: string }) => e.action);
    expect(audit.slice(0, 3)).toEqual(['voucher_batch.disable', 'voucher.disable', 'voucher_batch.create']);
  });

  it('a code past its expiry date (Manila) answers the expired message', async () => {
    const { codes, at } = await mint({ expiresOn: manilaDay(new Date(Date.now() + 2 * DAY)) });
    await server.setClock(new Date(Math.max(at.getTime(), Date.now()) + 4 * DAY));
    expect((await redeem(FREE, codes[0]!)).json.message).toBe(VOUCHER_MESSAGES.expired);
  });

  it('refuses an expiry in the past, a count beyond 5000, a plan that is not Premium', async () => {
    const at = await server.freezeClock();
    const base = { partner: 'Smart', count: 1, days: 7, planId: 1, expiresOn: manilaDay(new Date(at.getTime() + DAY)), perAccount: true, useLimit: null, reason: 'Test batch' };
    expect((await finance.post('/voucher-batches', { ...base, expiresOn: manilaDay(new Date(at.getTime() - DAY)) })).status).toBe(400);
    expect((await finance.post('/voucher-batches', { ...base, count: 5001 })).status).toBe(400);
    expect((await finance.post('/voucher-batches', { ...base, planId: 3 })).status).toBe(400);
  });
});

const csvOf = async (kind: string, from: string, to: string) => {
  const response = await server.app.request(`/api/v1/ops/exports/${kind}.csv?from=${from}&to=${to}`, { headers: { Authorization: `Bearer ${finance.opsToken}` } });
  expect(response.status).toBe(200);
  return (await response.text()).trim().split('\r\n').map((line) => line.split(','));
};

describe('finance exports', () => {
  it("payments and refunds of a range, their TOTAL rows equal to the ledger's sums and to what Maya holds", async () => {
    const at = await server.freezeClock();
    const card = await verifiedCard(server, FREE);
    expect((await server.as(FREE).post('/payment/vault/create', { ...CONSENT, planId: 1, cardToken: card })).status).toBe(200);
    const record = (await newRecords(server, FREE))[0]!;
    await server.setClock(new Date(at.getTime() + 2 * DAY));
    const refunded = await finance.post(`/payments/${record.id}/reverse`, { amount: '30.00', reason: 'Goodwill for the outage', requestKey: randomUUID() });
    expect(refunded.status, refunded.json.message).toBe(200);
    // A second part: each refund is one row with its own credit memo (never one row per memo of the payment).
    const again = await finance.post(`/payments/${record.id}/reverse`, { amount: '20.00', reason: 'Second goodwill', requestKey: randomUUID() });
    expect(again.status, again.json.message).toBe(200);
    const from = manilaDay(new Date(at.getTime() - DAY));
    const to = manilaDay(new Date(at.getTime() + 3 * DAY));
    const payments = await csvOf('payments', from, to);
    expect(payments[0]).toEqual(['paid_at_manila', 'reference', 'maya_payment_id', 'email', 'method', 'plan', 'amount', 'currency', 'record_status', 'invoice']);
    const total = payments.at(-1)!;
    expect(total[0]).toBe('TOTAL');
    const ledger = (await server.db.query<{ sum: string }>(
      `SELECT COALESCE(sum(amount), 0)::numeric(12, 2)::text AS sum FROM gateway_attempts WHERE reverses IS NULL AND outcome IN ('SUCCEEDED', 'REVERSED') AND paid_at >= $1 AND paid_at < $2`,
      [new Date(`${from}T00:00:00+08:00`), new Date(new Date(`${to}T00:00:00+08:00`).getTime() + DAY)],
    )).rows[0]!.sum;
    const maya = (await server.db.query<{ sum: string }>(`SELECT COALESCE(sum(amount), 0)::numeric(12, 2)::text AS sum FROM sandbox_payments WHERE status IN ('PAYMENT_SUCCESS', 'VOIDED', 'REFUNDED')`)).rows[0]!.sum;
    expect(total[6]).toBe(ledger);
    expect(total[6]).toBe(maya);
    expect(total[6]).toBe('99.00');
    expect(payments.slice(1, -1).map((row) => row[3])).toEqual([FREE]);
    const refunds = await csvOf('refunds', from, to);
    expect(refunds.slice(1, -1)).toEqual([
      [expect.any(String), 'REFUND', record.reference_id, FREE, '30.00', 'PHP', finance.email, 'Goodwill for the outage', expect.stringMatching(/^SB-CM-/)],
      [expect.any(String), 'REFUND', record.reference_id, FREE, '20.00', 'PHP', finance.email, 'Second goodwill', expect.stringMatching(/^SB-CM-/)],
    ]);
    expect(refunds[1]![8]).not.toBe(refunds[2]![8]);
    const refundedAtMaya = (await server.db.query<{ sum: string }>('SELECT COALESCE(sum(refunded_amount), 0)::numeric(12, 2)::text AS sum FROM sandbox_payments')).rows[0]!.sum;
    expect(refunds.at(-1)![0]).toBe('TOTAL');
    expect(refunds.at(-1)![4]).toBe(refundedAtMaya);
    expect(refunds.at(-1)!.slice(4, 7)).toEqual(['50.00', 'PHP', '2']);
    // A range with nothing in it: only the header and a zero TOTAL.
    const empty = await csvOf('payments', '2020-01-01', '2020-01-31');
    expect(empty).toEqual([payments[0], ['TOTAL', '', '', '', '', '', '0.00', 'PHP', '0', '']]);
  });

  it('redemptions of a range with their TOTAL (codes and days); a range over 366 days is refused', async () => {
    const { codes } = await mint({ count: 2, perAccount: false });
    await redeem(FREE, codes[0]!);
    await redeem(CANCELED, codes[1]!);
    const now = await server.clock();
    const rows = await csvOf('redemptions', manilaDay(new Date(now.getTime() - DAY)), manilaDay(now));
    expect(rows.slice(1, -1).map((row) => [row[1], row[2], row[3]]).sort()).toEqual([[codes[0], 'Cebu Pacific inflight', FREE], [codes[1], 'Cebu Pacific inflight', CANCELED]].sort());
    expect(rows.at(-1)).toEqual(['TOTAL', '2', '', '', '28', '']);
    const tooLong = await finance.get('/exports/payments.csv?from=2025-01-01&to=2026-01-02');
    expect(tooLong.status).toBe(400);
  });
});
