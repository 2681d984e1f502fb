/** product.md#calls subscription calls: plans (public), status, history, cancel, resubscribe; voucher redeem. */
import { Hono } from 'hono';
import { clientAddress } from '../platform/client';
import * as z from 'zod/mini';
import {
  planChangePreviewQuerySchema,
  resubscribeRequestSchema,
  subscriptionIdRequestSchema,
  updatePaymentMethodRequestSchema,
  updatePlanRequestSchema,
  voucherRedeemRequestSchema,
} from '../../src/api/schemas';
import { changePaymentMethod } from './paymentMethods';
import { changePlan, previewPlanChange, undoScheduledChange } from './planChange';
import { findPlan, listPlans, namedIn, planNamesIn } from './plans';
import { requestLanguage } from '../platform/language';
import type { BillingDeps } from './deps';
import { createMailer } from '../platform/mail';
import type { AppEnv, Services } from '../context';
import { HttpError, ok, okJson, readBody } from '../platform/http';
import {
  cancelSubscription,
  resubscribe,
  subscriptionHistory,
  subscriptionStatus,
} from './subscriptions';
import { redeemThrottled, VOUCHER_MESSAGES } from './vouchers';
import { requireAuth, viewerRead } from '../identity/requireAuth';

const planQuerySchema = z.object({
  type: z.optional(z.enum(['FREE', 'PREMIUM', 'VOUCHER'], { error: 'type must be FREE, PREMIUM or VOUCHER' })),
  isActive: z.optional(z.enum(['true', 'false'], { error: 'isActive must be true or false' })),
});

const planKeySchema = z.string().check(z.regex(/^[a-z0-9-]{1,64}$/i));

export function subscriptionRoutes(services: Services) {
  const { db } = services;
  const billing: BillingDeps = { db, gateway: services.gateway, log: services.log, publicBaseUrl: services.publicBaseUrl, mailer: createMailer(db) };
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);

  // Plans are public: the landing page and the wizard's first step show them before any payment.
  app.get('/plans', async (c) => {
    const parsed = planQuerySchema.safeParse(c.req.query());
    if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]?.message ?? 'Invalid query.');
    const { type, isActive } = parsed.data;
    // product.md#plan-texts: in the request's language (the app asks again in another: its cache is per language).
    return okJson(c, (await listPlans(db, { type, isActive: isActive === undefined ? undefined : isActive === 'true' }, requestLanguage(c))).json);
  });

  app.get('/plans/:idOrSlug', async (c) => {
    const key = c.req.param('idOrSlug');
    if (!planKeySchema.safeParse(key).success) throw new HttpError(404, 'Plan not found');
    return ok(c, await findPlan(db, key, requestLanguage(c)));
  });

  // The two reads check the session in their own statement (issue 21: one round trip on PostgreSQL).
  const readAuth = requireAuth(services, { readChecksSession: true });

  // The plan's name in the reader's language (product.md#plan-texts).
  app.get('/status', readAuth, async (c) => {
    const status = await viewerRead(c, services, (unchecked) => subscriptionStatus(db, c.get('userId'), unchecked));
    const names = await planNamesIn(db, requestLanguage(c));
    if (!names) return ok(c, status);
    const named = (name: string) => names.get(name) ?? name;
    // A scheduled move down names its plan in the same language (product.md#scheduled-downgrade).
    const scheduledChange = status.scheduledChange && { ...status.scheduledChange, planName: named(status.scheduledChange.planName) };
    return ok(c, { ...status, planName: named(status.planName), ...(scheduledChange ? { scheduledChange } : {}) });
  });

  app.get('/history', readAuth, async (c) => {
    const history = await viewerRead(c, services, (unchecked) => subscriptionHistory(db, c.get('userId'), unchecked));
    return okJson(c, namedIn(history.json, 'plan', await planNamesIn(db, requestLanguage(c))));
  });

  // The dates in the answer's message are written as the page writes them in the reader's language.
  app.post('/cancel', auth, async (c) => {
    const { subscriptionId } = await readBody(c, subscriptionIdRequestSchema);
    return ok(c, null, await cancelSubscription(db, c.get('userId'), subscriptionId, requestLanguage(c)));
  });

  app.post('/resubscribe', auth, async (c) => {
    const { subscriptionId, renewalConsent } = await readBody(c, resubscribeRequestSchema);
    return ok(c, null, await resubscribe(db, c.get('userId'), subscriptionId, requestLanguage(c), { consent: renewalConsent, clientAddress: clientAddress(c) }));
  });

  // Issue 9 (planChange.ts, paymentMethods.ts): payment method for the next cycle; plan at once, with its preview.
  app.post('/update-payment-method', auth, async (c) => {
    const request = await readBody(c, updatePaymentMethodRequestSchema);
    const { renewalConsent, ...change } = request;
    const { message, chargeAt } = await changePaymentMethod(billing, c.get('userId'), change, { consent: renewalConsent, clientAddress: clientAddress(c) });
    return ok(c, chargeAt ? { chargeAt } : null, message);
  });

  app.get('/update-plan/preview', auth, async (c) => {
    const parsed = planChangePreviewQuerySchema.safeParse(c.req.query());
    if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]?.message ?? 'Invalid query.');
    return ok(c, await previewPlanChange(billing, c.get('userId'), parsed.data.planId));
  });

  app.post('/update-plan', auth, async (c) => {
    const { subscriptionId, planId, renewalConsent } = await readBody(c, updatePlanRequestSchema);
    const result = await changePlan(billing, c.get('userId'), subscriptionId, planId, requestLanguage(c), { consent: renewalConsent, clientAddress: clientAddress(c) });
    return ok(c, { paymentMethod: result.paymentMethod, paymentLink: result.paymentLink }, result.message);
  });

  // product.md#scheduled-downgrade: a move down waits for the end of the paid period; this undoes it ("Keep Yearly").
  app.post('/update-plan/undo', auth, async (c) => {
    const { subscriptionId } = await readBody(c, subscriptionIdRequestSchema);
    return ok(c, null, await undoScheduledChange(billing, c.get('userId'), subscriptionId, requestLanguage(c)));
  });

  return app;
}

export function voucherRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(services));
  app.post('/redeem', async (c) => {
    const { code } = await readBody(c, voucherRedeemRequestSchema);
    const redeemed = await redeemThrottled(services.db, c.get('userId'), clientAddress(c), code);
    // The voucher plan's name in the reader's language (product.md#plan-texts), as every read names a plan.
    const name = (await planNamesIn(services.db, requestLanguage(c)))?.get(redeemed.subscriptionPlan.name);
    return ok(c, name ? { ...redeemed, subscriptionPlan: { ...redeemed.subscriptionPlan, name } } : redeemed, VOUCHER_MESSAGES.redeemed);
  });
  return app;
}
