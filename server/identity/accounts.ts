/**
 * Accounts: creating one after its sign-up code, the profile, the password (changed or reset), and the
 * photo. The routes call these; only identity writes the users table.
 */
import type { Language } from '../platform/language';
import type { Db } from '../platform/db';
import { HttpError } from '../platform/http';
import { hashPassword, verifyPassword } from './passwords';
import type { UploadStore } from './photos';
import { readGuarded, sessionGuardSql } from './tokens';

export const ACCOUNT_MESSAGES = {
  profileUpdated: 'Profile updated successfully',
  passwordUpdated: 'Password updated successfully',
  photoUploaded: 'Photo uploaded successfully',
  oldPasswordWrong: 'Old password is incorrect',
  sessionExpired: 'Your session has expired. Please log in again.',
};

export interface PendingAccount {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  birthdate: string;
}

/** The account a verified sign-up asked for; null when the email was taken meanwhile. */
export async function createAccount(db: Db, account: PendingAccount): Promise<string | null> {
  const created = await db.query<{ id: string }>(
    `INSERT INTO users (email, password_hash, first_name, last_name, birthdate) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (email) DO NOTHING RETURNING id`,
    [account.email, account.passwordHash, account.firstName, account.lastName, account.birthdate],
  );
  return created.rows[0]?.id ?? null;
}

/** The language the viewer reads the product in (issue 20): the server's own emails are written in it. */
export async function setLanguage(db: Db, userId: string, language: Language): Promise<void> {
  await db.query('UPDATE users SET language = $2 WHERE id = $1 AND language <> $2', [userId, language]);
}

/** A reset: the new password's hash is written; returns who it was (for ending their sessions), or null. */
export async function setPassword(db: Db, userId: string, password: string): Promise<{ id: string; email: string } | null> {
  const updated = await db.query<{ id: string; email: string }>('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1 RETURNING id, email', [
    userId, await hashPassword(password),
  ]);
  return updated.rows[0] ?? null;
}

/** A change: the old password must match. Returns the account's email (for ending other sessions). */
export async function changePassword(db: Db, userId: string, oldPassword: string, newPassword: string): Promise<{ id: string; email: string }> {
  const user = (await db.query<{ password_hash: string; email: string }>('SELECT password_hash, email FROM users WHERE id = $1', [userId])).rows[0];
  if (!user || !(await verifyPassword(oldPassword, user.password_hash))) throw new HttpError(400, ACCOUNT_MESSAGES.oldPasswordWrong);
  await db.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [userId, await hashPassword(newPassword)]);
  return { id: userId, email: user.email };
}

export interface Profile {
  firstName: string;
  middleName: string | null;
  lastName: string;
  email: string;
  photo: string | null;
  /** Issue 34: the TIN invoices name; null: none given. */
  tin: string | null;
}

/**
 * The profile's fields straight from users (issue 10): one indexed read, no clock and no
 * subscription join — findUserById's join was planned on every call and cost ~10× this query.
 */
export async function profileOf(db: Db, userId: string): Promise<Profile> {
  return (await readProfile(db, userId, null))!;
}

/**
 * The same for GET /profile, checking `uncheckedSession` (when given) in the same statement (issue 21);
 * null when nothing was found under a session not yet checked.
 */
export async function readProfile(db: Db, userId: string, uncheckedSession: string | null): Promise<Profile | null> {
  const result = await readGuarded<{ first_name: string; middle_name: string | null; last_name: string; email: string; photo: string | null; tin: string | null }>(
    db, PROFILE_SELECT, PROFILE_GUARDED_SELECT, [userId], uncheckedSession,
  );
  const user = result.rows[0];
  if (!user) {
    if (uncheckedSession !== null) return null;
    throw new HttpError(401, ACCOUNT_MESSAGES.sessionExpired);
  }
  return { firstName: user.first_name, middleName: user.middle_name, lastName: user.last_name, email: user.email, photo: user.photo, tin: user.tin };
}

const PROFILE_SELECT = 'SELECT first_name, middle_name, last_name, email, photo, tin FROM users WHERE id = $1';
const PROFILE_GUARDED_SELECT = `${PROFILE_SELECT} AND ${sessionGuardSql('$2', '$1')}`;

/** The names; the TIN too when given (issue 34: '' or null removes it, absent keeps it; the schema checked its form). */
export async function updateProfile(
  db: Db, userId: string, names: { firstName: string; middleName?: string | null | undefined; lastName: string; tin?: string | null | undefined },
): Promise<Profile> {
  await db.query(
    `UPDATE users SET first_name = $2, middle_name = $3, last_name = $4, tin = CASE WHEN $5::boolean THEN $6 ELSE tin END, updated_at = now() WHERE id = $1`,
    [userId, names.firstName, names.middleName ? names.middleName : null, names.lastName, names.tin !== undefined, names.tin ? names.tin : null],
  );
  return profileOf(db, userId);
}

/** The stored photo's address replaces the account's; the previous upload is removed. */
export async function setPhoto(db: Db, photos: UploadStore, userId: string, path: string): Promise<void> {
  const previous = await db.query<{ photo: string | null }>('SELECT photo FROM users WHERE id = $1', [userId]);
  await db.query('UPDATE users SET photo = $2, updated_at = now() WHERE id = $1', [userId, path]);
  const old = previous.rows[0]?.photo;
  if (old?.startsWith('/uploads/')) photos.remove(old.slice('/uploads/'.length));
}
