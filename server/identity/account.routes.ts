/** The signed-in viewer's account: profile, password, photo (accounts.ts does the work). */
import { Hono } from 'hono';
import { languageRequestSchema } from '../../src/api/language';
import { passwordChangeRequestSchema, profileUpdateRequestSchema } from '../../src/api/schemas';
import type { AppEnv, Services } from '../context';
import { HttpError, ok, readBody } from '../platform/http';
import { ACCOUNT_MESSAGES, changePassword, readProfile, setLanguage, setPhoto, updateProfile } from './accounts';
import { passwordChanged } from './credentials';
import { PHOTO_MESSAGES, storePhoto } from './photos';
import { requireAuth, viewerRead } from './requireAuth';

export { ACCOUNT_MESSAGES } from './accounts';

export function accountRoutes(services: Services) {
  const { db } = services;
  const app = new Hono<AppEnv>();
  // Registered before the rest: GET /profile answers here, so the check below does not run for it.
  app.get('/profile', requireAuth(services, { readChecksSession: true }), async (c) =>
    ok(c, await viewerRead(c, services, (unchecked) => readProfile(db, c.get('userId'), unchecked))),
  );

  app.use('*', requireAuth(services));

  app.put('/profile', async (c) => {
    const body = await readBody(c, profileUpdateRequestSchema);
    return ok(c, await updateProfile(db, c.get('userId'), body), ACCOUNT_MESSAGES.profileUpdated);
  });

  // The language the server's own emails to this viewer are written in (issue 20).
  app.put('/language', async (c) => {
    const { language } = await readBody(c, languageRequestSchema);
    await setLanguage(db, c.get('userId'), language);
    return ok(c, { language });
  });

  app.put('/password', async (c) => {
    const body = await readBody(c, passwordChangeRequestSchema);
    const userId = c.get('userId');
    const user = await changePassword(db, userId, body.oldPassword, body.newPassword);
    // Every other session ends; this one stays signed in (its token keeps working) and gets fresh tokens.
    await passwordChanged(services, user, c.get('sessionId'));
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
    await setPhoto(db, services.uploads, c.get('userId'), path);
    return ok(c, { photo: path }, ACCOUNT_MESSAGES.photoUploaded);
  });

  return app;
}
