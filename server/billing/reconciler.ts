/**
 * The reconciler (issue 32, product.md#reconciler): the job that keeps the ledger true to Maya. Run by
 * the billing engine on the job queue (one run at a time across processes), and by tests and QA at will.
 * Each pass:
 * - reads at Maya every record whose look is due (`recheck_at`): attempts whose answer was lost are
 *   resolved by reference number; a PENDING record Maya holds nothing for expires; a late success is
 *   applied if its period still stands, else given back; a second success is given back; a payment
 *   reversed in Maya's own dashboard ends the period it paid;
 * - gives back every charge marked for it (void the same Manila day, refund after; reversals.ts);
 * - follows each decision: dunning for a renewal declined, a receipt for every payment (receipts.ts).
 * Safe to run twice at once: every write is guarded, every reversal held by the database.
 */
import { now } from '../platform/clock';
import type { RenewalDeps } from './renewals';
import { renewalDecided } from './renewals';
import { mailDueReceipts } from './receipts';
import { reverseAttempt, reverseDue } from './reversals';
import { findRecord, GatewayReadError, settleRecord } from './settlement';

export interface ReconcileReport {
  /** Records read at Maya. */
  read: number;
  /** Of those, the reads that failed (tried again later). */
  unreadable: number;
  /** Records paid, failed or expired by this pass. */
  decided: number;
  /** Charges given back. */
  reversed: number;
  receipts: number;
}

export interface ReconcileOptions {
  /** Real time the pass reads as now (tests move it forward instead of waiting). */
  realNow?: Date;
  /** Records per pass. */
  limit?: number;
}

export async function reconcile(deps: RenewalDeps, options: ReconcileOptions = {}): Promise<ReconcileReport> {
  const { db, log } = deps;
  const realNow = options.realNow ?? new Date();
  const limit = options.limit ?? 200;
  const report: ReconcileReport = { read: 0, unreadable: 0, decided: 0, reversed: 0, receipts: 0 };
  // Each record is pushed forward before it is read, so two passes at once read it once.
  const due = await db.query<{ id: string; status: string }>(
    `UPDATE payment_records SET recheck_at = $2 WHERE id IN (
       SELECT id FROM payment_records WHERE recheck_at <= $1 ORDER BY recheck_at LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING id, status`,
    [realNow, new Date(realNow.getTime() + 60_000), limit],
  );
  for (const row of due.rows) {
    report.read++;
    try {
      const decision = await settleRecord(deps, row.id, 'always', realNow.getTime(), true);
      if (decision && decision.status !== row.status) {
        report.decided++;
        log(`reconciler: payment record ${row.id} ${row.status} -> ${decision.status}`);
      }
      await renewalDecided(deps, decision);
    } catch (error) {
      if (!(error instanceof GatewayReadError)) throw error;
      report.unreadable++;
    }
  }
  const reversals = await db.query<{ id: string }>(`SELECT id FROM gateway_attempts WHERE reversal_due ORDER BY made_at LIMIT $1`, [limit]);
  for (const row of reversals.rows) if ((await reverseAttempt(deps, row.id)) === 'reversed') report.reversed++;
  report.receipts = await mailDueReceipts(deps);
  if (report.decided || report.reversed || report.unreadable) {
    log(`reconciler: ${report.read} read (${report.unreadable} unreadable), ${report.decided} decided, ${report.reversed} given back, ${report.receipts} receipts at ${(await now(db)).toISOString()}`);
  }
  return report;
}

/**
 * A verified webhook names a payment by our reference: the record is read at Maya (never believed from
 * the body) and decided; what follows the decision is done (receipt, dunning, a reversal). Answers the
 * record's status, 'UNKNOWN' for a reference that is not ours, or null when Maya could not be read (the
 * route then answers non-2xx, so Maya delivers the webhook again).
 */
export async function settleFromWebhook(deps: Pick<RenewalDeps, 'db' | 'gateway' | 'log' | 'publicBaseUrl'> & { mailer?: RenewalDeps['mailer'] }, referenceId: string): Promise<string | null> {
  const record = await findRecord(deps.db, 'reference_id', referenceId);
  if (!record) return 'UNKNOWN';
  let decision;
  try {
    decision = await settleRecord(deps, record.id, 'always');
  } catch (error) {
    if (error instanceof GatewayReadError) return null;
    throw error;
  }
  if (deps.mailer) await renewalDecided(deps as RenewalDeps, decision);
  await reverseDue(deps, record.id);
  return (await findRecord(deps.db, 'id', record.id))?.status ?? 'UNKNOWN';
}

/**
 * One record reconciled now (the back office's "resolve", issue 35): read at Maya, decided, and what
 * follows done (receipt, dunning, a reversal due). Answers the record's status afterwards, or null
 * when Maya could not be read (nothing changed).
 */
export async function reconcileNow(deps: RenewalDeps, recordId: string): Promise<string | null> {
  let decision;
  try {
    decision = await settleRecord(deps, recordId, 'always');
  } catch (error) {
    if (error instanceof GatewayReadError) return null;
    throw error;
  }
  await renewalDecided(deps, decision);
  return reverseDue(deps, recordId);
}
