/**
 * Mail through nodemailer: with SMTP_URL it goes through that relay; without it (the default) the
 * dev mailbox is the transport: every message is stored in the database, readable at /dev/mailbox.
 * Every message has a text and an HTML part. The sign-up and recovery codes, receipts, failed-payment
 * notices, checkout reminders and end notices all go this way.
 */
import nodemailer from 'nodemailer';
import type { Transport } from 'nodemailer';
import { PRODUCT_NAME } from '../../src/lib/product';
import type { Db } from './db';
import type { Language } from './language';
import { log } from './log';
import { mails } from './metrics';
import { translate } from './translate';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  otp: string | null;
  sentAt: string;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** A one-time code the message carries (the dev mailbox shows it apart, for QA and the tests). */
  otp?: string | null;
  /** The reader's language (issue 20): the subject and text, written in English, are sent in it (translate.ts). */
  language?: Language;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
/** The HTML part: the text, escaped, its addresses as links. */
const htmlOf = (text: string, language: Language) =>
  `<!doctype html><html lang="${language}"><body style="font-family:system-ui,sans-serif;line-height:1.5"><p>${escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`)}</p></body></html>`;

/** The dev mailbox as a nodemailer transport: the message is stored, nothing leaves the machine. */
function mailboxTransport(db: Db): Transport {
  return {
    name: 'sine-bisaya-dev-mailbox',
    version: '1',
    send(mail, callback) {
      const data = mail.data as { to?: string; subject?: string; text?: string; headers?: Record<string, string> };
      const otp = data.headers?.['X-Sine-Bisaya-Code'] ?? null;
      db.query('INSERT INTO mailbox (to_email, subject, body, otp) VALUES ($1, $2, $3, $4)', [String(data.to ?? ''), data.subject ?? '', String(data.text ?? ''), otp])
        .then(() => callback(null, { envelope: mail.message.getEnvelope(), messageId: mail.message.messageId() }))
        .catch((error: Error) => callback(error, undefined as never));
    },
  };
}

/**
 * The mail's kind for the log: its English subject with anything that varies (a plan's name, a date, an
 * amount, a reference in quotes or digits) cut to its first words, so no personal detail rides along.
 */
export function mailKind(subject: string): string {
  // A run of digits with what joins them (01/15/2027, 1,000.00, 10:30), not the space after it.
  return subject.replace(/\d(?:[\d.,:/ -]*\d)?/g, '#').replace(/[“"'‘].*?[”"'’]/g, '…').slice(0, 80);
}

export function createMailer(db: Db, smtpUrl: string | undefined = process.env.SMTP_URL): Mailer {
  const transporter = nodemailer.createTransport(smtpUrl ? smtpUrl : mailboxTransport(db));
  const from = process.env.MAIL_FROM ?? `${PRODUCT_NAME} <no-reply@sinebisaya.ph>`;
  return {
    async send(mail) {
      // One line per mail (issue 33): which mail (its English subject, a template with no address or
      // code in it), the language and the outcome, with the request's or job's id. Never the address
      // (it tells which emails have accounts) nor the code (a secret) nor the text.
      const language = mail.language ?? 'en';
      const subject = translate(mail.subject, language);
      const text = translate(mail.text, language);
      const started = performance.now();
      try {
        await transporter.sendMail({
          from, to: mail.to, subject, text, html: htmlOf(text, language),
          ...(mail.otp && !smtpUrl ? { headers: { 'X-Sine-Bisaya-Code': mail.otp } } : {}),
        });
      } catch (error) {
        mails.inc({ outcome: 'failed' });
        log().warn({ mail: mailKind(mail.subject), language, outcome: 'failed', ms: Math.round(performance.now() - started), error: error instanceof Error ? error.message : String(error) }, 'mail');
        throw error;
      }
      mails.inc({ outcome: 'sent' });
      log().info({ mail: mailKind(mail.subject), language, outcome: 'sent', ms: Math.round(performance.now() - started) }, 'mail');
      // The mail log (issue 35, migration 017): what was sent, in English as written, for the viewer's
      // timeline in the back office and its resend. Never a mail that carries a one-time code. A failure
      // to log does not undo the mail.
      if (!mail.otp) {
        await db.query(
          'INSERT INTO mail_log (user_id, to_email, subject, body, language) VALUES ((SELECT id FROM users WHERE lower(email) = lower($1)), $1, $2, $3, $4)',
          [mail.to, mail.subject, mail.text, language],
        ).catch((error: unknown) => log().warn({ mail: mailKind(mail.subject), error: error instanceof Error ? error.message : String(error) }, 'mail log'));
      }
    },
  };
}

/** The dev mailbox: what was sent (as the mailbox transport stored it), newest first. */
export function createMailbox(db: Db, mailer: Mailer = createMailer(db)) {
  return {
    send: (to: string, subject: string, text: string, otp: string | null = null, language: Language = 'en') => mailer.send({ to, subject, text, otp, language }),
    async list(to?: string): Promise<Mail[]> {
      const rows = await db.query<{ to_email: string; subject: string; body: string; otp: string | null; sent_at: Date }>(
        to
          ? 'SELECT * FROM mailbox WHERE to_email = $1 ORDER BY sent_at DESC, id DESC LIMIT 100'
          : 'SELECT * FROM mailbox ORDER BY sent_at DESC, id DESC LIMIT 100',
        to ? [to.toLowerCase()] : [],
      );
      return rows.rows.map((r) => ({ to: r.to_email, subject: r.subject, text: r.body, otp: r.otp, sentAt: r.sent_at.toISOString() }));
    },
  };
}

export type Mailbox = ReturnType<typeof createMailbox>;
