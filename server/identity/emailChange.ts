/**
 * A change of email address (issue 36, product.md#email-change): the current password (under the sign-in
 * throttle), then a one-time code sent to the new address with the sign-up code's rules (codes.ts: 10
 * minutes, single use, 5 tries, the resend limits), then the address changes and the old address gets a
 * notice with a "this wasn't me" link: valid 7 days, single use, it restores the old address and ends
 * every session, voiding links and codes as a password reset does (credentials.ts).
 *
 * An address that belongs to another account (or that another account may still take back with its
 * undo link) is answered as any other: the code is never mailed and no code validates, as sign-up does
 * for a known email.
 */
import { randomBytes } from 'node:crypto';
import { PRODUCT_NAME } from '../../src/lib/product';
import type { Services } from '../context';
import type { Language } from '../platform/language';
import { HttpError } from '../platform/http';
import { OTP_MESSAGES } from './codes';
import { passwordChanged } from './credentials';
import { verifyPassword } from './passwords';
import { tooManySignIns } from './throttle';
import { sha256 } from './tokens';

export const EMAIL_CHANGE_UNDO_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const EMAIL_CHANGE_MESSAGES = {
  passwordWrong: 'Password is incorrect',
  sameEmail: 'This is already your email address.',
  codeSent: 'OTP sent successfully',
  changed: 'Email address changed successfully',
  undone: 'Your email address was changed back and every device was signed out.',
  undoInvalid: 'This link has expired or was already used.',
  undoBlocked: 'Your old email address is now used by another account. Please contact support.',
};

const codeSubject = `Your ${PRODUCT_NAME} email change code`;
const codeText = (code: string) =>
  `Your ${PRODUCT_NAME} code to change your email address is ${code}. It is valid for 10 minutes. If you did not ask for it, ignore this email.`;
const takenSubject = 'Someone tried to use your email for another account';
const takenText =
  `Someone signed in to another ${PRODUCT_NAME} account asked to change its email address to yours. Nothing was changed and no code was sent. You do not need to do anything.`;
const noticeSubject = `Your ${PRODUCT_NAME} email address was changed`;
const noticeText = (newEmail: string, link: string) =>
  `The email address of your ${PRODUCT_NAME} account was changed to ${newEmail}. If this wasn't you, open this link within 7 days to change it back and sign out every device: ${link}`;

interface Viewer {
  email: string;
  password_hash: string;
  language: Language;
}

async function viewerOf(services: Services, userId: string): Promise<Viewer> {
  const row = (await services.db.query<Viewer>('SELECT email, password_hash, language FROM users WHERE id = $1', [userId])).rows[0];
  if (!row) throw new HttpError(401, 'Your session has expired. Please log in again.');
  return row;
}

/**
 * Whether `email` cannot become this account's: another account has it, or another account changed away
 * from it less than 7 days ago and may still take it back with its undo link.
 */
export async function emailUnavailable(services: Services, email: string, userId: string | null): Promise<boolean> {
  const row = await services.db.query(
    `SELECT 1 FROM users WHERE email = $1 AND ($2::uuid IS NULL OR id <> $2::uuid)
     UNION ALL
     SELECT 1 FROM email_change_undos WHERE old_email = $1 AND consumed_at IS NULL AND expires_at > now() AND ($2::uuid IS NULL OR user_id <> $2::uuid)
     LIMIT 1`,
    [email, userId],
  );
  return row.rows.length > 0;
}

/** The challenge's owner must be the viewer: another account's token is unknown here. */
async function checkOwner(services: Services, token: string, userId: string) {
  const row = await services.db.query<{ user_id: string | null }>(
    `SELECT user_id FROM otp_challenges WHERE token_hash = $1 AND purpose = 'email_change'`, [sha256(token)],
  );
  if (row.rows[0]?.user_id !== userId) throw new HttpError(400, OTP_MESSAGES.unknownChallenge);
}

/** Step 1: the password (throttled as a sign-in), then a code to the new address. Answers the challenge's token. */
export async function startEmailChange(services: Services, userId: string, client: string, body: { password: string; newEmail: string }) {
  const viewer = await viewerOf(services, userId);
  const wait = await services.signInThrottle.begin(viewer.email, client);
  if (wait > 0) throw new HttpError(429, tooManySignIns(wait), wait);
  if (!(await verifyPassword(body.password, viewer.password_hash))) throw new HttpError(400, EMAIL_CHANGE_MESSAGES.passwordWrong);
  await services.signInThrottle.succeeded(viewer.email, client);
  const newEmail = body.newEmail.toLowerCase();
  if (newEmail === viewer.email) throw new HttpError(400, EMAIL_CHANGE_MESSAGES.sameEmail);
  const unavailable = await emailUnavailable(services, newEmail, userId);
  const { token, code } = await services.otp.start({
    purpose: 'email_change', email: newEmail, userId, deliverable: !unavailable, payload: null, client,
  });
  // The same log line either way: the log must not tell which emails have accounts.
  services.log('email change: a code was asked for (any mail is at /dev/mailbox)');
  // As sign-up does for a known email: the address's owner is told instead (and the answer takes as long).
  if (code) await services.mailbox.send(newEmail, codeSubject, codeText(code), code, viewer.language);
  else await services.mailbox.send(newEmail, takenSubject, takenText, null, viewer.language);
  return token;
}

/** A fresh code for the viewer's own challenge. */
export async function resendEmailChangeCode(services: Services, userId: string, client: string, token: string) {
  await checkOwner(services, token, userId);
  const { email, code } = await services.otp.resend(token, 'email_change', client);
  const viewer = await viewerOf(services, userId);
  if (code) await services.mailbox.send(email, codeSubject, codeText(code), code, viewer.language);
}

/** Step 2: the code; the address changes and the old one gets the notice with its undo link. */
export async function verifyEmailChange(services: Services, userId: string, token: string, otpCode: string): Promise<string> {
  await checkOwner(services, token, userId);
  const { email: newEmail } = await services.otp.verify(token, 'email_change', otpCode);
  const undoToken = randomBytes(32).toString('base64url');
  let oldEmail: string;
  try {
    oldEmail = await services.db.transaction(async (tx) => {
      const changed = await tx.query<{ old_email: string }>(
        `WITH old AS (SELECT email FROM users WHERE id = $1 FOR UPDATE)
         UPDATE users u SET email = $2, updated_at = now() FROM old WHERE u.id = $1 RETURNING old.email AS old_email`,
        [userId, newEmail],
      );
      const row = changed.rows[0];
      if (!row) throw new HttpError(401, 'Your session has expired. Please log in again.');
      await tx.query(
        'INSERT INTO email_change_undos (token_hash, user_id, old_email, new_email, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [sha256(undoToken), userId, row.old_email, newEmail, new Date(Date.now() + EMAIL_CHANGE_UNDO_TTL_MS)],
      );
      return row.old_email;
    });
  } catch (error) {
    // Taken meanwhile by another account: refused as a wrong code would be.
    if ((error as { code?: string }).code === '23505') throw new HttpError(400, OTP_MESSAGES.invalid);
    throw error;
  }
  // Any other change under way for this account is void.
  await services.db.query(`UPDATE otp_challenges SET consumed_at = now() WHERE user_id = $1 AND purpose = 'email_change' AND consumed_at IS NULL`, [userId]);
  const link = new URL('/account/email/undo', services.publicBaseUrl);
  link.searchParams.set('token', undoToken);
  const viewer = await viewerOf(services, userId);
  await services.mailbox.send(oldEmail, noticeSubject, noticeText(newEmail, link.toString()), null, viewer.language);
  return newEmail;
}

/** "This wasn't me": the old address again, every session ended, links and codes void. Once, within 7 days. */
export async function undoEmailChange(services: Services, token: string): Promise<void> {
  const { db } = services;
  const used = await db.query<{ user_id: string; old_email: string; new_email: string }>(
    `UPDATE email_change_undos SET consumed_at = now() WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > now()
     RETURNING user_id, old_email, new_email`,
    [sha256(token)],
  );
  const undo = used.rows[0];
  if (!undo) throw new HttpError(400, EMAIL_CHANGE_MESSAGES.undoInvalid);
  try {
    await db.query('UPDATE users SET email = $2, updated_at = now() WHERE id = $1', [undo.user_id, undo.old_email]);
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new HttpError(409, EMAIL_CHANGE_MESSAGES.undoBlocked);
    throw error;
  }
  // Any later change's own undo link (mailed to an address the intruder chose) is void.
  await db.query('UPDATE email_change_undos SET consumed_at = now() WHERE user_id = $1 AND consumed_at IS NULL', [undo.user_id]);
  await db.query(`UPDATE otp_challenges SET consumed_at = now() WHERE email = $1 AND consumed_at IS NULL`, [undo.new_email]);
  await passwordChanged(services, { id: undo.user_id, email: undo.old_email });
}
