import { randomBytes } from 'node:crypto';
import { createApp } from '../../server/app';
import { openDatabase, type Db } from '../../server/db';
import { createTokens } from '../../server/tokens';

export async function startTestServer() {
  const db: Db = await openDatabase(':memory:');
  const logs: string[] = [];
  const app = createApp({ db, tokens: createTokens(db, randomBytes(32)), log: (line) => logs.push(line) });
  const call = async (method: string, path: string, options: { body?: unknown; raw?: string; token?: string } = {}) => {
    const headers: Record<string, string> = {};
    if (options.body !== undefined || options.raw !== undefined) headers['Content-Type'] = 'application/json';
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    const response = await app.request(path, {
      method,
      headers,
      body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    const json = (await response.json().catch(() => null)) as { success: boolean; message: string; data: any } // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read nested fields freely | null;
    return { status: response.status, json: json!, headers: response.headers };
  };
  const mail = async (to: string) => {
    const response = await app.request(`/dev/mailbox.json?to=${encodeURIComponent(to)}`);
    return (await response.json()) as Array<{ to: string; subject: string; text: string; otp: string | null; sentAt: string }>;
  };
  /** Moves every send of this email back in time, as if the 60 s wait had passed. */
  const ageSends = async (email: string, seconds = 61) => {
    await db.query(`UPDATE otp_sends SET sent_at = sent_at - ($2 || ' seconds')::interval WHERE email = $1`, [email, String(seconds)]);
  };
  const signIn = async (email: string, password = 'Bisaya-Demo-2026') =>
    call('POST', '/api/v1/mobile/auth/sign-in-email', { body: { email, password } });
  return { db, app, call, signIn, logs, mail, ageSends };
}
