/** The dev mailbox (design): the server sends no real email; every message is stored instead. */
import type { Db } from './db';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  otp: string | null;
  sentAt: string;
}

export function createMailbox(db: Db) {
  return {
    async send(to: string, subject: string, text: string, otp: string | null = null) {
      await db.query('INSERT INTO mailbox (to_email, subject, body, otp) VALUES ($1, $2, $3, $4)', [to, subject, text, otp]);
      // Nothing is logged here: neither the code (a secret) nor the address and subject (they tell
      // which emails have accounts). The routes log one line that reads the same for every email.
    },
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
