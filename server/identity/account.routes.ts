import { Hono } from 'hono';
import { passwordChangeRequestSchema, profileUpdateRequestSchema } from '../../src/api/schemas';
import type { AppEnv, Services } from '../context';
import { passwordChanged } from './credentials';
import { HttpError, ok, readBody } from '../platform/http';
import { hashPassword, verifyPassword } from './passwords';
import { PHOTO_MESSAGES, storePhoto } from './photos';
import { requireAuth } from './requireAuth';

export const ACCOUNT_MESSAGES = {
  profileUpdated: 'Profile updated successfully',
  passwordUpdated: 'Password updated successfully',
  photoUploaded: 'Photo uploaded successfully',
  oldPasswordWrong: 'Old password is incorrect',
};

interface ProfileRow {
  first_name: string;
  middle_name: string | null;
  last_name: string;
  email: string;
  photo: string | null;
}

export function accountRoutes(services: Services) {
  const { db } = services;
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(services));

  /**
   * The profile's five fields straight from users (issue 10): one indexed read, no clock and no
   * subscription join — findUserById's join was planned on every call and cost ~10× this query.
   */
  async function profileOf(userId: string) {
    const result = await db.query<ProfileRow>('SELECT first_name, middle_name, last_name, email, photo FROM users WHERE id = $1', [userId]);
    const user = result.rows[0];
    if (!user) throw new HttpError(401, 'Your session has expired. Please log in again.');
    return { firstName: user.first_name, middleName: user.middle_name, lastName: user.last_name, email: user.email, photo: user.photo };
  }

  app.get('/profile', async (c) => ok(c, await profileOf(c.get('userId'))));

  app.put('/profile', async (c) => {
    const body = await readBody(c, profileUpdateRequestSchema);
    await db.query('UPDATE users SET first_name = $2, middle_name = $3, last_name = $4, updated_at = now() WHERE id = $1', [
      c.get('userId'), body.firstName, body.middleName ? body.middleName : null, body.lastName,
    ]);
    return ok(c, await profileOf(c.get('userId')), ACCOUNT_MESSAGES.profileUpdated);
  });

  app.put('/password', async (c) => {
    const body = await readBody(c, passwordChangeRequestSchema);
    const userId = c.get('userId');
    const row = await db.query<{ password_hash: string; email: string }>('SELECT password_hash, email FROM users WHERE id = $1', [userId]);
    const user = row.rows[0];
    if (!user || !(await verifyPassword(body.oldPassword, user.password_hash))) throw new HttpError(400, ACCOUNT_MESSAGES.oldPasswordWrong);
    await db.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [userId, await hashPassword(body.newPassword)]);
    // Every other session ends; this one stays signed in (its token keeps working) and gets fresh tokens.
    await passwordChanged(services, { id: userId, email: user.email }, c.get('sessionId'));
    return ok(c, await services.tokens.issue(userId, c.get('sessionId')), ACCOUNT_MESSAGES.passwordUpdated);
  });

  app.post('/photo', async (c) => {
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch {
      throw new HttpError(400, PHOTO_MESSAGES.missing);
    }
    const file = form.photo;
    if (!(file instanceof File)) throw new HttpError(400, PHOTO_MESSAGES.missing);
    const path = storePhoto(services.uploads, new Uint8Array(await file.arrayBuffer()));
    const previous = await db.query<{ photo: string | null }>('SELECT photo FROM users WHERE id = $1', [c.get('userId')]);
    await db.query('UPDATE users SET photo = $2, updated_at = now() WHERE id = $1', [c.get('userId'), path]);
    const old = previous.rows[0]?.photo;
    if (old?.startsWith('/uploads/')) services.uploads.remove(old.slice('/uploads/'.length));
    return ok(c, { photo: path }, ACCOUNT_MESSAGES.photoUploaded);
  });

  return app;
}
