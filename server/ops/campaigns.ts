/**
 * Voucher campaigns (issue 35): a batch of codes for a partner, minted at once, each code 12 characters
 * of an unambiguous alphabet from the operating system's random source (SB-XXXX-XXXX-XXXX: about 59
 * bits, so unguessable; the voucher guessing throttle of vouchers.ts applies as to any code). Codes are
 * redeemed through the viewer's own voucher call (billing/vouchers.ts), which honours the batch: one
 * code per account, a use limit per code, the expiry date, a disabled code or batch.
 */
import { randomInt } from 'node:crypto';
import type { VoucherBatch, VoucherBatchRequest } from '../../src/api/ops/schemas';
import { OPS_MESSAGES } from '../../src/api/ops/schemas';
import { MANILA_OFFSET_MS } from '../../src/lib/product';
import { now } from '../platform/clock';
import type { Db, Queryable } from '../platform/db';
import { HttpError } from '../platform/http';
import { writeAudit, type Actor } from './audit';
import { NOT_FOUND, UUID } from './viewers';

export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CODE_PATTERN = /^SB-[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$/;

export function newCode(): string {
  const chars = Array.from({ length: 12 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  return `SB-${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

const manilaToday = (at: Date) => new Date(at.getTime() + MANILA_OFFSET_MS).toISOString().slice(0, 10);
/** The first instant after a Manila day: a code of a batch expiring that day is good until then. */
const afterManilaDay = (day: string) => new Date(new Date(`${day}T00:00:00+08:00`).getTime() + 24 * 60 * 60 * 1000);
const isCalendarDay = (day: string) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;

interface BatchRow {
  id: string;
  partner: string;
  plan_id: number;
  plan_name: string;
  days: number;
  expires_on: string | Date;
  per_account: boolean;
  use_limit: number | null;
  count: number;
  used: number;
  created_by: string;
  created_at: Date;
  disabled_at: Date | null;
}

const BATCH_SELECT = `SELECT b.id, b.partner, b.plan_id, p.name AS plan_name, b.days, to_char(b.expires_on, 'YYYY-MM-DD') AS expires_on, b.per_account, b.use_limit, b.count,
  (SELECT count(*)::int FROM voucher_redemptions r JOIN vouchers v ON v.code = r.code WHERE v.batch_id = b.id) AS used,
  b.created_by, b.created_at, b.disabled_at
  FROM voucher_batches b JOIN plans p ON p.id = b.plan_id`;

const toBatch = (row: BatchRow): VoucherBatch => ({
  id: row.id,
  partner: row.partner,
  planId: row.plan_id,
  planName: row.plan_name,
  days: row.days,
  expiresOn: String(row.expires_on).slice(0, 10),
  perAccount: row.per_account,
  useLimit: row.use_limit,
  count: row.count,
  used: row.used,
  createdBy: row.created_by,
  createdAt: row.created_at.toISOString(),
  disabledAt: row.disabled_at?.toISOString() ?? null,
});

async function batchOf(q: Queryable, id: string): Promise<VoucherBatch> {
  if (!UUID.test(id)) throw new HttpError(404, NOT_FOUND);
  const row = (await q.query<BatchRow>(`${BATCH_SELECT} WHERE b.id = $1`, [id])).rows[0];
  if (!row) throw new HttpError(404, NOT_FOUND);
  return toBatch(row);
}

export async function mintBatch(db: Db, actor: Actor, input: VoucherBatchRequest, requestId: string | null): Promise<VoucherBatch> {
  return db.transaction(async (tx) => {
    const at = await now(tx);
    if (!isCalendarDay(input.expiresOn) || input.expiresOn < manilaToday(at)) throw new HttpError(400, OPS_MESSAGES.expiryInPast);
    const plan = (await tx.query<{ id: number; price: string }>(`SELECT id, price::text AS price FROM plans WHERE id = $1 AND type = 'PREMIUM' AND is_active`, [input.planId])).rows[0];
    if (!plan) throw new HttpError(400, 'Choose a Premium plan.');
    // The VOUCHER plan a redemption subscribes to: the one whose days are nearest the batch's.
    const voucherPlan = (await tx.query<{ id: number }>(`SELECT id FROM plans WHERE type = 'VOUCHER' ORDER BY abs(duration - $1), id LIMIT 1`, [input.days])).rows[0];
    if (!voucherPlan) throw new HttpError(409, 'No voucher plan in the catalog.');
    const batch = (await tx.query<{ id: string }>(
      `INSERT INTO voucher_batches (partner, plan_id, days, expires_on, per_account, use_limit, count, created_by, created_at)
       VALUES ($1, $2, $3, $4::date, $5, $6, $7, $8, $9) RETURNING id`,
      [input.partner, plan.id, input.days, input.expiresOn, input.perAccount, input.useLimit, input.count, actor.email, at],
    )).rows[0]!;
    let made = 0;
    for (let round = 0; made < input.count; round++) {
      if (round === 5) throw new Error('could not mint unique voucher codes');
      const codes = Array.from({ length: input.count - made }, newCode);
      const inserted = await tx.query(
        `INSERT INTO vouchers (code, days, amount, reusable, active, plan_id, terms_plan_id, valid_until, batch_id, use_limit)
         SELECT c, $2, 0, $3, true, $4, $5, $6, $7, $8 FROM unnest($1::text[]) AS c
         ON CONFLICT (code) DO NOTHING RETURNING code`,
        [codes, input.days, (input.useLimit ?? 1) > 1, voucherPlan.id, plan.id, afterManilaDay(input.expiresOn), batch.id, input.useLimit],
      );
      made += inserted.rows.length;
    }
    await writeAudit(tx, actor, {
      action: 'voucher_batch.create', targetType: 'voucher_batch', targetId: batch.id, reason: input.reason,
      after: { partner: input.partner, count: input.count, days: input.days, planId: input.planId, expiresOn: input.expiresOn, perAccount: input.perAccount, useLimit: input.useLimit },
      requestId,
    });
    return batchOf(tx, batch.id);
  });
}

export async function listBatches(db: Db) {
  const rows = await db.query<BatchRow>(`${BATCH_SELECT} ORDER BY b.created_at DESC LIMIT 200`);
  return { batches: rows.rows.map(toBatch) };
}

export async function batchDetail(db: Db, id: string) {
  const batch = await batchOf(db, id);
  const codes = await db.query<{ code: string; disabled_at: Date | null; redemptions: number }>(
    `SELECT v.code, v.disabled_at, (SELECT count(*)::int FROM voucher_redemptions r WHERE r.code = v.code) AS redemptions
     FROM vouchers v WHERE v.batch_id = $1 ORDER BY v.code`,
    [id],
  );
  const redemptions = await db.query<{ code: string; user_id: string; email: string; redeemed_at: Date }>(
    `SELECT r.code, r.user_id, u.email, r.redeemed_at FROM voucher_redemptions r JOIN vouchers v ON v.code = r.code JOIN users u ON u.id = r.user_id
     WHERE v.batch_id = $1 ORDER BY r.redeemed_at DESC`,
    [id],
  );
  return {
    batch,
    codes: codes.rows.map((c) => ({ code: c.code, disabledAt: c.disabled_at?.toISOString() ?? null, redemptions: c.redemptions })),
    redemptions: redemptions.rows.map((r) => ({ code: r.code, userId: r.user_id, email: r.email, redeemedAt: r.redeemed_at.toISOString() })),
  };
}

const csvCell = (value: string | number | null) => {
  const text = value === null ? '' : String(value);
  // A cell a spreadsheet would run as a formula is written as text.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};
export const csvLine = (cells: Array<string | number | null>) => `${cells.map(csvCell).join(',')}\r\n`;

export async function batchCsv(db: Db, id: string): Promise<{ name: string; csv: string }> {
  const detail = await batchDetail(db, id);
  const { batch } = detail;
  let csv = csvLine(['code', 'partner', 'plan', 'days', 'expires_on', 'status', 'redemptions']);
  for (const code of detail.codes) {
    const status = batch.disabledAt || code.disabledAt ? 'disabled' : 'active';
    csv += csvLine([code.code, batch.partner, batch.planName, batch.days, batch.expiresOn, status, code.redemptions]);
  }
  return { name: `vouchers-${batch.partner.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 40)}-${batch.id.slice(0, 8)}.csv`, csv };
}

export async function disableBatch(db: Db, actor: Actor, id: string, reason: string, requestId: string | null) {
  return db.transaction(async (tx) => {
    const before = await batchOf(tx, id);
    if (before.disabledAt) throw new HttpError(409, OPS_MESSAGES.batchDisabled);
    const at = await now(tx);
    await tx.query('UPDATE voucher_batches SET disabled_at = $2 WHERE id = $1', [id, at]);
    await writeAudit(tx, actor, { action: 'voucher_batch.disable', targetType: 'voucher_batch', targetId: id, reason, before: { disabledAt: null }, after: { disabledAt: at.toISOString() }, requestId });
    return batchOf(tx, id);
  });
}

export async function disableCode(db: Db, actor: Actor, code: string, reason: string, requestId: string | null) {
  const upper = code.trim().toUpperCase();
  if (!/^[A-Z0-9-]{1,32}$/.test(upper)) throw new HttpError(404, NOT_FOUND);
  return db.transaction(async (tx) => {
    const row = (await tx.query<{ disabled_at: Date | null; batch_id: string | null }>('SELECT disabled_at, batch_id FROM vouchers WHERE code = $1 FOR UPDATE', [upper])).rows[0];
    if (!row) throw new HttpError(404, NOT_FOUND);
    if (row.disabled_at) throw new HttpError(409, 'This code is disabled.');
    const at = await now(tx);
    await tx.query('UPDATE vouchers SET disabled_at = $2 WHERE code = $1', [upper, at]);
    await writeAudit(tx, actor, {
      action: 'voucher.disable', targetType: 'voucher', targetId: upper, reason, before: { disabledAt: null, batchId: row.batch_id }, after: { disabledAt: at.toISOString() }, requestId,
    });
    return { code: upper, disabledAt: at.toISOString() };
  });
}
