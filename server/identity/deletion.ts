/**
 * "Delete my account" (issue 36, docs/product.md#erasure). After the current password and the typed
 * email, one transaction:
 * - the live subscription is canceled at once and can never be charged again (CANCELED, auto-renew off,
 *   no next attempt, its access ends now: a renewal job already queued finds nothing due);
 * - every session, refresh token, login link, reset token and code is void;
 * - the profile is erased (names, birthdate, phone, gender, photo, TIN) and the email replaced by one
 *   that cannot be typed, so the address can sign up again; the password can never match;
 * - payment records and tax documents stay for the tax retention period, the documents' buyer name,
 *   email and TIN blanked (the one change migration 019's trigger allows);
 * - saved cards and the wallet link are removed here and queued for removal at Maya (maya_erasures),
 *   done after the transaction and retried by a job until Maya agrees.
 * Then the photo file goes and a mail to the old address confirms.
 */
import type { Services } from '../context';
import type { Db } from '../platform/db';
import { now } from '../platform/clock';
import { HttpError } from '../platform/http';
import type { Language } from '../platform/language';
import { log } from '../platform/log';
import { GatewayError, type Gateway } from '../gateway/maya';
import { PRODUCT_NAME } from '../../src/lib/product';
import { verifyPassword } from './passwords';

export const DELETION_MESSAGES = {
  passwordWrong: 'Your password is incorrect',
  confirmationWrong: 'Type your email address exactly as shown to confirm',
  deleted: 'Your account has been deleted',
};

/** The marks an erased account's row keeps (docs/product.md#erasure). */
export const ERASED_NAME = '[erased]';
export const erasedEmail = (userId: string) => `erased-${userId}@erased.invalid`;
/** Not a hash of anything: verifyPassword refuses it (no scheme), so no password ever matches. */
const NO_PASSWORD = '!erased';

export const ERASURE_MAIL = {
  subject: `${PRODUCT_NAME}: your account has been deleted`,
  text: `Your ${PRODUCT_NAME} account and its personal data have been deleted, and your subscription was canceled. We keep your invoices and payment records for the tax retention period, without your name, email or photo. You can sign up again with this email at any time.`,
};

export interface DeletionRequest {
  password: string;
  confirmation: string;
}

export async function deleteAccount(services: Services, userId: string, request: DeletionRequest): Promise<void> {
  const { db } = services;
  const user = (
    await db.query<{ email: string; password_hash: string; photo: string | null; language: Language; deleted_at: Date | null }>(
      'SELECT email, password_hash, photo, language, deleted_at FROM users WHERE id = $1',
      [userId],
    )
  ).rows[0];
  if (!user || user.deleted_at) throw new HttpError(401, 'Your session has expired. Please log in again.');
  if (!(await verifyPassword(request.password, user.password_hash))) throw new HttpError(400, DELETION_MESSAGES.passwordWrong);
  if (request.confirmation.trim().toLowerCase() !== user.email.toLowerCase()) throw new HttpError(400, DELETION_MESSAGES.confirmationWrong);

  const erased = await db.transaction(async (tx) => {
    const at = await now(tx);
    // The account's row is the lock: two deletions (two tabs) do the work once.
    const locked = (await tx.query<{ deleted_at: Date | null }>('SELECT deleted_at FROM users WHERE id = $1 FOR UPDATE', [userId])).rows[0];
    if (!locked || locked.deleted_at) return false;
    // The subscription: canceled now, access ends now, never charged again.
    await tx.query(
      `UPDATE subscriptions SET status = 'CANCELED', auto_renew = false, canceled_date = $2, canceled_reason = 'Account deleted',
         end_date = CASE WHEN end_date IS NULL OR end_date > $2 THEN $2 ELSE end_date END,
         next_attempt_at = NULL, scheduled_plan_id = NULL, past_due_end = NULL, updated_at = $2
       WHERE user_id = $1 AND status IN ('ACTIVE', 'PAST_DUE', 'CANCELED') AND (end_date IS NULL OR end_date > $2 OR status <> 'CANCELED')`,
      [userId, at],
    );
    // Sessions, refresh tokens, links and codes.
    await tx.query('UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, at]);
    await tx.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, at]);
    await tx.query('UPDATE login_links SET consumed_at = $2 WHERE user_id = $1 AND consumed_at IS NULL', [userId, at]);
    await tx.query('UPDATE reset_tokens SET consumed_at = $2 WHERE user_id = $1 AND consumed_at IS NULL', [userId, at]);
    await tx.query('DELETE FROM otp_challenges WHERE user_id = $1 OR lower(email) = lower($2)', [userId, user.email]);
    await tx.query('DELETE FROM otp_sends WHERE lower(email) = lower($1)', [user.email]);
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
    // Exports and their links, the consents' client address, the mails kept for the address.
    await tx.query('DELETE FROM data_exports WHERE user_id = $1', [userId]);
    await tx.query('UPDATE renewal_consents SET client_address = NULL WHERE user_id = $1 AND client_address IS NOT NULL', [userId]);
    await tx.query('DELETE FROM mailbox WHERE lower(to_email) = lower($1)', [user.email]);
    // Tax documents: the buyer's name, email and TIN blanked, nothing else (migration 019's trigger).
    await tx.query(
      `UPDATE tax_documents SET buyer_name = '${ERASED_NAME}', buyer_email = '', buyer_tin = NULL
       WHERE user_id = $1 AND NOT (buyer_name = '${ERASED_NAME}' AND buyer_email = '' AND buyer_tin IS NULL)`,
      [userId],
    );
    // The profile, last: the email is free for a new sign-up from here on.
    await tx.query(
      `UPDATE users SET email = $2, password_hash = $3, first_name = '', middle_name = NULL, last_name = '', phone_number = NULL, gender = NULL,
         birthdate = NULL, photo = NULL, tin = NULL, deleted_at = $4, updated_at = $4
       WHERE id = $1`,
      [userId, erasedEmail(userId), NO_PASSWORD, at],
    );
    return true;
  });
  if (!erased) return;

  // After the commit: the process's cache of open sessions, the sign-in throttle, the photo file.
  await services.tokens.endSessions(userId);
  await services.signInThrottle.forget(user.email);
  if (user.photo?.startsWith('/uploads/')) services.uploads.remove(user.photo.slice('/uploads/'.length));
  // Maya: now, and by the job until done.
  const left = await eraseAtMaya(db, services.gateway, userId).catch(() => 1);
  if (left > 0) await services.jobs?.send(MAYA_ERASURE_QUEUE, { userId }).catch((error: unknown) => services.log(`erasure: could not queue the Maya removal: ${String(error)}`));
  await services.mailbox.send(user.email, ERASURE_MAIL.subject, ERASURE_MAIL.text, null, user.language).catch((error: unknown) =>
    services.log(`erasure: the confirmation mail failed: ${error instanceof Error ? error.message : String(error)}`),
  );
}

export const MAYA_ERASURE_QUEUE = 'account-maya-erasure';

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
