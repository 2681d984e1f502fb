/**
 * The server in the viewer's language (issue 20): answers in the language of the `lang` cookie, else of
 * Accept-Language; a guest's code email in the language of the request that asked for it; the account
 * keeps its language for the emails the server sends on its own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMailbox, createMailer } from '../../../server/platform/mail';
import { translate } from '../../../server/platform/translate';
import { startTestServer, type TestServer } from '../support/helpers';

const V1 = '/api/v1/mobile';
const catalog = (locale: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../../messages', `${locale}.json`), 'utf8')) as Record<string, string>;
const en = catalog('en');
const ceb = catalog('ceb');
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});

describe('translate', () => {
  it('puts a catalog text, and one built from a template, into Bisaya; leaves English and unknown words as they are', () => {
    expect(translate(en.invalid_email_or_password!, 'ceb')).toBe(ceb.invalid_email_or_password);
    expect(translate(en.invalid_email_or_password!, 'en')).toBe(en.invalid_email_or_password);
    expect(translate('Card declined by the issuer', 'ceb')).toBe('Card declined by the issuer');
    const built = en.your_code_to_finish_signing_up_is_it!.replace('{PRODUCT_NAME}', 'Sine Bisaya').replace('{code}', 'K7P2QX');
    expect(translate(built, 'ceb')).toBe(ceb.your_code_to_finish_signing_up_is_it!.replace('{PRODUCT_NAME}', 'Sine Bisaya').replace('{code}', 'K7P2QX'));
  });

  it('puts a sentence inside a template into Bisaya too, but not a one-word value such as a plan name', () => {
    const retry = en.we_will_try_again_on!.replace('{date}', '12/1/2026');
    const mail = en.hi_we_could_not_renew_your_premium!
      .replace('{firstName}', 'Nena').replace('{reason}', 'Declined').replace('{retryLine}', retry).replace('{publicBaseUrl}', 'https://x.test');
    const out = translate(mail, 'ceb');
    expect(out).toContain(ceb.we_will_try_again_on!.replace('{date}', '12/1/2026'));
    expect(out).toContain('Nena');
    expect(out).not.toContain('We will try again');
  });
});

describe('the API in the viewer\'s language', () => {
  it('answers a refusal in Bisaya for the lang cookie or Accept-Language, in English otherwise', async () => {
    const body = { email: 'free@example.com', password: 'not-the-password' };
    const english = await server.call('POST', `${V1}/auth/sign-in-email`, { body, client: '10.9.0.1' });
    const byCookie = await server.call('POST', `${V1}/auth/sign-in-email`, { body, client: '10.9.0.2', headers: { Cookie: 'lang=ceb' } });
    const byBrowser = await server.call('POST', `${V1}/auth/sign-in-email`, { body, client: '10.9.0.3', headers: { 'Accept-Language': 'ceb-PH,en;q=0.5' } });
    expect(english.json.message).toBe(en.invalid_email_or_password);
    expect(byCookie.json.message).toBe(ceb.invalid_email_or_password);
    expect(byBrowser.json.message).toBe(ceb.invalid_email_or_password);
  });

  it('validates in Bisaya too (the shared schemas\' messages)', async () => {
    const answer = await server.call('POST', `${V1}/auth/sign-in-email`, { body: { email: '', password: '' }, headers: { Cookie: 'lang=ceb' } });
    expect(answer.status).toBe(400);
    const english = await server.call('POST', `${V1}/auth/sign-in-email`, { body: { email: '', password: '' } });
    expect(answer.json.message).not.toBe(english.json.message);
    expect(Object.values(ceb)).toContain(answer.json.message);
  });

  it('mails a guest\'s sign-up code in the language of the request, and keeps it on the new account', async () => {
    const email = 'bisaya-reader@example.com';
    const signUp = await server.call('POST', `${V1}/auth/sign-up`, {
      headers: { Cookie: 'lang=ceb' },
      body: { email, password: 'Lami-kaayo-2026', passwordConfirm: 'Lami-kaayo-2026', firstName: 'Nena', lastName: 'Cabahug', birthdate: '1995-03-14' },
    });
    expect(signUp.status).toBe(200);
    expect(signUp.json.message).not.toBe(en.otp_sent_successfully);
    const [mail] = await server.mail(email);
    expect(mail!.subject).toBe(ceb.your_sign_up_code!.replace('{PRODUCT_NAME}', 'Sine Bisaya'));
    expect(mail!.text).toContain(mail!.otp!);
    expect(mail!.text).not.toContain('It is valid for 10 minutes');
    const verified = await server.call('POST', `${V1}/auth/sign-up/verify-otp`, {
      headers: { Cookie: 'lang=ceb' }, body: { verificationToken: signUp.json.data.verificationToken, otpCode: mail!.otp },
    });
    expect(verified.status).toBe(200);
    const row = await server.db.query<{ language: string }>('SELECT language FROM users WHERE email = $1', [email]);
    expect(row.rows[0]!.language).toBe('ceb');
  });

  it('stores a signed-in viewer\'s choice for the emails it sends on its own, and refuses a language it does not have', async () => {
    const token = (await server.signIn('premium@example.com')).json.data.accessToken as string;
    const chosen = await server.call('PUT', `${V1}/account/language`, { token, body: { language: 'ceb' } });
    expect(chosen.status).toBe(200);
    const row = await server.db.query<{ language: string }>("SELECT language FROM users WHERE email = 'premium@example.com'");
    expect(row.rows[0]!.language).toBe('ceb');
    expect((await server.call('PUT', `${V1}/account/language`, { token, body: { language: 'fr' } })).status).toBe(400);
    expect((await server.call('PUT', `${V1}/account/language`, { body: { language: 'ceb' } })).status).toBe(401);
  });

  it('writes a mail in the reader\'s language, subject and text (the HTML part says which)', async () => {
    const mailbox = createMailbox(server.db, createMailer(server.db, undefined));
    await mailbox.send('reader@example.com', en.your_premium_subscription_has_ended!.replace('{PRODUCT_NAME}', 'Sine Bisaya'), 'Unknown words stay.', null, 'ceb');
    const [mail] = await mailbox.list('reader@example.com');
    expect(mail!.subject).toBe(ceb.your_premium_subscription_has_ended!.replace('{PRODUCT_NAME}', 'Sine Bisaya'));
    expect(mail!.text).toBe('Unknown words stay.');
  });
});
