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
  const signIn = async (email: string, password = 'Bisaya-Demo-2026') =>
    call('POST', '/api/v1/mobile/auth/sign-in-email', { body: { email, password } });
  return { db, app, call, signIn, logs };
}
