/**
 * Payment calls of spec §7 (checkout, vault cards and payments, wallet link and payments), the
 * payment history (ours, design.md), and two public addresses the gateway uses: the return address
 * a browser comes back to from a hosted page, and the webhook. Neither trusts what it is told: both
 * ask the gateway for the payment and apply its answer once (gateway/billing.ts).
 */
import { Hono } from 'hono';
import * as z from 'zod/mini';
import {
  newCardSchema,
  planWithCardTokenSchema,
  planWithLinkSchema,
  walletLinkStartRequestSchema,
  type SavedCard,
  type WalletLink,
} from '../../src/api/schemas';
import { now } from '../platform/clock';
import type { AppEnv, Services } from '../context';
import { HttpError, ok, readBody } from '../platform/http';
import { listPayments } from './payments';
import {
  PAYMENT_MESSAGES,
  applyGatewayAnswer,
  attachGatewayId,
  beginPayment,
  failToStart,
  refreshPending,
  resultStatus,
  settleFromWebhook,
  settlePayment,
} from './settlement';
import { WEBHOOK_PATH } from '../gateway/config';
import { GatewayError, toMayaValue, type RedirectUrls } from '../gateway/maya';
import { cardBrand, luhn } from '../sandbox/api';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyWebhook } from '../gateway/webhook';
import { requireAuth } from '../identity/requireAuth';

export const CARD_MESSAGES = {
  saved: 'Card saved',
  unsupported: 'This card type is not supported',
  invalidNumber: 'Invalid card number',
  invalidMonth: 'Invalid month',
  expired: 'Card expired',
  notFound: 'Card not found. Please add the card again.',
} as const;

export const WALLET_MESSAGES = {
  unlinked: 'Maya Wallet unlinked successfully',
  notLinked: 'Please connect your Maya wallet to continue',
  foreignRedirect: 'The return addresses must be on this app.',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const planIdSchema = z.object({ planId: z.number({ error: 'planId must be a number' }).check(z.int(), z.positive(), z.lte(1_000_000_000)) });
const webhookSchema = z.looseObject({ id: z.string().check(z.minLength(1), z.maxLength(200)), requestReferenceNumber: z.string().check(z.minLength(1), z.maxLength(64)) });

export function paymentRoutes(services: Services) {
  const { db, gateway } = services;
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);
  const base = services.publicBaseUrl;
  const returnUrls = (recordId: string): RedirectUrls => {
    const url = (outcome: string) => `${base}/api/v1/mobile/payment/return/${recordId}?outcome=${outcome}`;
    return { success: url('success'), failure: url('failure'), cancel: url('cancel') };
  };

  const viewer = async (userId: string) =>
    (await db.query<{ email: string; first_name: string; last_name: string; phone_number: string | null }>(
      'SELECT email, first_name, last_name, phone_number FROM users WHERE id = $1',
      [userId],
    )).rows[0]!;

  /* ----------------------------------------------------------------- history */

  app.get('/history', auth, async (c) => {
    await refreshPending(services, c.get('userId'));
    return ok(c, await listPayments(db, c.get('userId')));
  });

  /* ----------------------------------------------------------------- hosted checkout */

  app.post('/checkout/create', auth, async (c) => {
    const { planId } = await readBody(c, planIdSchema);
    const userId = c.get('userId');
    const payment = await beginPayment(services, userId, planId, 'MAYA_CHECKOUT', {});
    const user = await viewer(userId);
    const value = toMayaValue(payment.amount);
    try {
      const created = await gateway.createCheckout({
        totalAmount: { value, currency: payment.currency },
        buyer: { firstName: user.first_name, lastName: user.last_name, contact: { email: user.email } },
        items: [{ name: `Sine Bisaya ${payment.planName}`, quantity: 1, code: payment.planSlug, description: payment.planDescription, amount: { value }, totalAmount: { value } }],
        redirectUrl: returnUrls(payment.id),
        requestReferenceNumber: payment.referenceId,
        metadata: { paymentRecordId: payment.id },
      });
      await attachGatewayId(services, payment.id, created.checkoutId, created.redirectUrl);
      return ok(c, { paymentLink: created.redirectUrl });
    } catch (error) {
      return failToStart(services, payment.id, error);
    }
  });

  /* ----------------------------------------------------------------- vault: cards */

  app.post('/vault/cards', auth, async (c) => {
    const card = await readBody(c, newCardSchema);
    const number = card.number.replace(/\s+/g, '');
    if (!/^\d{12,19}$/.test(number) || !luhn(number)) throw new HttpError(400, CARD_MESSAGES.invalidNumber);
    if (!cardBrand(number)) throw new HttpError(400, CARD_MESSAGES.unsupported);
    const month = Number(card.expMonth);
    if (!/^\d{2}$/.test(card.expMonth) || month < 1 || month > 12) throw new HttpError(400, CARD_MESSAGES.invalidMonth);
    if (!/^\d{4}$/.test(card.expYear)) throw new HttpError(400, CARD_MESSAGES.expired);
    const at = await now(db);
    const manila = new Date(at.getTime() + 8 * 3600_000);
    if (Number(card.expYear) * 12 + month < manila.getUTCFullYear() * 12 + manila.getUTCMonth() + 1) throw new HttpError(400, CARD_MESSAGES.expired);
    const userId = c.get('userId');
    try {
      const customerId = await mayaCustomer(userId);
      const token = await gateway.createPaymentToken({ number, expMonth: card.expMonth, expYear: card.expYear, cvc: card.cvc });
      const reference = `SB-CARD-${Date.now().toString(36).toUpperCase()}`;
      const saved = await gateway.addCustomerCard(customerId, {
        paymentTokenId: token.paymentTokenId, isDefault: card.isDefault, redirectUrl: returnUrls('card'), requestReferenceNumber: reference,
      });
      // Only Maya's token, its masked number, the first six and last four digits and the brand are kept.
      await db.transaction(async (tx) => {
        const stamp = await now(tx);
        if (saved.default) await tx.query('UPDATE saved_cards SET is_default = false, updated_at = $2 WHERE user_id = $1', [userId, stamp]);
        await tx.query(
          `INSERT INTO saved_cards (card_token_id, user_id, card_type, first6, last4, state, is_default, masked_pan, customer_id, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
          [saved.cardTokenId, userId, saved.cardType, number.slice(0, 6), number.slice(-4), saved.state, saved.default, saved.maskedPan, customerId, stamp],
        );
      });
      return ok(c, await defaultCard(userId, saved.cardTokenId), CARD_MESSAGES.saved);
    } catch (error) {
      if (error instanceof GatewayError) {
        if (error.status >= 400 && error.status < 500) throw new HttpError(400, error.message);
        throw new HttpError(502, PAYMENT_MESSAGES.gatewayDown);
      }
      throw error;
    }
  });

  app.get('/vault/cards/default', auth, async (c) => ok(c, await defaultCard(c.get('userId'))));

  /* ----------------------------------------------------------------- vault: pay with a saved card */

  app.post('/vault/create', auth, async (c) => {
    const { planId, cardToken } = await readBody(c, planWithCardTokenSchema);
    const userId = c.get('userId');
    const card = (
      await db.query<{ customer_id: string | null }>('SELECT customer_id FROM saved_cards WHERE card_token_id = $1 AND user_id = $2', [cardToken, userId])
    ).rows[0];
    if (!card || !card.customer_id) throw new HttpError(404, CARD_MESSAGES.notFound);
    if (!Number.isInteger(planId) || planId <= 0) throw new HttpError(404, 'Plan not found');
    const payment = await beginPayment(services, userId, planId, 'MAYA_VAULT', { cardTokenId: cardToken });
    let result;
    try {
      result = await gateway.payWithCard(card.customer_id, cardToken, {
        totalAmount: { amount: toMayaValue(payment.amount), currency: payment.currency },
        requestReferenceNumber: payment.referenceId,
        redirectUrl: returnUrls(payment.id),
      });
    } catch (error) {
      return failToStart(services, payment.id, error);
    }
    await attachGatewayId(services, payment.id, result.id, result.verificationUrl ?? null);
    if (result.verificationUrl && result.status === 'FOR_AUTHENTICATION') return ok(c, { verificationUrl: result.verificationUrl });
    const status = await applyGatewayAnswer(services, { id: payment.id, reference_id: payment.referenceId, amount: payment.amount }, result);
    if (status === 'PAYMENT_SUCCESS') return ok(c, {}, PAYMENT_MESSAGES.paid);
    if (status === 'PENDING') return ok(c, {}, 'Your payment is being processed.');
    throw new HttpError(402, PAYMENT_MESSAGES.declined);
  });

  /* ----------------------------------------------------------------- wallet link */

  app.get('/wallet/link', auth, async (c) => ok(c, await walletLink(c.get('userId'))));

  app.post('/wallet/link', auth, async (c) => {
    const { redirectUrl } = await readBody(c, walletLinkStartRequestSchema);
    const origin = new URL(base).origin;
    for (const address of Object.values(redirectUrl)) {
      if (new URL(address).origin !== origin) throw new HttpError(400, WALLET_MESSAGES.foreignRedirect);
    }
    const userId = c.get('userId');
    let created;
    try {
      created = await gateway.createWalletLink({ redirectUrl, requestReferenceNumber: `SB-LINK-${Date.now().toString(36).toUpperCase()}` });
    } catch (error) {
      if (error instanceof GatewayError && error.status >= 400 && error.status < 500) throw new HttpError(400, error.message);
      throw new HttpError(502, PAYMENT_MESSAGES.gatewayDown);
    }
    const at = await now(db);
    await db.query(
      `INSERT INTO wallet_links (user_id, link_id, created_at, updated_at) VALUES ($1, $2, $3, $3)
       ON CONFLICT (user_id) DO UPDATE SET link_id = EXCLUDED.link_id, updated_at = EXCLUDED.updated_at`,
      [userId, created.linkId, at],
    );
    return ok(c, { linkId: created.linkId, redirectUrl: created.redirectUrl });
  });

  app.delete('/wallet/link', auth, async (c) => {
    const userId = c.get('userId');
    const row = (await db.query<{ link_id: string }>('SELECT link_id FROM wallet_links WHERE user_id = $1', [userId])).rows[0];
    if (!row) throw new HttpError(404, 'No Maya wallet is linked.');
    try {
      await gateway.deleteWalletLink(row.link_id);
    } catch (error) {
      // A link Maya no longer knows is unlinked already; anything else is worth retrying.
      if (!(error instanceof GatewayError && error.status === 404)) throw new HttpError(502, PAYMENT_MESSAGES.gatewayDown);
    }
    await db.query('DELETE FROM wallet_links WHERE user_id = $1 AND link_id = $2', [userId, row.link_id]);
    return ok(c, null, WALLET_MESSAGES.unlinked);
  });

  /* ----------------------------------------------------------------- wallet payment */

  app.post('/wallet/create', auth, async (c) => {
    const { planId, linkId } = await readBody(c, planWithLinkSchema);
    const userId = c.get('userId');
    const link = await walletLink(userId);
    if (!link || link.linkId !== linkId) throw new HttpError(400, WALLET_MESSAGES.notLinked);
    if (!Number.isInteger(planId) || planId <= 0) throw new HttpError(404, 'Plan not found');
    const payment = await beginPayment(services, userId, planId, 'MAYA_WALLET', { mayaWalletId: linkId });
    let result;
    try {
      result = await gateway.payWithWalletLink(linkId, {
        totalAmount: { value: toMayaValue(payment.amount), currency: payment.currency },
        requestReferenceNumber: payment.referenceId,
      });
    } catch (error) {
      return failToStart(services, payment.id, error);
    }
    await attachGatewayId(services, payment.id, result.id, null);
    const status = await applyGatewayAnswer(services, { id: payment.id, reference_id: payment.referenceId, amount: payment.amount }, result);
    if (status === 'PAYMENT_SUCCESS') return ok(c, null, PAYMENT_MESSAGES.paid);
    if (status === 'PENDING') return ok(c, null, 'Your payment is being processed.');
    throw new HttpError(402, PAYMENT_MESSAGES.walletFailed);
  });

  /* ----------------------------------------------------------------- the gateway's addresses (public) */

  // The browser comes back here from a hosted page. The outcome in the address is not believed.
  app.get('/return/:recordId', async (c) => {
    const recordId = c.req.param('recordId');
    const status = UUID.test(recordId) ? await settlePayment(services, recordId) : 'UNKNOWN';
    return c.redirect(`${base}/payment?status=${resultStatus(status)}`, 303);
  });

  app.post(WEBHOOK_PATH.replace('/api/v1/mobile/payment', ''), async (c) => {
    const raw = await c.req.text();
    if (!verifyWebhook(services.gatewayConfig.webhookSecret, raw, c.req.header(SIGNATURE_HEADER), c.req.header(TIMESTAMP_HEADER))) {
      throw new HttpError(401, 'Invalid webhook signature.');
    }
    let parsed;
    try {
      parsed = webhookSchema.safeParse(JSON.parse(raw));
    } catch {
      throw new HttpError(400, 'The request body must be valid JSON.');
    }
    if (!parsed.success) throw new HttpError(400, 'Not a payment webhook.');
    const status = await settleFromWebhook(services, parsed.data.id, parsed.data.requestReferenceNumber);
    return ok(c, { status }, 'Received');
  });

  /* ----------------------------------------------------------------- helpers */

  async function mayaCustomer(userId: string): Promise<string> {
    const known = (await db.query<{ customer_id: string }>('SELECT customer_id FROM maya_customers WHERE user_id = $1', [userId])).rows[0];
    if (known) return known.customer_id;
    const user = await viewer(userId);
    const customer = await gateway.createCustomer({
      firstName: user.first_name, lastName: user.last_name, contact: { email: user.email, ...(user.phone_number ? { phone: user.phone_number } : {}) },
    });
    const at = await now(db);
    await db.query('INSERT INTO maya_customers (user_id, customer_id, created_at) VALUES ($1, $2, $3) ON CONFLICT (user_id) DO NOTHING', [userId, customer.id, at]);
    return (await db.query<{ customer_id: string }>('SELECT customer_id FROM maya_customers WHERE user_id = $1', [userId])).rows[0]!.customer_id;
  }

  async function defaultCard(userId: string, cardTokenId?: string): Promise<SavedCard | null> {
    const row = (
      await db.query<{ card_token_id: string; card_type: string; first6: string; last4: string; masked_pan: string | null; state: string; is_default: boolean; created_at: Date; updated_at: Date }>(
        `SELECT card_token_id, card_type, first6, last4, masked_pan, state, is_default, created_at, updated_at FROM saved_cards
         WHERE user_id = $1 AND ${cardTokenId ? 'card_token_id = $2' : 'is_default'} ORDER BY updated_at DESC LIMIT 1`,
        cardTokenId ? [userId, cardTokenId] : [userId],
      )
    ).rows[0];
    if (!row) return null;
    return {
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
      cardTokenId: row.card_token_id,
      cardType: row.card_type,
      first6: row.first6,
      last4: row.last4,
      maskedPan: row.masked_pan ?? row.last4,
      walletType: 'VAULT',
      state: row.state,
      default: row.is_default,
    };
  }

  async function walletLink(userId: string): Promise<WalletLink | null> {
    const row = (await db.query<{ link_id: string }>('SELECT link_id FROM wallet_links WHERE user_id = $1', [userId])).rows[0];
    if (!row) return null;
    try {
      const link = await gateway.getWalletLink(row.link_id);
      return { linkId: link.linkId, profileId: link.profileId, card: { state: link.card.state }, customer: link.customer };
    } catch (error) {
      if (error instanceof GatewayError && error.status === 404) return null; // not authorized (yet), declined or unlinked at Maya
      throw new HttpError(502, PAYMENT_MESSAGES.gatewayDown);
    }
  }

  return app;
}
