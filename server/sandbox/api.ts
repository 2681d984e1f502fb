/**
 * The local Maya sandbox, served under /sandbox/maya (a dev route: this machine only by default).
 * It answers Maya's paths with Maya's shapes and Basic-auth rules, keeps its state in the sandbox_*
 * tables, renders the hosted pages a person approves, declines or cancels on (sandbox-pages.ts), and
 * sends a signed webhook to the API on every outcome.
 *
 * Test cards: Maya's published sandbox cards with their behaviour (SANDBOX_CARDS: approve, 3-D Secure
 * with its passkey, decline for insufficient funds); other Luhn-valid Visa, Mastercard and JCB numbers
 * approve. As at Maya, a saved card is PRE_VERIFICATION until the customer confirms it with the bank
 * on its verificationUrl (the passkey for a 3-D Secure card), and only a VERIFIED card can be charged.
 * An unpaid checkout expires an hour after it was created (Maya's default), a 3-D Secure challenge
 * after 15 minutes, by the server clock. Webhooks are signed as Maya signs them (RSA, sandbox/keys.ts)
 * and sent to the callback registered for the event (`/checkout/v1/webhooks`), else to the API's own.
 *
 * The fault switch (faults.ts; dev only, kept in the database so every API process plays the same):
 * `POST /sandbox/maya/_faults` with `{ faults: [{ on, mode, times, every?, holdMs? }], webhooks }`
 * (`on`: 'charge' | 'read' | 'checkout' | 'void' | 'refund' | 'any'; `mode`: 'timeout' |
 * 'charge-then-timeout' | 'unreadable' | 'http500' | 'http401' | 'http429'; `webhooks`: 'normal' |
 * 'lost' | 'doubled'), `GET` to read it, `DELETE` to clear it, `POST /sandbox/maya/_faults/webhooks/release`
 * to send the lost webhooks late; `setSandboxFaults(db, …)` and friends in a test of the same process.
 * A timeout does nothing and drops the answer after `holdMs`; charge-then-timeout and unreadable do the
 * call (Maya did charge) and then lose the answer or answer a body the client's schema refuses; the
 * HTTP errors do nothing. Each matching call consumes one of `times` (every `every`-th call, for a share).
 */
import { Hono, type Context } from 'hono';
import { randomBytes } from 'node:crypto';
import * as z from 'zod/mini';
import { cardBrand, luhn, newCardError } from '../../src/lib/card';
import { clockSql, now, unsetClock, type Queryable } from '../platform/clock';
import type { Db } from '../platform/db';
import type { GatewayConfig } from '../gateway/config';
import { SANDBOX_PATH, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../gateway/config';
import { basicAuth, CHECKOUT_LIFETIME_MS, fromMayaValue, redirectUrlSchema, type MayaPayment } from '../gateway/maya';
import { renderOutcome, renderPage, type PageModel } from './pages';
import { signWebhook } from '../gateway/webhook';
import { sandboxSigningKeys } from './keys';
import {
  callKind, clearSandboxFaults, faultSwitchSchema, readSandboxFaults, registerReleaser, setSandboxFaults, takeFault, track, webhookMode,
} from './faults';

/** How long a 3-D Secure challenge waits (a checkout waits CHECKOUT_LIFETIME_MS, Maya's hour). */
export const CHALLENGE_WINDOW_MS = 15 * 60 * 1000;

export type CardBehaviour = 'APPROVE' | 'DECLINE' | 'THREE_DS';
/**
 * Maya's published sandbox cards (developers.maya.ph "Sandbox credentials and cards" and its "full list
 * of mock cards"): number → behaviour and the 3-D Secure passkey the bank's page asks for.
 */
export const SANDBOX_CARDS: Record<string, { behaviour: CardBehaviour; passkey: string | null }> = {
  '4123450131001381': { behaviour: 'THREE_DS', passkey: 'mctest1' },
  '4123450131001522': { behaviour: 'THREE_DS', passkey: 'mctest1' },
  '4123450131004443': { behaviour: 'THREE_DS', passkey: 'mctest1' },
  '4123450131000508': { behaviour: 'APPROVE', passkey: null },
  '5123456789012346': { behaviour: 'APPROVE', passkey: null },
  '5453010000064154': { behaviour: 'THREE_DS', passkey: 'secbarry1' },
  '3550998167531014': { behaviour: 'APPROVE', passkey: null },
  '3550998167521049': { behaviour: 'THREE_DS', passkey: 'secure35' },
  // Insufficient funds: the card verifies with its passkey, every payment on it is declined.
  '4917610000000000': { behaviour: 'DECLINE', passkey: 'paymaya88' },
  '5596459277363286': { behaviour: 'DECLINE', passkey: 'paymaya12' },
};

/** Maya's name for a card's brand (its `cardType`): 'visa', 'master-card', 'jcb'. */
function mayaCardType(number: string): string | null {
  const brand = cardBrand(number);
  return brand === 'mastercard' ? 'master-card' : brand;
}

/* ----------------------------------------------------------------- Maya-shaped errors */

class MayaError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 409,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
const param = (c: Context, name: string) => c.req.param(name) ?? '';
const mayaError = (c: Context, error: MayaError) => c.json({ code: error.code, message: error.message }, error.status);

async function body<T>(c: Context, schema: z.ZodMiniType<T>): Promise<T> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new MayaError(400, 'PY0001', 'Request body is not valid JSON.');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MayaError(400, 'PY0001', `Missing/invalid parameters: ${issue?.path.join('.') || 'body'}`);
  }
  return parsed.data;
}

/* ----------------------------------------------------------------- request schemas */

const httpUrl = z.string().check(
  z.maxLength(2048),
  z.refine((value: string) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }),
);
const redirects = z.extend(redirectUrlSchema, { success: httpUrl, failure: httpUrl, cancel: httpUrl });
const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));
const upTo = (max: number) => z.string().check(z.maxLength(max));
const digits = (pattern: RegExp) => z.string().check(z.regex(pattern));
const rrn = text(1, 64);
const money = z.number().check(z.positive(), z.lte(1_000_000), z.refine((n: number) => Math.round(n * 100) === n * 100));
const checkoutRequest = z.object({
  totalAmount: z.object({ value: money, currency: z.literal('PHP') }),
  buyer: z.optional(z.partial(z.object({ firstName: upTo(100), lastName: upTo(100), contact: z.object({ email: upTo(254) }) }))),
  items: z.array(z.looseObject({ name: upTo(200) })).check(z.minLength(1), z.maxLength(20)),
  redirectUrl: redirects,
  requestReferenceNumber: rrn,
});
const tokenRequest = z.object({
  card: z.object({ number: digits(/^\d{12,19}$/), expMonth: digits(/^\d{2}$/), expYear: digits(/^\d{4}$/), cvc: digits(/^\d{3,4}$/) }),
});
const customerRequest = z.object({
  firstName: text(1, 100),
  middleName: z.optional(upTo(100)),
  lastName: text(1, 100),
  contact: z.object({ phone: z.optional(upTo(40)), email: text(3, 254) }),
});
const cardRequest = z.object({ paymentTokenId: text(1, 200), isDefault: z.optional(z.boolean()), redirectUrl: z.optional(redirects), requestReferenceNumber: z.optional(rrn) });
const vaultPaymentRequest = z.object({ totalAmount: z.object({ amount: money, currency: z.literal('PHP') }), requestReferenceNumber: rrn, redirectUrl: redirects });
const linkRequest = z.object({ redirectUrl: redirects, requestReferenceNumber: rrn });
const walletPaymentRequest = z.object({ totalAmount: z.object({ value: money, currency: z.literal('PHP') }), requestReferenceNumber: rrn });
const voidRequest = z.object({ reason: text(1, 512) });
const refundRequest = z.object({ totalAmount: z.object({ amount: money, currency: z.literal('PHP') }), reason: text(1, 512) });
const webhookRequest = z.object({ name: text(1, 64), callbackUrl: httpUrl });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/* ----------------------------------------------------------------- payments */

export interface SandboxPaymentRow {
  id: string;
  kind: 'CHECKOUT' | 'VAULT' | 'WALLET';
  status: string;
  amount: string;
  currency: string;
  request_reference_number: string;
  description: string;
  redirect_success: string | null;
  redirect_failure: string | null;
  redirect_cancel: string | null;
  card_token_id: string | null;
  link_id: string | null;
  refunded_amount: string;
  created_at: Date;
  updated_at: Date;
  brand?: string | null;
  last4?: string | null;
  passkey?: string | null;
}

/** Statuses a person can still act on (a hosted checkout page, a 3-D Secure challenge). */
const AWAITING = ['PENDING_PAYMENT', 'FOR_AUTHENTICATION'];

const PAYMENT_SELECT = `SELECT p.id, p.kind, p.status, p.amount::text AS amount, p.currency, p.request_reference_number, p.description,
  p.redirect_success, p.redirect_failure, p.redirect_cancel, p.card_token_id, p.link_id, p.refunded_amount::text AS refunded_amount,
  p.created_at, p.updated_at, c.brand, c.last4, c.passkey
  FROM sandbox_payments p LEFT JOIN sandbox_cards c ON c.card_token_id = p.card_token_id`;

export interface SandboxDeps {
  db: Db;
  /** Where the API's webhook is, and the secret the sandbox signs with. */
  gatewayConfig: GatewayConfig;
  log: (line: string) => void;
  /** The app's public address: the hosted pages are served under it. */
  publicBaseUrl: string;
  /** How long every API answer is held (SANDBOX_LATENCY_MS): a slow gateway, for the billing bench. */
  latencyMs?: number;
}

/** SANDBOX_LATENCY_MS: a whole number of milliseconds from 0 to 60,000 (0 when unset). */
export function sandboxLatency(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 0;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0 || ms > 60_000) throw new Error(`SANDBOX_LATENCY_MS must be whole milliseconds from 0 to 60000, not "${value}"`);
  return ms;
}

/**
 * An answer the caller never gets: held `holdMs`, then the connection is dropped (a request served by
 * @hono/node-server has its socket); in-process (app.request, no socket) a 504 follows the hold.
 */
async function dropAnswer(c: Context, holdMs: number): Promise<Response> {
  if (holdMs > 0) await new Promise((resolve) => setTimeout(resolve, holdMs));
  const socket = (c.env as { incoming?: { socket?: { destroy?: unknown } } } | undefined)?.incoming?.socket;
  if (socket && typeof socket.destroy === 'function') (socket.destroy as () => void).call(socket);
  return c.json({ code: 'PY9998', message: 'Gateway timeout (sandbox fault): no answer in time.' }, 504);
}

export function createSandbox(deps: SandboxDeps) {
  const { db, gatewayConfig, log } = deps;
  const pageUrl = (kind: 'checkout' | '3ds' | 'link' | 'verify', id: string) => `${deps.publicBaseUrl}${SANDBOX_PATH}/pages/${kind}/${id}`;

  const manilaDay = (at: Date) => new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
  function toMayaPayment(row: SandboxPaymentRow, at: Date): MayaPayment & Record<string, unknown> {
    const paid = row.status === 'PAYMENT_SUCCESS';
    return {
      id: row.id,
      isPaid: paid,
      // As at Maya: a void the same day (before the settlement cut-off), a refund after.
      canVoid: paid && manilaDay(row.updated_at) === manilaDay(at),
      canRefund: paid,
      ...(paid || row.status === 'VOIDED' || row.status === 'REFUNDED' ? { receiptNumber: row.id.slice(0, 12) } : {}),
      status: row.status,
      amount: row.amount,
      currency: row.currency,
      requestReferenceNumber: row.request_reference_number,
      ...(row.status === 'FOR_AUTHENTICATION' ? { verificationUrl: pageUrl('3ds', row.id) } : {}),
      paymentTokenType: row.kind === 'WALLET' ? 'PAYMAYA' : row.kind === 'VAULT' ? 'CARD_TOKEN' : 'CHECKOUT',
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
    };
  }

  async function findPayment(q: Queryable, id: string): Promise<SandboxPaymentRow | null> {
    if (!UUID.test(id)) return null;
    return (await q.query<SandboxPaymentRow>(`${PAYMENT_SELECT} WHERE p.id = $1`, [id])).rows[0] ?? null;
  }

  let signingKey: Promise<string> | undefined;
  /** Sends one payment's webhook as it is now; a failed delivery is logged, never thrown. */
  async function send(row: SandboxPaymentRow): Promise<void> {
    const payload = JSON.stringify(toMayaPayment(row, await now(db)));
    signingKey ??= sandboxSigningKeys(db).then((keys) => keys.privatePem);
    const registered = (await db.query<{ callback_url: string }>('SELECT callback_url FROM sandbox_webhooks WHERE name = $1', [row.status])).rows[0];
    try {
      const response = await (gatewayConfig.fetch ?? fetch)(registered?.callback_url ?? gatewayConfig.webhookUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...signWebhook(await signingKey, payload) },
        body: payload,
        signal: AbortSignal.timeout(15_000),
      });
      if (!response.ok) log(`sandbox: webhook for payment ${row.id} answered ${response.status}`);
    } catch (error) {
      log(`sandbox: webhook for payment ${row.id} not delivered: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * Sends the signed webhook for a payment's outcome (named as Maya names it, e.g. PAYMENT_SUCCESS) to
   * the callback registered for that name, else to the API's own endpoint, as the fault switch's
   * webhook mode says: once, twice at once ('doubled'), or not at all ('lost': remembered, for a late
   * release).
   */
  function deliver(row: SandboxPaymentRow): Promise<void> {
    return track(db, (async () => {
      const mode = await webhookMode(db);
      if (mode === 'lost') {
        await db.query('INSERT INTO sandbox_lost_webhooks (payment_id, status) VALUES ($1, $2) ON CONFLICT DO NOTHING', [row.id, row.status]);
        log(`sandbox: webhook for payment ${row.id} (${row.status}) lost (fault switch)`);
        return;
      }
      if (mode === 'doubled') await Promise.all([send(row), send(row)]);
      else await send(row);
    })());
  }

  // The lost webhooks, sent late: each payment once, as it is now (Maya's retries send the latest state).
  const releaseLost = async (): Promise<number> => {
    const lost = await db.query<{ payment_id: string }>('DELETE FROM sandbox_lost_webhooks RETURNING payment_id');
    const ids = [...new Set(lost.rows.map((r) => r.payment_id))];
    for (const id of ids) {
      const row = await findPayment(db, id);
      if (row) await track(db, send(row));
    }
    return ids.length;
  };
  registerReleaser(db, releaseLost);

  /**
   * As Maya does for a payment made by an API call: the webhook goes out on its own, not before the
   * call is answered (so it may arrive before or after the answer, as over a real network).
   */
  function deliverLater(row: SandboxPaymentRow): void {
    void track(db, new Promise<void>((resolve) => setImmediate(resolve)).then(() => deliver(row)).catch((error: unknown) => {
      log(`sandbox: webhook for payment ${row.id} not delivered: ${error instanceof Error ? error.message : String(error)}`);
    }));
  }

  /**
   * Moves a payment that a person can still act on to `next` (or to PAYMENT_EXPIRED when its time is
   * up: an hour for a checkout, 15 minutes for a 3-D Secure challenge). Returns the row as it is afterwards and whether this call changed it; the
   * webhook is sent by the caller after the transaction, never inside it.
   */
  async function settle(id: string, next: 'PAYMENT_SUCCESS' | 'PAYMENT_FAILED' | 'PAYMENT_CANCELLED' | 'AUTH_FAILED' | null) {
    const result = await db.transaction(async (tx) => {
      const at = await now(tx);
      const row = await findPayment(tx, id);
      if (!row || !AWAITING.includes(row.status)) return { row, changed: false };
      const window = row.kind === 'CHECKOUT' ? CHECKOUT_LIFETIME_MS : CHALLENGE_WINDOW_MS;
      const expired = row.created_at.getTime() + window <= at.getTime();
      const status = expired ? 'PAYMENT_EXPIRED' : next;
      if (!status) return { row, changed: false };
      const updated = await tx.query(`UPDATE sandbox_payments SET status = $2, updated_at = $3 WHERE id = $1 AND status = ANY($4::text[]) RETURNING id`, [
        id, status, at, AWAITING,
      ]);
      return { row: await findPayment(tx, id), changed: updated.rows.length > 0 };
    });
    if (result.changed && result.row) await deliver(result.row);
    return result;
  }

  /** A payment as read now: one whose time is up reads (and is stored, with its webhook) as expired. */
  async function readPayment(id: string, kinds: Array<SandboxPaymentRow['kind']>): Promise<SandboxPaymentRow> {
    const { row } = await settle(id, null);
    if (!row || !kinds.includes(row.kind)) throw new MayaError(404, 'PY0009', 'Payment not found.');
    return row;
  }

  async function insertPayment(
    q: Queryable,
    values: { kind: SandboxPaymentRow['kind']; status: string; amount: string; rrn: string; description?: string; redirect?: z.infer<typeof redirects>; cardTokenId?: string; linkId?: string },
  ): Promise<SandboxPaymentRow> {
    // One statement: the clock read, the row written and read back with its card.
    const inserted = await q.query<SandboxPaymentRow>(
      `WITH inserted AS (
         INSERT INTO sandbox_payments (kind, status, amount, currency, request_reference_number, description, redirect_success, redirect_failure,
           redirect_cancel, card_token_id, link_id, created_at, updated_at)
         VALUES ($1, $2, $3::numeric, 'PHP', $4, $5, $6, $7, $8, $9, $10, ${clockSql('$11')}, ${clockSql('$11')}) RETURNING *)
       ${PAYMENT_SELECT.replace('FROM sandbox_payments p', 'FROM inserted p')}`,
      [values.kind, values.status, values.amount, values.rrn, values.description ?? '', values.redirect?.success ?? null, values.redirect?.failure ?? null,
        values.redirect?.cancel ?? null, values.cardTokenId ?? null, values.linkId ?? null, unsetClock()],
    );
    return inserted.rows[0]!;
  }

  /* ----------------------------------------------------------------- the API */

  const api = new Hono();
  const latencyMs = deps.latencyMs ?? 0;
  // The answer is held after the work is done, as on a slow network: a charge is made at "Maya" while
  // the caller still waits (the case where a caller killed meanwhile must not charge again).
  if (latencyMs > 0) api.use('*', async (_c, next) => {
    await next();
    await new Promise((r) => setTimeout(r, latencyMs));
  });
  api.onError((error, c) => {
    if (error instanceof MayaError) return mayaError(c, error);
    log(`sandbox: ${c.req.method} ${c.req.path}: ${error instanceof Error ? error.message : String(error)}`);
    return c.json({ code: 'PY9999', message: 'Sandbox error.' }, 500);
  });
  // The fault switch (faults.ts): consulted on every Maya call, at no cost while nothing is armed.
  api.use('*', async (c, next) => {
    const call = callKind(c.req.method, c.req.path);
    const fault = call ? await takeFault(db, call) : null;
    if (!fault) return next();
    log(`sandbox: fault ${fault.mode} on ${c.req.method} ${c.req.path}`);
    switch (fault.mode) {
      case 'http500':
        return c.json({ code: 'PY9999', message: 'Internal server error (sandbox fault).' }, 500);
      case 'http401':
        return c.json({ code: 'K003', message: 'Invalid authentication credentials (sandbox fault).' }, 401);
      case 'http429':
        return c.json({ code: 'PY0429', message: 'Too many requests (sandbox fault).' }, 429, { 'Retry-After': '1' });
      case 'unreadable':
        await next();
        // Maya did the work; its answer is one our client's schema refuses.
        if (c.res.ok) c.res = new Response(JSON.stringify({ sandboxFault: 'unreadable', result: 'OK' }), { status: 200, headers: { 'Content-Type': 'application/json' } });
        return;
      case 'charge-then-timeout':
        await next();
        c.res = await dropAnswer(c, fault.holdMs);
        return;
      case 'timeout':
        return dropAnswer(c, fault.holdMs);
    }
  });
  const key = (which: 'public' | 'secret') => async (c: Context, next: () => Promise<void>) => {
    if (c.req.header('Authorization') !== basicAuth(which === 'public' ? SANDBOX_PUBLIC_KEY : SANDBOX_SECRET_KEY)) {
      return c.json({ code: 'K003', message: `Invalid authentication credentials: use the ${which} key.` }, 401);
    }
    await next();
  };

  // Checkout
  api.post('/checkout/v1/checkouts', key('public'), async (c) => {
    const request = await body(c, checkoutRequest);
    const row = await insertPayment(db, {
      kind: 'CHECKOUT', status: 'PENDING_PAYMENT', amount: fromMayaValue(request.totalAmount.value), rrn: request.requestReferenceNumber,
      description: request.items.map((item) => item.name).join(', '), redirect: request.redirectUrl,
    });
    return c.json({ checkoutId: row.id, redirectUrl: pageUrl('checkout', row.id) }, 200);
  });
  api.get('/checkout/v1/checkouts/:id', key('secret'), async (c) => {
    const row = await readPayment(param(c, 'id'), ['CHECKOUT']);
    const status = row.status === 'PAYMENT_SUCCESS' ? 'COMPLETED' : row.status === 'PAYMENT_EXPIRED' ? 'EXPIRED' : row.status === 'PENDING_PAYMENT' ? 'CREATED' : 'PROCESSING';
    return c.json({
      id: row.id, status, paymentStatus: row.status, totalAmount: { value: Number(row.amount), currency: row.currency },
      requestReferenceNumber: row.request_reference_number, createdAt: row.created_at.toISOString(), updatedAt: row.updated_at.toISOString(),
      expiredAt: new Date(row.created_at.getTime() + CHECKOUT_LIFETIME_MS).toISOString(),
      ...(row.status === 'PAYMENT_SUCCESS' ? { paymentId: row.id } : {}),
    });
  });

  // Vault: payment tokens, customers, cards, payments on a card token
  api.post('/payments/v1/payment-tokens', key('public'), async (c) => {
    const { card } = await body(c, tokenRequest);
    const brand = mayaCardType(card.number);
    if (!brand || !luhn(card.number)) throw new MayaError(400, 'PY0002', 'Invalid card number.');
    const month = Number(card.expMonth);
    if (month < 1 || month > 12) throw new MayaError(400, 'PY0003', 'Invalid expiry month.');
    const at = await now(db);
    if (newCardError(card, at)) throw new MayaError(400, 'PY0004', 'Card expired.');
    const known = SANDBOX_CARDS[card.number] ?? { behaviour: 'APPROVE', passkey: null };
    const id = randomBytes(36).toString('base64url');
    await db.query(
      `INSERT INTO sandbox_payment_tokens (id, brand, first6, last4, behaviour, state, created_at, passkey) VALUES ($1, $2, $3, $4, $5, 'AVAILABLE', $6, $7)`,
      [id, brand, card.number.slice(0, 6), card.number.slice(-4), known.behaviour, at, known.passkey],
    );
    return c.json({ paymentTokenId: id, state: 'AVAILABLE', createdAt: at.toISOString(), updatedAt: at.toISOString(), issuer: 'Sandbox Bank' });
  });

  api.post('/payments/v1/customers', key('secret'), async (c) => {
    const request = await body(c, customerRequest);
    const at = await now(db);
    const row = await db.query<{ id: string }>(
      'INSERT INTO sandbox_customers (first_name, last_name, email, phone, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [request.firstName, request.lastName, request.contact.email, request.contact.phone ?? null, at],
    );
    return c.json({ id: row.rows[0]!.id, firstName: request.firstName, lastName: request.lastName, contact: request.contact, createdAt: at.toISOString() });
  });

  const ownCustomer = async (id: string) => {
    if (!UUID.test(id) || !(await db.query('SELECT 1 FROM sandbox_customers WHERE id = $1', [id])).rows.length) {
      throw new MayaError(404, 'PY0010', 'Customer not found.');
    }
  };

  interface CardRow {
    card_token_id: string;
    brand: string;
    first6: string;
    last4: string;
    state: string;
    is_default: boolean;
    created_at: Date;
    updated_at: Date;
  }
  const toMayaCard = (card: CardRow) => ({
    cardTokenId: card.card_token_id, cardType: card.brand, maskedPan: card.last4, first6: card.first6, last4: card.last4, walletType: 'VAULT',
    state: card.state, default: card.is_default, createdAt: card.created_at.toISOString(), updatedAt: card.updated_at.toISOString(),
  });

  // Linking a card: PRE_VERIFICATION until the customer confirms it with the bank on verificationUrl.
  api.post('/payments/v1/customers/:customerId/cards', key('secret'), async (c) => {
    const customerId = param(c, 'customerId');
    await ownCustomer(customerId);
    const request = await body(c, cardRequest);
    const card = await db.transaction(async (tx) => {
      const at = await now(tx);
      const token = (
        await tx.query<{ brand: string; first6: string; last4: string; behaviour: string; passkey: string | null }>(
          `UPDATE sandbox_payment_tokens SET state = 'USED' WHERE id = $1 AND state = 'AVAILABLE' RETURNING brand, first6, last4, behaviour, passkey`,
          [request.paymentTokenId],
        )
      ).rows[0];
      if (!token) throw new MayaError(400, 'PY0008', 'Token is invalid.');
      const cardTokenId = randomBytes(24).toString('base64url');
      const inserted = await tx.query<CardRow>(
        `INSERT INTO sandbox_cards (card_token_id, customer_id, brand, first6, last4, behaviour, state, is_default, created_at, updated_at, passkey,
           redirect_success, redirect_failure, redirect_cancel)
         VALUES ($1, $2, $3, $4, $5, $6, 'PRE_VERIFICATION', $7, $8, $8, $9, $10, $11, $12) RETURNING *`,
        [cardTokenId, customerId, token.brand, token.first6, token.last4, token.behaviour, request.isDefault ?? true, at, token.passkey,
          request.redirectUrl?.success ?? null, request.redirectUrl?.failure ?? null, request.redirectUrl?.cancel ?? null],
      );
      return inserted.rows[0]!;
    });
    return c.json({ ...toMayaCard(card), verificationUrl: pageUrl('verify', card.card_token_id) });
  });

  api.get('/payments/v1/customers/:customerId/cards', key('secret'), async (c) => {
    const customerId = param(c, 'customerId');
    await ownCustomer(customerId);
    const cards = await db.query<CardRow>('SELECT * FROM sandbox_cards WHERE customer_id = $1 ORDER BY created_at', [customerId]);
    return c.json(cards.rows.map(toMayaCard));
  });

  // "Delete Card of Customer": the card is gone from the vault (Maya answers the card as it was); an
  // unknown card, or another customer's, is a 404.
  api.delete('/payments/v1/customers/:customerId/cards/:cardTokenId', key('secret'), async (c) => {
    const customerId = param(c, 'customerId');
    await ownCustomer(customerId);
    const deleted = await db.query<CardRow>('DELETE FROM sandbox_cards WHERE card_token_id = $1 AND customer_id = $2 RETURNING *', [param(c, 'cardTokenId'), customerId]);
    const card = deleted.rows[0];
    if (!card) throw new MayaError(404, 'PY0025', 'Card not found.');
    return c.json({ ...toMayaCard(card), state: 'DELETED' });
  });

  api.post('/payments/v1/customers/:customerId/cards/:cardTokenId/payments', key('secret'), async (c) => {
    const customerId = param(c, 'customerId');
    const cardTokenId = param(c, 'cardTokenId');
    const request = await body(c, vaultPaymentRequest);
    // The customer's card (a card of no one's or someone else's customer is not found either way).
    const card = UUID.test(customerId)
      ? (await db.query<{ behaviour: CardBehaviour; state: string }>('SELECT behaviour, state FROM sandbox_cards WHERE card_token_id = $1 AND customer_id = $2', [cardTokenId, customerId])).rows[0]
      : undefined;
    if (!card) {
      await ownCustomer(customerId);
      throw new MayaError(404, 'PY0011', 'Card not found.');
    }
    if (card.state !== 'VERIFIED') throw new MayaError(400, 'PY0013', 'Card is not verified.');
    const status = card.behaviour === 'THREE_DS' ? 'FOR_AUTHENTICATION' : card.behaviour === 'DECLINE' ? 'PAYMENT_FAILED' : 'PAYMENT_SUCCESS';
    const row = await insertPayment(db, {
      kind: 'VAULT', status, amount: fromMayaValue(request.totalAmount.amount), rrn: request.requestReferenceNumber, redirect: request.redirectUrl, cardTokenId,
    });
    if (status !== 'FOR_AUTHENTICATION') deliverLater(row);
    return c.json(toMayaPayment(row, row.created_at));
  });

  api.get('/payments/v1/payments/:id', key('secret'), async (c) =>
    c.json(toMayaPayment(await readPayment(param(c, 'id'), ['CHECKOUT', 'VAULT', 'WALLET']), await now(db))),
  );

  // Every payment with one reference number (Maya answers an array).
  api.get('/payments/v1/payment-rrns/:rrn', key('secret'), async (c) => {
    const ids = await db.query<{ id: string }>('SELECT id FROM sandbox_payments WHERE request_reference_number = $1 ORDER BY created_at', [param(c, 'rrn')]);
    const rows = [];
    for (const { id } of ids.rows) rows.push(await readPayment(id, ['CHECKOUT', 'VAULT', 'WALLET']));
    const at = await now(db);
    return c.json(rows.map((row) => toMayaPayment(row, at)));
  });

  /** A void the same day, a refund of what is left after; each is stored with its webhook. */
  async function reverse(id: string, kind: 'VOIDED' | 'REFUNDED', amount: string | null) {
    const result = await db.transaction(async (tx) => {
      const at = await now(tx);
      const row = await findPayment(tx, id);
      if (!row) throw new MayaError(404, 'PY0009', 'Payment does not exist.');
      const payment = toMayaPayment(row, at);
      if (kind === 'VOIDED' && !payment.canVoid) throw new MayaError(400, 'PY0101', 'Payment cannot be voided.');
      if (kind === 'REFUNDED' && !payment.canRefund) throw new MayaError(400, 'PY0102', 'Payment cannot be refunded.');
      // A refund of part of what is left (the back office's partial refund): the payment stays paid until all of it is given back.
      const left = Math.round(Number(row.amount) * 100) - Math.round(Number(row.refunded_amount ?? 0) * 100);
      const asked = amount === null ? left : Math.round(Number(amount) * 100);
      if (asked <= 0 || asked > left) throw new MayaError(400, 'PY0103', 'The refund amount is more than what is left of the payment.');
      await tx.query(
        `UPDATE sandbox_payments SET status = CASE WHEN refunded_amount + $4::numeric >= amount THEN $2 ELSE status END,
           refunded_amount = refunded_amount + $4::numeric, updated_at = $3 WHERE id = $1`,
        [id, kind, at, (asked / 100).toFixed(2)],
      );
      return (await findPayment(tx, id))!;
    });
    await deliver(result);
    return result;
  }
  api.post('/payments/v1/payments/:id/voids', key('secret'), async (c) => {
    await body(c, voidRequest);
    const row = await reverse(param(c, 'id'), 'VOIDED', null);
    return c.json({ id: randomBytes(8).toString('hex'), paymentId: row.id, status: 'SUCCESS', voidedAt: row.updated_at.toISOString() });
  });
  api.post('/payments/v1/payments/:id/refunds', key('secret'), async (c) => {
    const request = await body(c, refundRequest);
    const row = await reverse(param(c, 'id'), 'REFUNDED', fromMayaValue(request.totalAmount.amount));
    return c.json({ paymentTransactionReferenceNo: row.id, status: 'SUCCESS', refundedAmount: row.refunded_amount, createdAt: row.updated_at.toISOString() });
  });

  // Webhook registrations: one callback address per event name.
  interface WebhookRow {
    id: string;
    name: string;
    callback_url: string;
    created_at: Date;
    updated_at: Date;
  }
  const toWebhook = (w: WebhookRow) => ({ id: w.id, name: w.name, callbackUrl: w.callback_url, createdAt: w.created_at.toISOString(), updatedAt: w.updated_at.toISOString() });
  api.get('/checkout/v1/webhooks', key('secret'), async (c) => c.json((await db.query<WebhookRow>('SELECT * FROM sandbox_webhooks ORDER BY name')).rows.map(toWebhook)));
  api.post('/checkout/v1/webhooks', key('secret'), async (c) => {
    const request = await body(c, webhookRequest);
    const at = await now(db);
    const row = (
      await db.query<WebhookRow>('INSERT INTO sandbox_webhooks (name, callback_url, created_at, updated_at) VALUES ($1, $2, $3, $3) ON CONFLICT (name) DO NOTHING RETURNING *', [
        request.name, request.callbackUrl, at,
      ])
    ).rows[0];
    if (!row) throw new MayaError(409, 'PY0040', 'A webhook with this name already exists.');
    return c.json(toWebhook(row));
  });
  api.put('/checkout/v1/webhooks/:id', key('secret'), async (c) => {
    const request = await body(c, webhookRequest);
    const id = param(c, 'id');
    const row = UUID.test(id)
      ? (
          await db.query<WebhookRow>('UPDATE sandbox_webhooks SET name = $2, callback_url = $3, updated_at = $4 WHERE id = $1 RETURNING *', [
            id, request.name, request.callbackUrl, await now(db),
          ])
        ).rows[0]
      : undefined;
    if (!row) throw new MayaError(404, 'PY0041', 'Webhook not found.');
    return c.json(toWebhook(row));
  });
  api.delete('/checkout/v1/webhooks/:id', key('secret'), async (c) => {
    const id = param(c, 'id');
    const row = UUID.test(id) ? (await db.query<WebhookRow>('DELETE FROM sandbox_webhooks WHERE id = $1 RETURNING *', [id])).rows[0] : undefined;
    if (!row) throw new MayaError(404, 'PY0041', 'Webhook not found.');
    return c.json(toWebhook(row));
  });

  // Pay with Maya: wallet links and payments on a link
  api.post('/payby/v2/paymaya/link', key('public'), async (c) => {
    const request = await body(c, linkRequest);
    const at = await now(db);
    const row = await db.query<{ id: string }>(
      `INSERT INTO sandbox_wallet_links (status, request_reference_number, redirect_success, redirect_failure, redirect_cancel, created_at, updated_at)
       VALUES ('PENDING', $1, $2, $3, $4, $5, $5) RETURNING id`,
      [request.requestReferenceNumber, request.redirectUrl.success, request.redirectUrl.failure, request.redirectUrl.cancel, at],
    );
    const linkId = row.rows[0]!.id;
    return c.json({ linkId, redirectUrl: pageUrl('link', linkId) });
  });

  const linkedRow = async (linkId: string) => {
    if (!UUID.test(linkId)) return null;
    return (
      await db.query<{ id: string; profile_id: string; email: string | null }>(`SELECT id, profile_id, email FROM sandbox_wallet_links WHERE id = $1 AND status = 'LINKED'`, [linkId])
    ).rows[0] ?? null;
  };

  api.get('/payby/v2/paymaya/link/:linkId', key('secret'), async (c) => {
    const link = await linkedRow(param(c, 'linkId'));
    if (!link) throw new MayaError(404, 'PY0012', 'Link not found.');
    // As documented: no link id in the answer (the caller knows it), linked once there is a customer.
    return c.json({
      profileId: link.profile_id,
      card: { state: 'VERIFIED', maskedPan: '6781' },
      customer: {
        firstName: 'Maya', middleName: null, lastName: 'Sandbox', birthday: '1990-01-01', sex: 'F',
        contact: { phone: '+639193890579', email: link.email ?? 'wallet.tester@maya.sandbox' },
      },
    });
  });

  api.delete('/payby/v2/paymaya/link/:linkId', key('secret'), async (c) => {
    const link = await linkedRow(param(c, 'linkId'));
    if (!link) throw new MayaError(404, 'PY0012', 'Link not found.');
    await db.query(`UPDATE sandbox_wallet_links SET status = 'UNLINKED', updated_at = $2 WHERE id = $1`, [link.id, await now(db)]);
    return c.body(null, 204);
  });

  api.post('/payby/v2/paymaya/link/:linkId/execute', key('secret'), async (c) => {
    const linkId = param(c, 'linkId');
    const request = await body(c, walletPaymentRequest);
    if (!(await linkedRow(linkId))) throw new MayaError(404, 'PY0012', 'Link not found.');
    const row = await insertPayment(db, { kind: 'WALLET', status: 'PAYMENT_SUCCESS', amount: fromMayaValue(request.totalAmount.value), rrn: request.requestReferenceNumber, linkId });
    deliverLater(row);
    return c.json(toMayaPayment(row, row.created_at));
  });

  /* ----------------------------------------------------------------- hosted pages */

  const ACTIONS = { approve: 'PAYMENT_SUCCESS', decline: 'PAYMENT_FAILED', cancel: 'PAYMENT_CANCELLED' } as const;
  type Action = keyof typeof ACTIONS;
  const readForm = async (c: Context): Promise<{ action: Action | null; passkey: string }> => {
    const form = (await c.req.parseBody().catch(() => ({}))) as Record<string, unknown>;
    const action = form.action;
    return {
      action: typeof action === 'string' && action in ACTIONS ? (action as Action) : null,
      passkey: typeof form.passkey === 'string' ? form.passkey : '',
    };
  };
  const readAction = async (c: Context): Promise<Action | null> => (await readForm(c)).action;
  const addressFor = (row: SandboxPaymentRow) =>
    row.status === 'PAYMENT_SUCCESS' ? row.redirect_success : row.status === 'PAYMENT_CANCELLED' ? row.redirect_cancel : row.redirect_failure;

  const paymentPage = (kind: 'checkout' | '3ds') => {
    const rowKind = kind === 'checkout' ? 'CHECKOUT' : 'VAULT';
    const pages = new Hono();
    pages.get('/:id', async (c) => {
      const { row } = await settle(param(c, 'id'), null);
      if (!row || row.kind !== rowKind) return c.html(renderOutcome('Payment not found', 'This payment does not exist.', null), 404);
      const model: PageModel = {
        kind, amount: row.amount, currency: row.currency, reference: row.request_reference_number, description: row.description,
        card: row.brand && row.last4 ? { brand: row.brand, last4: row.last4 } : null, action: `${SANDBOX_PATH}/pages/${kind}/${row.id}`,
        asksPasskey: kind === '3ds' && Boolean(row.passkey),
      };
      if (!AWAITING.includes(row.status)) return c.html(renderOutcome(...doneText(row.status), addressFor(row)));
      return c.html(renderPage(model));
    });
    pages.post('/:id', async (c) => {
      const { action, passkey } = await readForm(c);
      const id = param(c, 'id');
      // The bank's page checks the card's passkey: a wrong one fails the authentication (AUTH_FAILED).
      const expected = kind === '3ds' && action === 'approve' && UUID.test(id) ? (await findPayment(db, id))?.passkey : null;
      const { row } = await settle(id, action ? (expected && passkey !== expected ? 'AUTH_FAILED' : ACTIONS[action]) : null);
      if (!row || row.kind !== rowKind) return c.html(renderOutcome('Payment not found', 'This payment does not exist.', null), 404);
      const address = addressFor(row);
      if (!action || AWAITING.includes(row.status) || !address) return c.redirect(`${SANDBOX_PATH}/pages/${kind}/${id}`, 303);
      return c.redirect(address, 303);
    });
    return pages;
  };

  const linkPages = new Hono();
  const findLink = async (id: string) =>
    UUID.test(id)
      ? ((
          await db.query<{ id: string; status: string; request_reference_number: string; redirect_success: string; redirect_failure: string; redirect_cancel: string }>(
            'SELECT id, status, request_reference_number, redirect_success, redirect_failure, redirect_cancel FROM sandbox_wallet_links WHERE id = $1',
            [id],
          )
        ).rows[0] ?? null)
      : null;
  const linkAddress = (link: NonNullable<Awaited<ReturnType<typeof findLink>>>) =>
    link.status === 'LINKED' ? link.redirect_success : link.status === 'CANCELLED' ? link.redirect_cancel : link.redirect_failure;
  linkPages.get('/:id', async (c) => {
    const link = await findLink(param(c, 'id'));
    if (!link) return c.html(renderOutcome('Link not found', 'This wallet link does not exist.', null), 404);
    if (link.status !== 'PENDING') return c.html(renderOutcome('Already answered', `This wallet link is ${link.status.toLowerCase()}.`, linkAddress(link)));
    return c.html(renderPage({ kind: 'link', amount: null, currency: 'PHP', reference: link.request_reference_number, description: '', card: null, action: `${SANDBOX_PATH}/pages/link/${link.id}` }));
  });
  linkPages.post('/:id', async (c) => {
    const action = await readAction(c);
    const id = param(c, 'id');
    const status = action === 'approve' ? 'LINKED' : action === 'decline' ? 'FAILED' : action === 'cancel' ? 'CANCELLED' : null;
    if (status) await db.query(`UPDATE sandbox_wallet_links SET status = $2, updated_at = $3 WHERE id = $1 AND status = 'PENDING'`, [UUID.test(id) ? id : null, status, await now(db)]);
    const link = await findLink(id);
    if (!link) return c.html(renderOutcome('Link not found', 'This wallet link does not exist.', null), 404);
    if (link.status === 'PENDING') return c.redirect(`${SANDBOX_PATH}/pages/link/${id}`, 303);
    return c.redirect(linkAddress(link), 303);
  });

  // Card verification (3-D Secure at save time): the customer confirms the card, the card is VERIFIED.
  const verifyPages = new Hono();
  const findCard = async (token: string) =>
    (
      await db.query<{ card_token_id: string; brand: string; last4: string; state: string; passkey: string | null; redirect_success: string | null; redirect_failure: string | null; redirect_cancel: string | null }>(
        'SELECT card_token_id, brand, last4, state, passkey, redirect_success, redirect_failure, redirect_cancel FROM sandbox_cards WHERE card_token_id = $1',
        [token],
      )
    ).rows[0] ?? null;
  const cardAddress = (card: NonNullable<Awaited<ReturnType<typeof findCard>>>, action: Action | null) =>
    card.state === 'VERIFIED' ? card.redirect_success : action === 'cancel' ? card.redirect_cancel : card.redirect_failure;
  verifyPages.get('/:token', async (c) => {
    const card = await findCard(param(c, 'token'));
    if (!card) return c.html(renderOutcome('Card not found', 'This card does not exist.', null), 404);
    if (card.state !== 'PRE_VERIFICATION') return c.html(renderOutcome('Already answered', `This card is ${card.state === 'VERIFIED' ? 'verified' : 'not verified'}.`, cardAddress(card, null)));
    return c.html(renderPage({
      kind: 'verify', amount: null, currency: 'PHP', reference: card.card_token_id.slice(0, 12), description: '', card: { brand: card.brand, last4: card.last4 },
      action: `${SANDBOX_PATH}/pages/verify/${card.card_token_id}`, asksPasskey: Boolean(card.passkey),
    }));
  });
  verifyPages.post('/:token', async (c) => {
    const { action, passkey } = await readForm(c);
    const card = await findCard(param(c, 'token'));
    if (!card) return c.html(renderOutcome('Card not found', 'This card does not exist.', null), 404);
    if (card.state === 'PRE_VERIFICATION' && action) {
      const verified = action === 'approve' && (!card.passkey || passkey === card.passkey);
      await db.query(`UPDATE sandbox_cards SET state = $2, updated_at = $3 WHERE card_token_id = $1 AND state = 'PRE_VERIFICATION'`, [
        card.card_token_id, verified ? 'VERIFIED' : 'FAILED', await now(db),
      ]);
    }
    const after = (await findCard(card.card_token_id))!;
    const address = cardAddress(after, action);
    if (after.state === 'PRE_VERIFICATION' || !address) return c.redirect(`${SANDBOX_PATH}/pages/verify/${card.card_token_id}`, 303);
    return c.redirect(address, 303);
  });

  // The fault switch (dev only, like the rest of the sandbox): set, read, clear; lost webhooks released.
  const faults = new Hono();
  faults.get('/', async (c) => c.json(await readSandboxFaults(db)));
  faults.post('/', async (c) => {
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      return c.json({ message: 'The body must be JSON: { faults: [{ on, mode, times }], webhooks }' }, 400);
    }
    const parsed = faultSwitchSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return c.json({ message: `Invalid fault switch: ${issue?.path.join('.') || 'body'}: ${issue?.message ?? ''}` }, 400);
    }
    const state = await setSandboxFaults(db, parsed.data);
    log(`sandbox: fault switch set: ${JSON.stringify(state)}`);
    return c.json(state);
  });
  faults.delete('/', async (c) => c.json(await clearSandboxFaults(db)));
  faults.post('/webhooks/release', async (c) => c.json({ released: await releaseLost() }));

  const app = new Hono();
  app.route('/_faults', faults);
  app.route('/pages/verify', verifyPages);
  app.route('/pages/checkout', paymentPage('checkout'));
  app.route('/pages/3ds', paymentPage('3ds'));
  app.route('/pages/link', linkPages);
  app.route('/', api);
  return app;
}

function doneText(status: string): [string, string] {
  switch (status) {
    case 'PAYMENT_SUCCESS':
      return ['Payment received', 'This payment has already been made.'];
    case 'PAYMENT_EXPIRED':
      return ['Payment expired', 'This payment was not completed in time and has expired.'];
    case 'PAYMENT_CANCELLED':
      return ['Payment cancelled', 'This payment was cancelled.'];
    default:
      return ['Payment declined', 'This payment was declined.'];
  }
}
