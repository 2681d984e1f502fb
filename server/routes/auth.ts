import { Hono } from 'hono';
import { signInRequestSchema } from '../../src/api/schemas';
import type { AppDeps, AppEnv } from '../app';
import { HttpError, ok, readBody } from '../http';
import { DUMMY_HASH_PROMISE, verifyPassword } from '../passwords';
import { findUserByEmail } from '../users';

export const MAX_FAILED_SIGN_INS_PER_HOUR = 100;
export const INVALID_CREDENTIALS = 'Invalid email or password';

export function authRoutes(deps: AppDeps) {
  const { db, tokens } = deps;
  const app = new Hono<AppEnv>();

  app.post('/sign-in-email', async (c) => {
    const { email, password } = await readBody(c, signInRequestSchema);
    const user = await findUserByEmail(db, email);
    if (!user) {
      await verifyPassword(password, await DUMMY_HASH_PROMISE); // same cost as a known email
      throw new HttpError(401, INVALID_CREDENTIALS);
    }
    const failures = await db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM sign_in_failures WHERE user_id = $1 AND failed_at > now() - interval '1 hour'`,
      [user.id],
    );
    if ((failures.rows[0]?.count ?? 0) >= MAX_FAILED_SIGN_INS_PER_HOUR) {
      throw new HttpError(429, 'Too many failed sign-in attempts. Please try again in an hour.');
    }
    if (!(await verifyPassword(password, user.passwordHash))) {
      await db.query('INSERT INTO sign_in_failures (user_id) VALUES ($1)', [user.id]);
      throw new HttpError(401, INVALID_CREDENTIALS);
    }
    const { passwordHash: _hash, ...publicUser } = user;
    const issued = await tokens.issue(user.id);
    return ok(c, { ...issued, user: publicUser }, 'Signed in successfully');
  });

  return app;
}
