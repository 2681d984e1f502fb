/**
 * What the money-at-the-seams tests (issue 32) share: a Maya client whose calls can be made to fail the
 * ways a network and a gateway fail, the money invariant, signed webhooks, and the viewer's mail and
 * charges as the sandbox ("Maya") and our tables record them.
 */
import { expect } from 'vitest';
import { reconcile } from '../../../server/billing/reconciler';
import type { RenewalDeps } from '../../../server/billing/renewals';
import { isCurrentSql } from '../../../server/billing/subscriptions';
import { defaultGatewayConfig, SANDBOX_PATH, WEBHOOK_PATH } from '../../../server/gateway/config';
import { createMayaClient } from '../../../server/gateway/maya';
import { signWebhook } from '../../../server/gateway/webhook';
import { createMailer } from '../../../server/platform/mail';
import { startBillingServer, type BillingServer } from './billing-helpers';

export const PREMIUM = 'premium@example.com';
export const FREE = 'free@example.com';
export const CANCELED = 'canceled@example.com';
export const SEED_CARD = 'seed-card-premium';
/** Maya's own address for webhooks (gateway/mayaKeys.ts); the test server accepts any with the sandbox's signature. */
const MAYA_IP = '13.229.160.234';

/** Gateway paths (under the sandbox's /sandbox/maya), as the Maya client calls them. */
export const CARD_PAYMENT = /^\/payments\/v1\/customers\/[^/]+\/cards\/[^/]+\/payments$/;
export const WALLET_PAYMENT = /^\/payby\/v2\/paymaya\/link\/[^/]*\/execute$/;
export const BY_REFERENCE = /^\/payments\/v1\/payment-rrns\//;
export const PAYMENT_BY_ID = /^\/payments\/v1\/payments\/[^/]+$/;

/**
 * How one gateway call goes wrong: 'timeout' (the client gives up: fetch throws), 'hang' (the process
 * is killed while it waits: the promise never settles), an HTTP status Maya might answer with, or
 * 'garbage' (200 with a body no schema accepts).
 */
export type Fault = 'timeout' | 'hang' | 'garbage' | 401 | 403 | 429 | 500;

export interface FaultRule {
  method: 'GET' | 'POST';
  path: RegExp;
  /** None: the call goes to the sandbox as usual (with `before` run first). */
  fault?: Fault;
  /** The call reaches the sandbox (Maya acts on it) before the fault hides the answer. */
  forward?: boolean;
  /** How many matching calls this rule takes (default: all of them). */
  times?: number;
  /** Runs when a matching call is made, before it goes anywhere: an interleaving. */
  before?: () => Promise<void>;
}

const ERRORS: Record<number, { code: string; message: string }> = {
  401: { code: 'K003', message: 'Invalid authentication credentials' },
  403: { code: 'K004', message: 'Forbidden: this key may not call this API' },
  429: { code: 'K429', message: 'Too many requests' },
  500: { code: 'PY9999', message: 'Internal server error' },
};

/**
 * A real Maya client (server/gateway/maya.ts) on the test server's sandbox, whose fetch the test can
 * make fail call by call. `calls` lists every call made ('POST /payments/v1/...').
 */
export function faultyGateway(server: BillingServer, log: (line: string) => void = () => {}) {
  const rules: FaultRule[] = [];
  const calls: string[] = [];
  const faultyFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = new URL(url).pathname.replace(SANDBOX_PATH, '');
    calls.push(`${method} ${path}`);
    const rule = rules.find((r) => r.method === method && r.path.test(path) && (r.times === undefined || r.times > 0));
    if (!rule) return server.app.request(url, init);
    if (rule.times !== undefined) rule.times -= 1;
    if (rule.before) await rule.before();
    if (rule.fault === undefined) return server.app.request(url, init);
    if (rule.forward) await (await server.app.request(url, init)).text();
    switch (rule.fault) {
      case 'timeout':
        throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
      case 'hang':
        return new Promise<never>(() => {});
      case 'garbage':
        return new Response('{"ok":true,"note":"not a payment"}', { status: 200, headers: { 'Content-Type': 'application/json' } });
      default:
        return new Response(JSON.stringify(ERRORS[rule.fault]), { status: rule.fault, headers: { 'Content-Type': 'application/json' } });
    }
  }) as typeof globalThis.fetch;
  const gateway = createMayaClient({ ...defaultGatewayConfig(0), fetch: faultyFetch });
  const deps: RenewalDeps = { db: server.db, gateway, log, publicBaseUrl: 'http://localhost', mailer: createMailer(server.db, '') };
  return {
    gateway,
    deps,
    calls,
    /** Adds a rule (earlier rules win). */
    on(rule: FaultRule) {
      rules.push(rule);
      return this;
    },
  };
}

export type FaultyGateway = ReturnType<typeof faultyGateway>;

/** Clean gateway state for a test: Maya forgets earlier tests' charges, the seeded card approves, and every webhook is lost (tests deliver their own). */
export async function resetGatewaySide(server: BillingServer) {
  await server.db.exec(`
    DELETE FROM mailbox; DELETE FROM sandbox_payments; DELETE FROM sandbox_webhooks;
    UPDATE sandbox_cards SET behaviour = 'APPROVE' WHERE card_token_id = '${SEED_CARD}';
    UPDATE plans p SET price = s.price FROM seeded_plans s WHERE s.id = p.id AND p.price <> s.price;`);
  // Maya's webhooks go nowhere unless a test delivers one: no webhook races what a test drives.
  for (const name of ['PAYMENT_SUCCESS', 'PAYMENT_FAILED', 'PAYMENT_EXPIRED', 'PAYMENT_CANCELLED', 'AUTH_FAILED', 'VOIDED', 'REFUNDED', 'AUTHORIZED']) {
    await server.db.query(`INSERT INTO sandbox_webhooks (name, callback_url, created_at, updated_at) VALUES ($1, 'http://localhost/nowhere', now(), now())`, [name]);
  }
}

/** Saved cards, Maya customers and wallet links as seeded (reset() in billing-helpers does not cover them). */
export async function snapshotPaymentMethods(server: BillingServer) {
  for (const table of ['saved_cards', 'maya_customers', 'wallet_links']) await server.db.exec(`CREATE TABLE seams_${table} AS SELECT * FROM ${table}`);
}
export async function restorePaymentMethods(server: BillingServer) {
  await server.db.exec(`
    DELETE FROM saved_cards; DELETE FROM wallet_links; DELETE FROM maya_customers;
    INSERT INTO maya_customers SELECT * FROM seams_maya_customers;
    INSERT INTO saved_cards SELECT * FROM seams_saved_cards;
    INSERT INTO wallet_links SELECT * FROM seams_wallet_links;`);
}

export const setCard = (server: BillingServer, behaviour: 'APPROVE' | 'DECLINE' | 'THREE_DS', card = SEED_CARD) =>
  server.db.query('UPDATE sandbox_cards SET behaviour = $2 WHERE card_token_id = $1', [card, behaviour]);

export const userId = async (server: BillingServer, email: string) =>
  (await server.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email])).rows[0]!.id;

/** The viewer's newest subscription row. */
export const latestSubscription = async (server: BillingServer, email: string) =>
  (await server.db.query<{ id: string; end_date: Date; status: string; next_attempt_at: Date | null; payment_method: string; auto_renew: boolean }>(
    `SELECT s.id, s.end_date, s.status, s.next_attempt_at, s.payment_method, s.auto_renew FROM subscriptions s JOIN users u ON u.id = s.user_id
     WHERE u.email = $1 ORDER BY s.start_date DESC, s.seq DESC LIMIT 1`,
    [email],
  )).rows[0]!;

/** Payment records written during the test (not the seeded ones), newest first. */
export const newRecords = async (server: BillingServer, email: string) =>
  (await server.db.query<{ id: string; reference_id: string; status: string; amount: string; payment_method: string; created_at: Date }>(
    `SELECT r.id, r.reference_id, r.status, r.amount::text AS amount, r.payment_method, r.created_at FROM payment_records r JOIN users u ON u.id = r.user_id
     WHERE u.email = $1 AND r.id NOT IN (SELECT id FROM seeded_payment_records) ORDER BY r.created_at DESC, r.seq DESC`,
    [email],
  )).rows;

/** What "Maya" holds under one reference: the status of every attempt, oldest first. */
export const attemptsFor = async (server: BillingServer, reference: string) =>
  (await server.db.query<{ status: string }>('SELECT status FROM sandbox_payments WHERE request_reference_number = $1 ORDER BY created_at, updated_at', [reference])).rows.map((r) => r.status);

/** The amounts Maya took and kept (PAYMENT_SUCCESS, not voided or refunded), in this test. */
export const keptCharges = async (server: BillingServer) =>
  (await server.db.query<{ amount: string }>(`SELECT amount::text AS amount FROM sandbox_payments WHERE status = 'PAYMENT_SUCCESS' ORDER BY created_at`)).rows.map((r) => r.amount);

export const mailTo = async (server: BillingServer, email: string) =>
  (await server.db.query<{ subject: string; body: string }>('SELECT subject, body FROM mailbox WHERE to_email = $1 ORDER BY id', [email])).rows;

export const PAYMENT_FAILED_MAIL = 'Sine Bisaya: your payment failed — update your payment method';

/**
 * The money invariants, for every viewer: what Maya took and kept (PAYMENT_SUCCESS at the sandbox, not
 * VOIDED or REFUNDED) is exactly what our payment records say was paid (PAYMENT_SUCCESS written during
 * this test), and nobody has more than one live subscription (ACTIVE, PAST_DUE or CANCELED giving access
 * at the billing clock).
 */
export async function expectMoneyInvariant(server: BillingServer) {
  const kept = (await server.db.query<{ total: string }>(`SELECT COALESCE(sum(amount), 0)::numeric(12, 2)::text AS total FROM sandbox_payments WHERE status = 'PAYMENT_SUCCESS'`)).rows[0]!.total;
  const recorded = (
    await server.db.query<{ total: string }>(
      `SELECT COALESCE(sum(amount), 0)::numeric(12, 2)::text AS total FROM payment_records
       WHERE status = 'PAYMENT_SUCCESS' AND id NOT IN (SELECT id FROM seeded_payment_records)`,
    )
  ).rows[0]!.total;
  expect(recorded, 'paid according to our records = kept by Maya').toBe(kept);
  const live = await server.db.query<{ email: string; n: number }>(
    `SELECT u.email, count(*)::int AS n FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE ${isCurrentSql('$1')} GROUP BY u.email HAVING count(*) > 1`,
    [await server.clock()],
  );
  expect(live.rows, 'at most one live subscription per viewer').toEqual([]);
}

/**
 * Maya delivers its (signed) webhook for one of its payments, as its sandbox row now stands; with
 * `mayaDown`, while the server cannot read that payment at Maya (withMayaDown).
 */
export async function deliverWebhook(server: BillingServer, paymentId: string, options: { mayaDown?: boolean } = {}): Promise<Response> {
  const row = (
    await server.db.query<{ id: string; status: string; amount: string; currency: string; request_reference_number: string }>(
      'SELECT id, status, amount::text AS amount, currency, request_reference_number FROM sandbox_payments WHERE id = $1',
      [paymentId],
    )
  ).rows[0]!;
  const body = JSON.stringify({
    id: row.id, isPaid: row.status === 'PAYMENT_SUCCESS', status: row.status, amount: Number(row.amount), currency: row.currency, requestReferenceNumber: row.request_reference_number,
  });
  const send = () => server.app.request(WEBHOOK_PATH, { method: 'POST', headers: { 'Content-Type': 'application/json', ...signWebhook(server.signingKey, body) }, body }, MAYA_IP);
  return options.mayaDown ? withMayaDown(server, send) : send();
}

/**
 * Maya unreachable for the server's own gateway while `during` runs: the sandbox's payments table is
 * taken away, so every read of a payment there answers 500 (the server's client cannot be swapped).
 */
export async function withMayaDown<T>(server: BillingServer, during: () => Promise<T>): Promise<T> {
  await server.db.exec('ALTER TABLE sandbox_payments RENAME TO sandbox_payments_offline');
  try {
    return await during();
  } finally {
    await server.db.exec('ALTER TABLE sandbox_payments_offline RENAME TO sandbox_payments');
  }
}

const form = (body: string) => ({ method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body });

/** A person presses a button on a hosted page (checkout, 3-D Secure); the browser follows the return to the API if it is sent there. */
export async function onHostedPage(server: BillingServer, url: string, action: 'approve' | 'decline' | 'cancel') {
  const pressed = await server.app.request(url, form(`action=${action}`));
  const location = pressed.headers.get('Location');
  if (location && location.includes('/api/v1/mobile/payment/return/')) return (await server.app.request(location)).headers.get('Location');
  return location;
}

/** Saves a card for `email` and confirms it with the bank, as the app does; answers its token. */
export async function verifiedCard(server: BillingServer, email: string, number = '5123456789012346', isDefault = false) {
  const saved = await server.as(email).post('/payment/vault/cards', { number, expMonth: '12', expYear: '2099', cvc: '123', isDefault });
  expect(saved.status, saved.json.message).toBe(200);
  const pressed = await server.app.request(saved.json.data.verificationUrl, form('action=approve'));
  await server.app.request(pressed.headers.get('Location')!);
  return saved.json.data.cardTokenId as string;
}

/** Links a Maya wallet for `email`, as the app does; answers its link id. */
export async function linkedWallet(server: BillingServer, email: string) {
  const back = 'http://localhost/subscription/change-payment-method?wallet-method=1&wallet-link-status=';
  const started = await server.as(email).post('/payment/wallet/link', { redirectUrl: { success: `${back}success`, failure: `${back}failed`, cancel: `${back}canceled` } });
  expect(started.status, started.json.message).toBe(200);
  await server.app.request(started.json.data.redirectUrl, form('action=approve'));
  return started.json.data.linkId as string;
}

/** A seams test file's server: started once, with a healthy Maya client (`deps`), its cards and links remembered. */
export async function startSeamsServer(): Promise<{ server: BillingServer; deps: RenewalDeps }> {
  const server = await startBillingServer();
  const deps = faultyGateway(server).deps; // no rule: a healthy Maya
  await snapshotPaymentMethods(server);
  return { server, deps };
}

/** Each test starts again from the seed: billing rows, saved cards and wallet links, Maya's side. */
export async function resetSeams(server: BillingServer): Promise<void> {
  await server.reset();
  await restorePaymentMethods(server);
  await resetGatewaySide(server);
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
/** `ms` after `date`. */
export const at = (date: Date, ms: number) => new Date(date.getTime() + ms);

/**
 * The reconciler's pass once the billing clock reads `when`: its waits are real time (how long Maya may
 * take to show a payment), so the pass is given a real `now` as far ahead as the clock moved.
 */
export async function reconcileAt(server: BillingServer, deps: RenewalDeps, when: Date): Promise<void> {
  const ahead = when.getTime() - (await server.clock()).getTime();
  await server.setClock(when);
  await reconcile(deps, { realNow: new Date(Date.now() + Math.max(ahead, 0)) });
}
