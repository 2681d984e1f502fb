/**
 * Finance exports (issue 35): payments, refunds and voucher redemptions of a range of Manila days as
 * CSV, read from the ledger of gateway attempts (the money Maya moved, billing/ledger.ts), the last row
 * TOTAL. Payments: every charge Maya took (given back later or not), dated when paid. Refunds: every
 * void and refund that succeeded, dated when made, with the operator and reason when it was an
 * operator's (else `system`: a charge that paid for nothing). Redemptions: every voucher code
 * redeemed, its campaign's partner, the days it gave.
 */
import type { ExportKind } from '../../src/api/ops/schemas';
import { OPS_MESSAGES } from '../../src/api/ops/schemas';
import { fromCentavos, toCentavos } from '../../src/lib/vat';
import type { Db } from '../platform/db';
import { HttpError } from '../platform/http';
import { csvLine } from './campaigns';

const DAY = 24 * 60 * 60 * 1000;
const isDay = (day: string) => /^\d{4}-\d{2}-\d{2}$/.test(day) && new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;
/** The instants a range of Manila days covers: [from 00:00+08:00, the day after `to`). */
export function manilaRange(from: string, to: string): { start: Date; end: Date } {
  if (!isDay(from) || !isDay(to) || to < from) throw new HttpError(400, OPS_MESSAGES.dateRange);
  const start = new Date(`${from}T00:00:00+08:00`);
  const end = new Date(new Date(`${to}T00:00:00+08:00`).getTime() + DAY);
  if ((end.getTime() - start.getTime()) / DAY > 366) throw new HttpError(400, OPS_MESSAGES.dateRange);
  return { start, end };
}

const manilaDate = `to_char(%s AT TIME ZONE 'Asia/Manila', 'YYYY-MM-DD HH24:MI')`;
const inManila = (column: string) => manilaDate.replace('%s', column);

export async function exportCsv(db: Db, kind: ExportKind, from: string, to: string): Promise<{ name: string; csv: string }> {
  const { start, end } = manilaRange(from, to);
  const name = `${kind}-${from}-to-${to}.csv`;
  if (kind === 'payments') {
    const rows = await db.query<{ at: string; reference_id: string; maya_id: string | null; email: string; method: string; plan: string | null; amount: string; currency: string; status: string; invoice: string | null }>(
      `SELECT ${inManila('COALESCE(a.paid_at, a.resolved_at, a.created_at)')} AS at, r.reference_id, a.maya_id, u.email, r.payment_method AS method, p.name AS plan,
         a.amount::text AS amount, a.currency, r.status, d.number AS invoice
       FROM gateway_attempts a JOIN payment_records r ON r.id = a.record_id JOIN users u ON u.id = r.user_id
       LEFT JOIN plans p ON p.id = r.plan_id
       LEFT JOIN tax_documents d ON d.payment_record_id = r.id AND d.kind = 'INVOICE' AND r.applied_attempt_id = a.id
       WHERE a.reverses IS NULL AND a.outcome IN ('SUCCEEDED', 'REVERSED')
         AND COALESCE(a.paid_at, a.resolved_at, a.created_at) >= $1 AND COALESCE(a.paid_at, a.resolved_at, a.created_at) < $2
       ORDER BY COALESCE(a.paid_at, a.resolved_at, a.created_at), a.seq`,
      [start, end],
    );
    let csv = csvLine(['paid_at_manila', 'reference', 'maya_payment_id', 'email', 'method', 'plan', 'amount', 'currency', 'record_status', 'invoice']);
    let total = 0;
    for (const r of rows.rows) {
      total += toCentavos(r.amount);
      csv += csvLine([r.at, r.reference_id, r.maya_id, r.email, r.method, r.plan, r.amount, r.currency, r.status, r.invoice]);
    }
    csv += csvLine(['TOTAL', '', '', '', '', '', fromCentavos(total), 'PHP', String(rows.rows.length), '']);
    return { name, csv };
  }
  if (kind === 'refunds') {
    const rows = await db.query<{ at: string; kind: string; reference_id: string; email: string; amount: string; currency: string; by: string; reason: string | null; memo: string | null }>(
      `SELECT ${inManila('COALESCE(a.resolved_at, a.created_at)')} AS at, a.kind, r.reference_id, u.email, a.amount::text AS amount, a.currency,
         COALESCE(l.actor_email, 'system') AS by, l.reason, m.number AS memo
       FROM gateway_attempts a JOIN payment_records r ON r.id = a.record_id JOIN users u ON u.id = r.user_id
       LEFT JOIN audit_log l ON l.id = a.operator_audit_id
       -- Its own memo: an operator's part names its reversal; a reversal of the whole charge has the record's one memo.
       LEFT JOIN tax_documents m ON m.payment_record_id = r.id AND m.kind = 'CREDIT_MEMO'
         AND (m.reversal_attempt_id = a.id OR (m.reversal_attempt_id IS NULL AND a.operator_audit_id IS NULL))
       WHERE a.reverses IS NOT NULL AND a.outcome = 'SUCCEEDED'
         AND COALESCE(a.resolved_at, a.created_at) >= $1 AND COALESCE(a.resolved_at, a.created_at) < $2
       ORDER BY COALESCE(a.resolved_at, a.created_at), a.seq`,
      [start, end],
    );
    let csv = csvLine(['made_at_manila', 'kind', 'reference', 'email', 'amount', 'currency', 'by', 'reason', 'credit_memo']);
    let total = 0;
    for (const r of rows.rows) {
      total += toCentavos(r.amount);
      csv += csvLine([r.at, r.kind, r.reference_id, r.email, r.amount, r.currency, r.by, r.reason, r.memo]);
    }
    csv += csvLine(['TOTAL', '', '', '', fromCentavos(total), 'PHP', String(rows.rows.length), '', '']);
    return { name, csv };
  }
  const rows = await db.query<{ at: string; code: string; partner: string | null; email: string; days: number; plan: string | null }>(
    `SELECT ${inManila('x.redeemed_at')} AS at, x.code, b.partner, u.email, v.days, p.name AS plan
     FROM voucher_redemptions x JOIN vouchers v ON v.code = x.code JOIN users u ON u.id = x.user_id
     LEFT JOIN voucher_batches b ON b.id = v.batch_id LEFT JOIN plans p ON p.id = v.terms_plan_id
     WHERE x.redeemed_at >= $1 AND x.redeemed_at < $2 ORDER BY x.redeemed_at, x.code`,
    [start, end],
  );
  let csv = csvLine(['redeemed_at_manila', 'code', 'partner', 'email', 'days', 'plan']);
  let days = 0;
  for (const r of rows.rows) {
    days += r.days;
    csv += csvLine([r.at, r.code, r.partner, r.email, r.days, r.plan]);
  }
  csv += csvLine(['TOTAL', String(rows.rows.length), '', '', days, '']);
  return { name, csv };
}
