/**
 * After a password change or reset (product.md#security-credentials): every other session ends, and every
 * login link, reset token and code still outstanding for the account is void.
 */
import type { Services } from '../context';

export async function passwordChanged(services: Services, user: { id: string; email: string }, keepSession?: string) {
  const { db } = services;
  await services.tokens.endSessions(user.id, keepSession);
  // Back-office sessions (issue 35) end too, even the one opened from the session kept: a new password, a new verification.
  await db.query('UPDATE ops_sessions SET revoked_at = clock_timestamp() WHERE user_id = $1 AND revoked_at IS NULL', [user.id]);
  await db.query('UPDATE login_links SET consumed_at = now() WHERE user_id = $1 AND consumed_at IS NULL', [user.id]);
  await db.query('UPDATE reset_tokens SET consumed_at = now() WHERE user_id = $1 AND consumed_at IS NULL', [user.id]);
  await db.query('UPDATE otp_challenges SET consumed_at = now() WHERE (user_id = $1 OR email = $2) AND consumed_at IS NULL', [user.id, user.email]);
  await services.signInThrottle.forget(user.email);
}
