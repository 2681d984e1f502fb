/**
 * Billing's part of erasing an account (issue 36, docs/product.md#erasure), called by identity's
 * deletion.ts in its transaction: the one billing entry point identity may use besides subscriptions and
 * the catalog (.dependency-cruiser.cjs). Then, after the commit, the removals at Maya.
 */
import { now } from '../platform/clock';
import type { Db, Queryable } from '../platform/db';
import { log } from '../platform/log';
import { GatewayError, type Gateway } from '../gateway/maya';
import { supersedeCheckouts } from './purchase';

/** What an erased buyer's name becomes on the tax documents (migration 019 allows exactly this change). */
export const ERASED_NAME = '[erased]';

/** The job queue that retries the removals at Maya (identity/accountJobs.ts). */
export const MAYA_ERASURE_QUEUE = 'account-maya-erasure';

/**
 * In the erasure's transaction: an open hosted checkout is superseded (if it is paid anyway, its period
 * no longer stands and it is given back, settlement.ts); a card or wallet payment on its way is waited
 * for (409, as a purchase waits for it); a renewal on its way is given back when it succeeds, since its
 * subscription ends here. The subscription is canceled now, its access ends now, and it is never charged
 * again. Saved cards and the wallet link are removed here and queued for removal at Maya; the consents'
 * client address is blanked (the consent stays: it is the evidence for the charges it allowed); the tax
 * documents keep everything but the buyer's name, email and TIN.
 */
export async function eraseBilling(tx: Queryable, userId: string, at: Date): Promise<void> {
  await supersedeCheckouts(tx, userId);
  await tx.query(
    `UPDATE subscriptions SET status = 'CANCELED', auto_renew = false, canceled_date = $2, canceled_reason = 'Account deleted',
       end_date = CASE WHEN end_date IS NULL OR end_date > $2 THEN $2 ELSE end_date END,
       next_attempt_at = NULL, scheduled_plan_id = NULL, past_due_end = NULL, updated_at = $2
     WHERE user_id = $1 AND status IN ('ACTIVE', 'PAST_DUE', 'CANCELED') AND (end_date IS NULL OR end_date > $2 OR status <> 'CANCELED')`,
    [userId, at],
  );
  // What Maya holds: queued for removal there, gone here now (nothing can charge them meanwhile).
  await tx.query(
    `INSERT INTO maya_erasures (user_id, kind, customer_id, ref, created_at)
     SELECT $1, 'CARD', COALESCE(c.customer_id, m.customer_id), c.card_token_id, $2
     FROM saved_cards c LEFT JOIN maya_customers m ON m.user_id = c.user_id
     WHERE c.user_id = $1 AND COALESCE(c.customer_id, m.customer_id) IS NOT NULL`,
    [userId, at],
  );
  await tx.query(`INSERT INTO maya_erasures (user_id, kind, ref, created_at) SELECT $1, 'WALLET_LINK', link_id, $2 FROM wallet_links WHERE user_id = $1`, [userId, at]);
  await tx.query('DELETE FROM saved_cards WHERE user_id = $1', [userId]);
  await tx.query('DELETE FROM wallet_links WHERE user_id = $1', [userId]);
  await tx.query('DELETE FROM maya_customers WHERE user_id = $1', [userId]);
  await tx.query('UPDATE renewal_consents SET client_address = NULL WHERE user_id = $1 AND client_address IS NOT NULL', [userId]);
  await tx.query(
    `UPDATE tax_documents SET buyer_name = '${ERASED_NAME}', buyer_email = '', buyer_tin = NULL
     WHERE user_id = $1 AND NOT (buyer_name = '${ERASED_NAME}' AND buyer_email = '' AND buyer_tin IS NULL)`,
    [userId],
  );
}

/**
 * Removes at Maya what an erasure queued (cards, wallet link); answers how many are left. A card or
 * link Maya no longer knows (404) is removed already; any other failure stays for the next try.
 */
export async function eraseAtMaya(db: Db, gateway: Gateway, userId: string): Promise<number> {
  const open = await db.query<{ id: string; kind: 'CARD' | 'WALLET_LINK'; customer_id: string | null; ref: string }>(
    'SELECT id, kind, customer_id, ref FROM maya_erasures WHERE user_id = $1 AND done_at IS NULL ORDER BY created_at',
    [userId],
  );
  let left = 0;
  for (const row of open.rows) {
    try {
      if (row.kind === 'CARD') await gateway.deleteCustomerCard(row.customer_id ?? '', row.ref);
      else await gateway.deleteWalletLink(row.ref);
    } catch (error) {
      if (!(error instanceof GatewayError && error.status === 404)) {
        left++;
        const reason = error instanceof GatewayError ? `${error.status} ${error.code}` : 'error';
        await db.query('UPDATE maya_erasures SET attempts = attempts + 1, last_error = $2 WHERE id = $1', [row.id, reason]);
        log().warn({ erasure: row.kind, reason }, 'Maya removal failed; retried by the job');
        continue;
      }
    }
    await db.query('UPDATE maya_erasures SET attempts = attempts + 1, done_at = $2, last_error = NULL WHERE id = $1', [row.id, await now(db)]);
  }
  return left;
}
