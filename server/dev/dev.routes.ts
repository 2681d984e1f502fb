import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import * as z from 'zod/mini';
import { emailField, messages, plainText } from '../../src/api/schemas';
import { isLocalRequest } from '../platform/client';
import type { AppEnv, Services } from '../context';
import { HttpError, ok, readBody } from '../platform/http';
import { DEMO_PASSWORD, resetDemoData } from './seed';
import { grantRole } from '../ops/auth';
import { hashPassword } from '../identity/passwords';
import { grantRoleSchema } from '../../src/api/ops/schemas';
import { findUserByEmail } from '../identity/users';
import { clockRoutes } from './clock.routes';

const loginLinkRequestSchema = z.object({
  email: emailField,
  redirectUrl: z.optional(plainText(messages.redirectUrlTooLong).check(z.maxLength(2000, { error: () => messages.redirectUrlTooLong() }))),
});

const devOperatorSchema = z.object({ email: emailField, role: grantRoleSchema });

export const DEV_MESSAGES = {
  mailboxNeedsAddress: 'Add ?to=EMAIL to read one address’s mail',
};

/**
 * QA's tools (product.md#dev-routes): the dev mailbox and login links as the mobile app would mint them. The app
 * serves them to this machine only unless DEV_ROUTES=public (see server/app.ts).
 */
export function devRoutes(services: Services) {
  const app = new Hono<AppEnv>();

  /** Whose mail: one valid address; all of it only for this machine (a shared host lists one address). */
  async function mailFor(c: Context<AppEnv>) {
    const parsed = z.optional(emailField).safeParse(c.req.query('to'));
    if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]?.message ?? messages.emailInvalid());
    if (!parsed.data && !isLocalRequest(c)) throw new HttpError(400, DEV_MESSAGES.mailboxNeedsAddress);
    return services.mailbox.list(parsed.data);
  }

  app.get('/mailbox.json', async (c) => c.json(await mailFor(c)));

  app.get('/mailbox', async (c) => {
    const mails = await mailFor(c);
    return c.html(html`<!doctype html>
      <html lang="en"><head><meta charset="utf-8" /><title>Dev mailbox</title></head>
      <body>
        <h1>Dev mailbox</h1>
        <p>Every email the reference server would have sent, newest first.</p>
        ${mails.length === 0 ? html`<p>No messages yet.</p>` : ''}
        <ul>
          ${mails.map((m) => html`<li><article>
            <h2>${m.subject}</h2>
            <p>To: ${m.to} · ${m.sentAt}</p>
            <p>${m.text}</p>
            ${m.otp ? html`<p>Code: <strong data-otp>${m.otp}</strong></p>` : ''}
          </article></li>`)}
        </ul>
      </body></html>`);
  });

  app.post('/login-link', async (c) => {
    const { email, redirectUrl } = await readBody(c, loginLinkRequestSchema);
    const user = await findUserByEmail(services.db, email);
    if (!user) throw new HttpError(404, 'No account with this email');
    const token = await services.loginLinks.issue(user.id);
    const url = new URL('/auth', services.publicBaseUrl);
    url.searchParams.set('token', token);
    if (redirectUrl) url.searchParams.set('redirectUrl', redirectUrl);
    return ok(c, { url: url.toString() }, 'Login link created');
  });

  /** Every demo account as seeded again (README): browser tests start from it, QA undoes a session's changes. */
  app.post('/reset', async (c) => {
    await resetDemoData(services.db);
    services.tokens.forgetOpenSessions(); // the sessions are gone: no token of before may pass from memory
    return ok(c, null, 'Demo data reset');
  });

  /**
   * What the billing engine has done, for QA watching renewals and for `npm run bench:billing`:
   * renewals paid, renewal attempts still due or open, and charges Maya (the sandbox) took twice for
   * one reference (must be 0). `?progress=1` answers only the renewals paid: the bench polls it while
   * the engine works, and the full count (a pass over every charge at the sandbox) would weigh on what
   * it measures.
   */
  app.get('/billing', async (c) => {
    if (c.req.query('progress') === '1') {
      const paid = await services.db.query<{ renewed: number }>(`SELECT count(*)::int AS renewed FROM payment_records WHERE reference_id LIKE 'SB-RN-%' AND status = 'PAYMENT_SUCCESS'`);
      return ok(c, { renewed: paid.rows[0]!.renewed });
    }
    const row = (
      await services.db.query<{ renewed: number; open: number; past_due: number; charged_twice: number }>(
        `SELECT
           (SELECT count(*)::int FROM payment_records WHERE reference_id LIKE 'SB-RN-%' AND status = 'PAYMENT_SUCCESS') AS renewed,
           (SELECT count(*)::int FROM payment_records WHERE reference_id LIKE 'SB-RN-%' AND status = 'PENDING') AS open,
           (SELECT count(*)::int FROM subscriptions WHERE status = 'PAST_DUE') AS past_due,
           (SELECT count(*)::int FROM (SELECT 1 FROM sandbox_payments WHERE status IN ('PAYMENT_SUCCESS', 'VOIDED', 'REFUNDED')
              GROUP BY request_reference_number HAVING count(*) > 1) twice) AS charged_twice`,
      )
    ).rows[0]!;
    return ok(c, { renewed: row.renewed, open: row.open, pastDue: row.past_due, chargedTwice: row.charged_twice });
  });

  /**
   * A fresh operator for the tests and QA (issue 35): the account of `email` (made with the demo
   * password when it does not exist) granted `role` (`none` removes it), audited as the grant command.
   */
  app.post('/operators', async (c) => {
    const { email, role } = await readBody(c, devOperatorSchema);
    if (!(await findUserByEmail(services.db, email))) {
      const hash = await hashPassword(DEMO_PASSWORD);
      await services.db.query(
        `INSERT INTO users (email, password_hash, first_name, last_name, birthdate) VALUES ($1, $2, 'Test', 'Operator', '1990-06-15') ON CONFLICT (email) DO NOTHING`,
        [email, hash],
      );
    }
    const granted = await grantRole(services.db, { userId: null, email: 'dev:/dev/operators', role: 'cli' }, { email, role, reason: 'POST /dev/operators' });
    return ok(c, { ...granted, password: DEMO_PASSWORD }, 'Operator made');
  });

  app.route('/', clockRoutes(services));

  return app;
}
