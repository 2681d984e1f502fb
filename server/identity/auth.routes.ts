import { Hono, type Context } from 'hono';
import {
  forgotSendRequestSchema,
  forgotVerifyRequestSchema,
  resetPasswordRequestSchema,
  signInRequestSchema,
  signUpRequestSchema,
  signUpResendRequestSchema,
  signUpVerifyRequestSchema,
  verifyAuthLinkRequestSchema,
} from '../../src/api/schemas';
import { PRODUCT_NAME } from '../../src/lib/product';
import { clientAddress } from '../platform/client';
import { requestLanguage } from '../platform/language';
import type { AppEnv, Services } from '../context';
import { passwordChanged } from './credentials';
import { deviceOf } from './devices';
import { emailUnavailable } from './emailChange';
import { HttpError, ok, readBody } from '../platform/http';
import { createAccount, setLanguage, setPassword, type PendingAccount } from './accounts';
import { DUMMY_HASH_PROMISE, hashPassword, verifyPassword } from './passwords';
import { tooManySignIns } from './throttle';
import { findUserByEmail, findUserById } from './users';

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const AUTH_MESSAGES = {
  codeSent: 'OTP sent successfully',
  resetDone: 'Password reset successfully',
  resetInvalid: 'This reset link has expired or was already used. Please request a new code.',
  linkInvalid: 'This login link has expired or was already used.',
  emailTaken: 'An account with this email already exists.',
};


const codeMail = (code: string, purpose: string) =>
  `Your ${PRODUCT_NAME} code ${purpose} is ${code}. It is valid for 10 minutes. If you did not ask for it, ignore this email.`;

export function authRoutes(services: Services) {
  const { db, tokens, otp, mailbox } = services;
  const app = new Hono<AppEnv>();

  // Mail a guest asked for is written in the language of the request that asked (issue 20).
  const mailSignUpCode = (c: Context, email: string, code: string) =>
    mailbox.send(email, `Your ${PRODUCT_NAME} sign-up code`, codeMail(code, 'to finish signing up'), code, requestLanguage(c));

  /** A signed-in viewer: the tokens and the user; the account keeps the language they signed in with. */
  async function signedIn(c: Context, userId: string, message: string) {
    await setLanguage(db, userId, requestLanguage(c));
    const user = await findUserById(db, userId);
    if (!user) throw new HttpError(400, AUTH_MESSAGES.linkInvalid);
    return { data: { ...(await tokens.issue(userId, undefined, deviceOf(c, services.trustProxy))), user }, message };
  }

  // Known and unknown emails take the same path: the same throttle keys, the same hash cost, the same answers.
  app.post('/sign-in-email', async (c) => {
    const body = await readBody(c, signInRequestSchema);
    const email = body.email.toLowerCase();
    const client = clientAddress(c);
    const wait = await services.signInThrottle.begin(email, client);
    if (wait > 0) throw new HttpError(429, tooManySignIns(wait), wait);
    const user = await findUserByEmail(db, email);
    const matches = await verifyPassword(body.password, user?.passwordHash ?? (await DUMMY_HASH_PROMISE));
    if (!user || !matches) throw new HttpError(401, INVALID_CREDENTIALS);
    await services.signInThrottle.succeeded(email, client);
    const { data, message } = await signedIn(c, user.id, 'Signed in successfully');
    return ok(c, data, message);
  });

  /* ------------------------------------------------------------ sign-up */

  app.post('/sign-up', async (c) => {
    const body = await readBody(c, signUpRequestSchema);
    const email = body.email.toLowerCase();
    // Taken: an account has it, or one changed away from it and may still take it back (issue 36).
    const existing = (await findUserByEmail(db, email)) ?? ((await emailUnavailable(services, email, null)) || null);
    const pending: PendingAccount = {
      email, passwordHash: await hashPassword(body.password), firstName: body.firstName, lastName: body.lastName, birthdate: body.birthdate,
    };
    // The same answer whether or not the email has an account; only the mail differs.
    const { token, code } = await otp.start({
      purpose: 'signup', email, userId: null, deliverable: !existing, payload: existing ? null : pending, client: clientAddress(c),
    });
    // One log line for both cases: the log must not tell which emails have accounts.
    services.log('sign-up: a mail was written to the dev mailbox (/dev/mailbox)');
    if (code) await mailSignUpCode(c, email, code);
    else await mailbox.send(email, `Someone tried to sign up with your email`, `An account for this email already exists on ${PRODUCT_NAME}. If this was you, log in or reset your password.`, null, requestLanguage(c));
    return ok(c, { verificationToken: token }, AUTH_MESSAGES.codeSent);
  });

  app.post('/sign-up/resend-otp', async (c) => {
    const { verificationToken } = await readBody(c, signUpResendRequestSchema);
    const { email, code } = await otp.resend(verificationToken, 'signup', clientAddress(c));
    services.log('sign-up: a new code was asked for (any mail is at /dev/mailbox)');
    if (code) await mailSignUpCode(c, email, code);
    return ok(c, { verificationToken }, AUTH_MESSAGES.codeSent);
  });

  app.post('/sign-up/verify-otp', async (c) => {
    const { verificationToken, otpCode } = await readBody(c, signUpVerifyRequestSchema);
    const { payload } = await otp.verify(verificationToken, 'signup', otpCode);
    const account = payload as PendingAccount;
    const id = await createAccount(db, account);
    if (!id) throw new HttpError(409, AUTH_MESSAGES.emailTaken);
    const { data, message } = await signedIn(c, id, 'Account verified successfully');
    return ok(c, data, message);
  });

  /* ------------------------------------------------------------ recovery */

  app.post('/forgot/send-otp', async (c) => {
    const { email: raw } = await readBody(c, forgotSendRequestSchema);
    const email = raw.toLowerCase();
    const user = await findUserByEmail(db, email);
    const { token, code } = await otp.start({ purpose: 'recovery', email, userId: user?.id ?? null, deliverable: Boolean(user), client: clientAddress(c) });
    services.log('recovery: a code was asked for (any mail is at /dev/mailbox)');
    if (code) await mailbox.send(email, `Your ${PRODUCT_NAME} password reset code`, codeMail(code, 'to reset your password'), code, requestLanguage(c));
    return ok(c, { verifyToken: token }, AUTH_MESSAGES.codeSent);
  });

  app.post('/forgot/verify-otp', async (c) => {
    const { verifyToken, otpCode } = await readBody(c, forgotVerifyRequestSchema);
    const { userId } = await otp.verify(verifyToken, 'recovery', otpCode);
    if (!userId) throw new HttpError(400, 'Invalid OTP code');
    return ok(c, { resetToken: await services.resetTokens.issue(userId) }, 'OTP verified successfully');
  });

  app.post('/forgot/reset-password', async (c) => {
    const { resetToken, password } = await readBody(c, resetPasswordRequestSchema);
    const userId = await services.resetTokens.consume(resetToken);
    if (!userId) throw new HttpError(400, AUTH_MESSAGES.resetInvalid);
    const user = await setPassword(db, userId, password);
    if (user) await passwordChanged(services, user); // every session ends
    return ok(c, null, AUTH_MESSAGES.resetDone);
  });

  /* ------------------------------------------------------------ login link */

  app.post('/verify-auth-link', async (c) => {
    const { token } = await readBody(c, verifyAuthLinkRequestSchema);
    const userId = await services.loginLinks.consume(token);
    if (!userId) throw new HttpError(400, AUTH_MESSAGES.linkInvalid);
    const { data, message } = await signedIn(c, userId, 'Signed in successfully');
    return ok(c, data, message);
  });

  return app;
}
