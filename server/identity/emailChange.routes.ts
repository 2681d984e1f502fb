/**
 * A change of email address (issue 36; emailChange.ts does the work). Mounted at /api/v1/mobile: the
 * change itself under /account/email (signed in), the mailed "this wasn't me" link under /auth (its
 * reader may be signed out everywhere).
 */
import { Hono } from 'hono';
import {
  emailChangeRequestSchema,
  emailChangeResendRequestSchema,
  emailChangeUndoRequestSchema,
  emailChangeVerifyRequestSchema,
} from '../../src/api/schemas';
import type { AppEnv, Services } from '../context';
import { clientAddress } from '../platform/client';
import { ok, readBody } from '../platform/http';
import { EMAIL_CHANGE_MESSAGES, resendEmailChangeCode, startEmailChange, undoEmailChange, verifyEmailChange } from './emailChange';
import { requireAuth } from './requireAuth';

export function emailChangeRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);

  app.post('/account/email/change', auth, async (c) => {
    const body = await readBody(c, emailChangeRequestSchema);
    const verificationToken = await startEmailChange(services, c.get('userId'), clientAddress(c), body);
    return ok(c, { verificationToken }, EMAIL_CHANGE_MESSAGES.codeSent);
  });

  app.post('/account/email/change/resend', auth, async (c) => {
    const { verificationToken } = await readBody(c, emailChangeResendRequestSchema);
    await resendEmailChangeCode(services, c.get('userId'), clientAddress(c), verificationToken);
    return ok(c, { verificationToken }, EMAIL_CHANGE_MESSAGES.codeSent);
  });

  app.post('/account/email/change/verify', auth, async (c) => {
    const { verificationToken, otpCode } = await readBody(c, emailChangeVerifyRequestSchema);
    const email = await verifyEmailChange(services, c.get('userId'), verificationToken, otpCode);
    return ok(c, { email }, EMAIL_CHANGE_MESSAGES.changed);
  });

  app.post('/auth/email/undo', async (c) => {
    const { token } = await readBody(c, emailChangeUndoRequestSchema);
    await undoEmailChange(services, token);
    return ok(c, null, EMAIL_CHANGE_MESSAGES.undone);
  });

  return app;
}
