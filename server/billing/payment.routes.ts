/**
 * Payment calls (checkout, vault cards and payments, wallet link and payments), the payment history,
 * and two public addresses the gateway uses: the return address a browser comes back to from a hosted
 * page, and the webhook. Neither trusts what it is told: both ask the gateway for the payment and
 * apply its answer once (settlement.ts). Each route parses, calls one use-case, and answers.
 */
import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import { newCardSchema, planWithCardTokenSchema, planWithLinkSchema, subscriptionIdRequestSchema, walletLinkStartRequestSchema } from '../../src/api/schemas';
import type { AppEnv, Services } from '../context';
import { WEBHOOK_PATH } from '../gateway/config';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyWebhook } from '../gateway/webhook';
import { requireAuth, viewerRead } from '../identity/requireAuth';
import { clientAddress } from '../platform/client';
import { HttpError, ok, okJson, readBody } from '../platform/http';
import { LANGUAGES, requestLanguage, type Language } from '../platform/language';
import { documentOf, documentsOf, invoiceOfPayment, toTaxDocument } from './invoices';
import { invoicePdf } from './invoicePdf';
import { namedIn, planNamesIn } from './plans';
import type { BillingDeps } from './deps';
import { PAYMENT_METHOD_MESSAGES } from './messages';
import { PRODUCT_NAME } from '../../src/lib/product';
import { paymentHistory, receiptOf } from './payments';
import { cardVerified, savedCard, saveCard, startWalletLink, unlinkWallet, walletLink } from './paymentMethods';
import { buyWithCard, buyWithCheckout, buyWithWallet } from './purchase';
import { payRenewal } from './renewNow';
import { createMailer, type Mailer } from '../platform/mail';
import { settleFromWebhook } from './reconciler';
import { claimedIds, recordWebhook } from './webhookEvents';
import { mailReceiptOf } from './receipts';
import { reverseDue } from './reversals';
import { resultAddress, settlePayment } from './settlement';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const planIdSchema = z.object({ planId: z.number({ error: 'planId must be a number' }).check(z.int(), z.positive(), z.lte(1_000_000_000)) });
const webhookSchema = z.looseObject({ id: z.string().check(z.minLength(1), z.maxLength(200)), requestReferenceNumber: z.string().check(z.minLength(1), z.maxLength(64)) });

export function paymentRoutes(services: Services) {
  const billing: BillingDeps & { mailer: Mailer } = {
    db: services.db, gateway: services.gateway, log: services.log, publicBaseUrl: services.publicBaseUrl, mailer: createMailer(services.db),
  };
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);

  // Checks the session in its own statement (issue 21: one round trip on PostgreSQL).
  // The plans' names in the reader's language (product.md#plan-texts).
  app.get('/history', requireAuth(services, { readChecksSession: true }), async (c) => {
    const history = await viewerRead(c, services, (unchecked) => paymentHistory(billing, c.get('userId'), unchecked));
    return okJson(c, namedIn(history.json, 'planName', await planNamesIn(billing.db, requestLanguage(c))));
  });

  // Ours (issue 19): the receipt of one successful payment; another viewer's, an unpaid one or none read alike.
  app.get('/receipts/:id', auth, async (c) => {
    const id = c.req.param('id');
    const receipt = UUID.test(id) ? await receiptOf(billing.db, c.get('userId'), id, { name: PRODUCT_NAME, url: billing.publicBaseUrl }) : null;
    if (!receipt) throw new HttpError(404, PAYMENT_METHOD_MESSAGES.noReceipt);
    const names = await planNamesIn(billing.db, requestLanguage(c));
    return ok(c, { ...receipt, planName: names?.get(receipt.planName) ?? receipt.planName });
  });

  // Ours (issue 34, product.md#invoices): the viewer's invoices and credit memos, newest first (also after
  // the subscription ended); one by id; the invoice of a payment (old receipt links); one as a PDF.
  // Another viewer's document reads as an unknown one.
  app.get('/invoices', auth, async (c) => {
    const language = requestLanguage(c);
    return ok(c, { items: (await documentsOf(billing.db, c.get('userId'))).map((row) => toTaxDocument(row, language)) });
  });
  app.get('/invoices/by-payment/:paymentId', auth, async (c) => {
    const row = await invoiceOfPayment(billing.db, c.get('userId'), c.req.param('paymentId'));
    if (!row) throw new HttpError(404, PAYMENT_METHOD_MESSAGES.noInvoice);
    return ok(c, toTaxDocument(row, requestLanguage(c)));
  });
  app.get('/invoices/:id', auth, async (c) => {
    const row = await documentOf(billing.db, c.get('userId'), c.req.param('id'));
    if (!row) throw new HttpError(404, PAYMENT_METHOD_MESSAGES.noInvoice);
    return ok(c, toTaxDocument(row, requestLanguage(c)));
  });
  app.get('/invoices/:id/pdf', auth, async (c) => {
    const row = await documentOf(billing.db, c.get('userId'), c.req.param('id'));
    if (!row) throw new HttpError(404, PAYMENT_METHOD_MESSAGES.noInvoice);
    const asked = c.req.query('lang');
    const language = (LANGUAGES as readonly string[]).includes(asked ?? '') ? (asked as Language) : requestLanguage(c);
    const pdf = await invoicePdf(toTaxDocument(row, language), language);
    return c.body(new Uint8Array(pdf), 200, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${row.number}.pdf"`,
      'Cache-Control': 'private, no-store',
    });
  });

  app.post('/checkout/create', auth, async (c) => {
    const { planId } = await readBody(c, planIdSchema);
    const answer = await buyWithCheckout(billing, c.get('userId'), planId);
    return ok(c, answer.data, answer.message);
  });

  // Ours (product.md#checkout-renewal, #pay-now): "Renew now" pays the next (or overdue) period: on Maya's
  // page, or on a PAST_DUE subscription's own card or wallet. /checkout/renew is its first name, kept for
  // pages loaded before it was renamed.
  const renew = async (c: Context<AppEnv>) => {
    const { subscriptionId } = await readBody(c, subscriptionIdRequestSchema);
    return ok(c, await payRenewal(billing, c.get('userId'), subscriptionId));
  };
  app.post('/renewal/pay', auth, renew);
  app.post('/checkout/renew', auth, renew);

  app.post('/vault/cards', auth, async (c) => {
    const card = await readBody(c, newCardSchema);
    const saved = await saveCard(billing, c.get('userId'), card);
    return ok(c, saved, saved.verificationUrl ? PAYMENT_METHOD_MESSAGES.confirmCard : PAYMENT_METHOD_MESSAGES.cardSaved);
  });

  // The browser comes back here from the card's verification at the bank; Maya is asked, not the address.
  app.get('/cards/return/:reference', async (c) => c.redirect(await cardVerified(billing, c.req.param('reference')), 303));

  app.get('/vault/cards/default', auth, async (c) => ok(c, await savedCard(billing, c.get('userId'))));

  app.post('/vault/create', auth, async (c) => {
    const { planId, cardToken, renewalConsent } = await readBody(c, planWithCardTokenSchema);
    const answer = await buyWithCard(billing, c.get('userId'), planId, cardToken, { consent: renewalConsent, clientAddress: clientAddress(c) });
    return ok(c, answer.data, answer.message);
  });

  app.get('/wallet/link', auth, async (c) => ok(c, await walletLink(billing, c.get('userId'))));

  app.post('/wallet/link', auth, async (c) => {
    const { redirectUrl } = await readBody(c, walletLinkStartRequestSchema);
    return ok(c, await startWalletLink(billing, c.get('userId'), redirectUrl));
  });

  app.delete('/wallet/link', auth, async (c) => {
    await unlinkWallet(billing, c.get('userId'));
    return ok(c, null, PAYMENT_METHOD_MESSAGES.walletUnlinked);
  });

  app.post('/wallet/create', auth, async (c) => {
    const { planId, linkId, renewalConsent } = await readBody(c, planWithLinkSchema);
    const answer = await buyWithWallet(billing, c.get('userId'), planId, linkId, { consent: renewalConsent, clientAddress: clientAddress(c) });
    return ok(c, answer.data, answer.message);
  });

  /* ----------------------------------------------------------------- the gateway's addresses (public) */

  // The browser comes back here from a hosted page. The outcome in the address is not believed.
  app.get('/return/:recordId', async (c) => {
    const recordId = c.req.param('recordId');
    const known = UUID.test(recordId);
    let status = known ? await settlePayment(billing, recordId) : 'UNKNOWN';
    if (status === 'PAYMENT_SUCCESS') await mailReceiptOf(billing, recordId);
    // A payment that pays for nothing (its period was paid, replaced or ended meanwhile) is given back now.
    if (known) status = status === 'PAYMENT_SUCCESS' ? status : await reverseDue(billing, recordId);
    return c.redirect(await resultAddress(billing, billing.publicBaseUrl, known ? recordId : null, status), 303);
  });

  // Maya's webhook: verified (signature, time, optional address), then the payment is read at Maya and
  // decided from the ledger. When Maya could not be read, the answer is a 503, so Maya delivers it again.
  app.post(WEBHOOK_PATH.replace('/api/v1/mobile/payment', ''), async (c) => {
    const raw = await c.req.text();
    const signed = { signature: c.req.header(SIGNATURE_HEADER), timestamp: c.req.header(TIMESTAMP_HEADER), clientIp: clientAddress(c) };
    // Each delivery is recorded (webhookEvents.ts, for the back office), without its body or signature.
    if (!verifyWebhook(services.gatewayConfig.webhook, raw, signed)) {
      await recordWebhook(billing.db, { verified: false, reason: 'Invalid webhook signature', ...claimedIds(raw) }, services.log);
      throw new HttpError(401, 'Invalid webhook signature.');
    }
    let parsed;
    try {
      parsed = webhookSchema.safeParse(JSON.parse(raw));
    } catch {
      await recordWebhook(billing.db, { verified: true, reason: 'Not JSON' }, services.log);
      throw new HttpError(400, 'The request body must be valid JSON.');
    }
    if (!parsed.success) {
      await recordWebhook(billing.db, { verified: true, reason: 'Not a payment webhook', ...claimedIds(raw) }, services.log);
      throw new HttpError(400, 'Not a payment webhook.');
    }
    const status = await settleFromWebhook(billing, parsed.data.requestReferenceNumber);
    await recordWebhook(billing.db, {
      verified: true, reason: status === null ? 'Maya could not be read: to be delivered again' : null,
      mayaPaymentId: parsed.data.id, referenceId: parsed.data.requestReferenceNumber, status: status ?? 'UNREAD',
    }, services.log);
    if (status === null) throw new HttpError(503, 'The payment could not be checked with the gateway yet. Please deliver it again.');
    return ok(c, { status }, 'Received');
  });

  return app;
}
