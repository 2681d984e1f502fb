/** Shared by the billing server tests: sign in as a demo account, call with its token, move the clock. */
import { startTestServer } from './helpers';

export const V1 = '/api/v1/mobile';
export const DAY_MS = 24 * 60 * 60 * 1000;
/** Starting PGlite and seeding takes seconds, and far longer when the whole suite shares two cores. */
export const SERVER_START_TIMEOUT_MS = 120_000;

export async function startBillingServer() {
  const server = await startTestServer();
  const tokens = new Map<string, string>();
  const tokenOf = async (email: string) => {
    const known = tokens.get(email);
    if (known) return known;
    const { status, json } = await server.signIn(email);
    if (status !== 200) throw new Error(`sign-in of ${email} failed: ${status} ${json?.message}`);
    tokens.set(email, json.data.accessToken as string);
    return json.data.accessToken as string;
  };
  const as = (email: string) => ({
    get: async (path: string) => server.call('GET', `${V1}${path}`, { token: await tokenOf(email) }),
    post: async (path: string, body: unknown) => server.call('POST', `${V1}${path}`, { token: await tokenOf(email), body }),
  });
  /** The server clock (dev route), as a Date. */
  const clock = async () => new Date((await server.call('GET', '/dev/clock')).json.data.now as string);
  const setClock = async (at: Date | string | null) => {
    const response = await server.call('POST', '/dev/clock', { body: { now: at instanceof Date ? at.toISOString() : at } });
    if (response.status !== 200) throw new Error(`clock: ${response.status} ${response.json?.message}`);
    return response;
  };
  /** Fixes the clock where it is now, so that dates computed by the test and the server agree. */
  const freezeClock = async () => {
    const at = await clock();
    await setClock(at);
    return at;
  };
  // One database per file (starting PGlite and hashing the seed is the slow part); each test starts
  // from the seeded billing rows again through reset().
  const BILLING_TABLES = ['subscriptions', 'payment_records', 'vouchers', 'voucher_redemptions', 'plans', 'tax_documents', 'document_series'];
  for (const table of BILLING_TABLES) await server.db.exec(`CREATE TABLE seeded_${table} AS SELECT * FROM ${table}`);
  const reset = async () => {
    await server.db.transaction(async (tx) => {
      // Invoices refuse a row's DELETE (migration 015); a test's own go by TRUNCATE, the seed's come back.
      await tx.exec(`
        TRUNCATE tax_documents;
        DELETE FROM server_clock;
        DELETE FROM voucher_redemptions;
        DELETE FROM payment_records;
        DELETE FROM subscriptions;
        DELETE FROM vouchers;
        UPDATE plans p SET is_active = s.is_active FROM seeded_plans s WHERE s.id = p.id;
        DELETE FROM plans WHERE id NOT IN (SELECT id FROM seeded_plans);
        INSERT INTO vouchers SELECT * FROM seeded_vouchers;
        INSERT INTO subscriptions SELECT * FROM seeded_subscriptions;
        INSERT INTO payment_records SELECT * FROM seeded_payment_records;
        INSERT INTO voucher_redemptions SELECT * FROM seeded_voucher_redemptions;
        INSERT INTO tax_documents SELECT * FROM seeded_tax_documents;
        UPDATE document_series s SET last = x.last FROM seeded_document_series x WHERE x.series = s.series;`);
    });
  };
  return { ...server, tokenOf, as, clock, setClock, freezeClock, reset };
}

export type BillingServer = Awaited<ReturnType<typeof startBillingServer>>;
