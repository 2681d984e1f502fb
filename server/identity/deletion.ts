/**
 * "Delete my account" (issue 36, docs/product.md#erasure). After the current password and the typed
 * email, one transaction:
 * - an open hosted checkout is superseded (a card or wallet payment on its way: 409, try again);
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
import { now } from '../platform/clock';
import { HttpError } from '../platform/http';
import type { Language } from '../platform/language';
import { eraseAtMaya, eraseBilling, MAYA_ERASURE_QUEUE } from '../billing/erasure';
import { PRODUCT_NAME } from '../../src/lib/product';
import { verifyPassword } from './passwords';
import { tooManySignIns } from './throttle';

export const DELETION_MESSAGES = {
  passwordWrong: 'Your password is incorrect',
  confirmationWrong: 'Type your email address exactly as shown to confirm',
  deleted: 'Your account has been deleted',
};

/** The marks an erased account's row keeps (docs/product.md#erasure). */
export { ERASED_NAME } from '../billing/erasure';
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

/**
 * `client`: the request's address, for the sign-in throttle: a password tried here counts as a sign-in
 * guess on the same keys, so a stolen session cannot guess the password faster here than at sign-in.
 */
export async function deleteAccount(services: Services, userId: string, request: DeletionRequest, client: string): Promise<void> {
  const { db } = services;
  const user = (
    await db.query<{ email: string; password_hash: string; photo: string | null; language: Language; deleted_at: Date | null }>(
      'SELECT email, password_hash, photo, language, deleted_at FROM users WHERE id = $1',
      [userId],
    )
  ).rows[0];
  if (!user || user.deleted_at) throw new HttpError(401, 'Your session has expired. Please log in again.');
  const wait = await services.signInThrottle.begin(user.email, client);
  if (wait > 0) throw new HttpError(429, tooManySignIns(wait), wait);
  if (!(await verifyPassword(request.password, user.password_hash))) throw new HttpError(400, DELETION_MESSAGES.passwordWrong);
  await services.signInThrottle.succeeded(user.email, client);
  if (request.confirmation.trim().toLowerCase() !== user.email.toLowerCase()) throw new HttpError(400, DELETION_MESSAGES.confirmationWrong);

  const erased = await db.transaction(async (tx) => {
    const at = await now(tx);
    // The account's row is the lock: two deletions (two tabs) do the work once.
    const locked = (await tx.query<{ deleted_at: Date | null }>('SELECT deleted_at FROM users WHERE id = $1 FOR UPDATE', [userId])).rows[0];
    if (!locked || locked.deleted_at) return false;
    // Billing's part: checkouts, the subscription, cards and wallet link, consents, tax documents.
    await eraseBilling(tx, userId, at);
    // Sessions, refresh tokens, links and codes.
    await tx.query('UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, at]);
    await tx.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, at]);
    await tx.query('UPDATE login_links SET consumed_at = $2 WHERE user_id = $1 AND consumed_at IS NULL', [userId, at]);
    await tx.query('UPDATE reset_tokens SET consumed_at = $2 WHERE user_id = $1 AND consumed_at IS NULL', [userId, at]);
    await tx.query('DELETE FROM otp_challenges WHERE user_id = $1 OR lower(email) = lower($2)', [userId, user.email]);
    await tx.query('DELETE FROM otp_sends WHERE lower(email) = lower($1)', [user.email]);
    // Exports and their links, the mails kept for the address.
    await tx.query('DELETE FROM data_exports WHERE user_id = $1', [userId]);
    await tx.query('DELETE FROM mailbox WHERE lower(to_email) = lower($1)', [user.email]);
    await tx.query('DELETE FROM mail_log WHERE user_id = $1 OR lower(to_email) = lower($2)', [userId, user.email]);
    await tx.query('DELETE FROM email_change_undos WHERE user_id = $1', [userId]);
    // An operator's account: the role, the authenticator and the recovery codes go, its ops sessions end
    // (the audit log keeps what they did: it is append-only, product.md#erasure).
    await tx.query('UPDATE ops_sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, at]);
    await tx.query('DELETE FROM operator_recovery_codes WHERE user_id = $1', [userId]);
    await tx.query('DELETE FROM operator_totp WHERE user_id = $1', [userId]);
    await tx.query('DELETE FROM operator_roles WHERE user_id = $1', [userId]);
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
  // The mail log keeps no trace of the address: the confirmation went to nobody's account.
  await db.query('DELETE FROM mail_log WHERE user_id IS NULL AND lower(to_email) = lower($1)', [user.email]);
}
