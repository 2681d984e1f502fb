import { Hono } from 'hono';
import { html } from 'hono/html';
import { z } from 'zod';
import { emailField } from '../../src/api/schemas';
import type { AppEnv, Services } from '../context';
import { HttpError, ok, readBody } from '../http';
import { findUserByEmail } from '../users';
import { clockRoutes } from './clock';

const loginLinkRequestSchema = z.object({
  email: emailField,
  redirectUrl: z.string().max(2000).optional(),
});

/** QA's tools (design): the dev mailbox and login links as the mobile app would mint them. */
export function devRoutes(services: Services) {
  const app = new Hono<AppEnv>();

  app.get('/mailbox.json', async (c) => c.json(await services.mailbox.list(c.req.query('to') ?? undefined)));

  app.get('/mailbox', async (c) => {
    const mails = await services.mailbox.list(c.req.query('to') ?? undefined);
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
    const base = services.publicBaseUrl ?? new URL(c.req.url).origin;
    const url = new URL('/auth', base);
    url.searchParams.set('token', token);
    if (redirectUrl) url.searchParams.set('redirectUrl', redirectUrl);
    return ok(c, { url: url.toString() }, 'Login link created');
  });

  app.route('/', clockRoutes(services));

  return app;
}
