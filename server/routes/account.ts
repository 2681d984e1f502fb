import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../app';
import { HttpError, ok } from '../http';
import { findUserById } from '../users';
import { requireAuth } from './middleware';

export function accountRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(deps));

  app.get('/profile', async (c) => {
    const user = await findUserById(deps.db, c.get('userId'));
    if (!user) throw new HttpError(401, 'Your session has expired. Please log in again.');
    return ok(c, {
      firstName: user.firstName,
      middleName: user.middleName,
      lastName: user.lastName,
      email: user.email,
      photo: user.photo,
    });
  });

  return app;
}
