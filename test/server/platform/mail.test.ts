/**
 * Mail through a real SMTP relay (SMTP_URL): nodemailer delivers to an SMTP server (smtp-server, from
 * nodemailer's authors, on a local port) a message with a text and an HTML part; the dev mailbox's
 * code header never leaves the machine.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../server/platform/db';
import { createMailer } from '../../../server/platform/mail';

const received: Array<{ from: string; to: string[]; raw: string }> = [];
let relay: SMTPServer;
let port = 0;

beforeAll(async () => {
  relay = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', () => resolve()));
  port = (relay.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => relay.close(() => resolve())));

describe('SMTP_URL', () => {
  it('sends through the relay with a text and an HTML part, and keeps the code header at home', async () => {
    const database = { query: () => Promise.reject(new Error('the relay is used, not the dev mailbox')) } as unknown as Db;
    const mailer = createMailer(database, `smtp://127.0.0.1:${port}`);
    await mailer.send({
      to: 'viewer@example.com',
      subject: 'Sine Bisaya: receipt for your Monthly renewal',
      text: 'Hi Juan, we renewed your Premium <Monthly> plan: https://app.example/subscription',
      otp: 'ABC123',
    });
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail!.to).toEqual(['viewer@example.com']);
    expect(mail!.from).toBe('no-reply@sinebisaya.ph');
    expect(mail!.raw).toMatch(/^Subject: Sine Bisaya: receipt for your Monthly renewal$/m);
    expect(mail!.raw).toMatch(/Content-Type: multipart\/alternative/);
    expect(mail!.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail!.raw).toMatch(/Content-Type: text\/html/);
    // The HTML part escapes the text and links the address.
    expect(mail!.raw).toContain('&lt;Monthly&gt;');
    expect(mail!.raw).toContain('<a href=3D"https://app.example/subscription">');
    expect(mail!.raw).not.toMatch(/X-Sine-Bisaya-Code/i);
  });
});
