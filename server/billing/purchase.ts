/**
 * Buying a PREMIUM plan (the wizard): check the viewer may buy it, write the PENDING payment record,
 * charge it (charge.ts), and say what the viewer is told.
 */
import type { PaymentMethod, Plan } from '../../src/api/schemas';
import { now } from '../platform/clock';
import type { Queryable } from '../platform/db';
import { HttpError } from '../platform/http';
import { addBillingPeriod } from '../../src/lib/billingPeriod';
import { charge, type ChargeMethod, type ChargeResult, type PendingPayment } from './charge';
import { NO_CONSENT, recordRenewalConsent, renews, type ConsentRequest } from './consent';
import type { BillingDeps } from './deps';
import { PAYMENT_MESSAGES, PAYMENT_METHOD_MESSAGES } from './messages';
import { chargeableCard, walletLink } from './paymentMethods';
import { newReferenceId, recordPayment } from './payments';
import { premiumPlan } from './plans';
import { refreshPending } from './settlement';
import { currentSubscription } from './subscriptions';

/**
 * Makes room for a new payment of the viewer (one purchase, plan change or Renew now in flight per
 * viewer, held by the unique index payment_records_one_in_flight): an unpaid hosted checkout is
 * superseded, as Stripe expires an open session (nobody is charged unless it is paid, and if it is paid
 * anyway its period no longer stands and it is given back, settlement.ts); another card or wallet
 * payment of the viewer on its way is waited for (409). A renewal being charged is not waited for: the
 * change replaces its subscription, and the renewal is given back if it succeeds. `strict: false` (a
 * voucher, which writes no payment) supersedes checkouts and waits for nothing.
 */
export async function supersedeCheckouts(tx: Queryable, userId: string, strict = true): Promise<void> {
  const pending = await tx.query<{ id: string; charging: boolean; checkout: boolean; renewal: boolean }>(
    `SELECT r.id, EXISTS (SELECT 1 FROM gateway_attempts a WHERE a.record_id = r.id AND a.kind IN ('CARD', 'WALLET') AND a.outcome IN ('OPEN', 'UNKNOWN')) AS charging,
       EXISTS (SELECT 1 FROM gateway_attempts a WHERE a.record_id = r.id AND a.kind = 'CHECKOUT' AND a.outcome IN ('OPEN', 'UNKNOWN')) AS checkout,
       (r.gateway_response->'details' ? 'renewsSubscriptionId') AS renewal
     FROM payment_records r WHERE r.user_id = $1 AND r.status = 'PENDING' FOR UPDATE`,
    [userId],
  );
  for (const row of pending.rows) {
    if (row.checkout && !row.charging) {
      await tx.query(
        `UPDATE payment_records SET status = 'PAYMENT_EXPIRED', recheck_at = clock_timestamp(),
           gateway_response = COALESCE(gateway_response, '{}'::jsonb) || '{"superseded": true}'::jsonb WHERE id = $1 AND status = 'PENDING'`,
        [row.id],
      );
    } else if (strict && !row.renewal) {
      throw new HttpError(409, PAYMENT_MESSAGES.inFlight);
    }
  }
}

/**
 * Writes the PENDING record for `plan`, after superseding the viewer's open checkout (a card or wallet
 * charge on its way is a 409); the unique index payment_records_one_in_flight holds the rest.
 */
export async function writePendingPayment(
  tx: Queryable,
  input: { userId: string; plan: Plan; method: PaymentMethod; details: Record<string, unknown>; at: Date },
): Promise<PendingPayment> {
  const { userId, plan } = input;
  await supersedeCheckouts(tx, userId);
  try {
    const record = await recordPayment(tx, {
      userId, planId: plan.id, status: 'PENDING', amount: plan.price, paymentMethod: input.method, referenceId: newReferenceId(),
      gatewayResponse: { details: input.details }, at: input.at,
    });
    return {
      id: record.id, userId, referenceId: record.referenceId, amount: plan.price, currency: plan.currency, planName: plan.name,
      planSlug: plan.slug, planDescription: plan.description,
    };
  } catch (error) {
    // Another request of the viewer wrote a pending payment between the check and the insert.
    if ((error as { code?: string }).code === '23505') throw new HttpError(409, PAYMENT_MESSAGES.inFlight);
    throw error;
  }
}

/**
 * Checks the viewer may buy the plan and writes the PENDING record. Stale pending payments of the
 * viewer are asked about first, so an abandoned checkout that has expired no longer blocks.
 */
async function beginPurchase(
  deps: BillingDeps, userId: string, planId: number, method: PaymentMethod, details: Record<string, unknown>, consent: ConsentRequest = NO_CONSENT,
): Promise<PendingPayment> {
  const plan = await premiumPlan(deps.db, planId);
  await refreshPending(deps, userId);
  return deps.db.transaction(async (tx) => {
    const at = await now(tx);
    const premium = async () => {
      const current = await currentSubscription(tx, userId, at);
      return Boolean(current && current.plan_type !== 'FREE');
    };
    if (await premium()) throw new HttpError(409, PAYMENT_MESSAGES.alreadyPremium);
    const payment = await writePendingPayment(tx, { userId, plan, method, details, at });
    // Asked again once the record holds the one slot (PostgreSQL, read committed): another purchase's
    // success may have freed the slot and started its subscription between the first look and the write;
    // then this one is refused before it is charged, never charged and given back.
    if (await premium()) throw new HttpError(409, PAYMENT_MESSAGES.alreadyPremium);
    // A card or wallet plan renews by itself: the consent is kept with the payment it was given for (product.md#renewal-consent).
    if (renews(method)) {
      const terms = { renewsOn: addBillingPeriod(at, plan.billingCycle, Number(plan.duration)), amount: plan.price, currency: plan.currency };
      await recordRenewalConsent(tx, consent, { userId, action: 'PURCHASE', paymentMethod: method, terms, paymentRecordId: payment.id, at });
    }
    return payment;
  });
}

export interface Answer<T> {
  data: T;
  message?: string;
}

const paidOrPending = <T>(result: Exclude<ChargeResult, { redirect: string }>, data: T): Answer<T> => ({
  data,
  message: 'paid' in result ? PAYMENT_MESSAGES.paid : PAYMENT_MESSAGES.processing,
});

/** Hosted checkout: the viewer pays on Maya's page. */
export async function buyWithCheckout(deps: BillingDeps, userId: string, planId: number): Promise<Answer<{ paymentLink: string }>> {
  const payment = await beginPurchase(deps, userId, planId, 'MAYA_CHECKOUT', {});
  const method: ChargeMethod = { kind: 'MAYA_CHECKOUT', itemName: `Sine Bisaya ${payment.planName}` };
  const result = await charge(deps, method, payment);
  if (!('redirect' in result)) throw new Error('A checkout always answers with its hosted page');
  return { data: { paymentLink: result.redirect } };
}

/** A saved card: paid at once, or after 3-D Secure on the bank's page (`verificationUrl`). */
export async function buyWithCard(
  deps: BillingDeps, userId: string, planId: number, cardTokenId: string, consent: ConsentRequest = NO_CONSENT,
): Promise<Answer<{ verificationUrl?: string }>> {
  const card = await chargeableCard(deps.db, userId, cardTokenId);
  if (!card || !card.customerId) throw new HttpError(404, PAYMENT_METHOD_MESSAGES.cardNotFound);
  if (!card.verified) throw new HttpError(400, PAYMENT_METHOD_MESSAGES.cardNotVerified);
  if (!Number.isInteger(planId) || planId <= 0) throw new HttpError(404, PAYMENT_MESSAGES.planNotFound);
  const payment = await beginPurchase(deps, userId, planId, 'MAYA_VAULT', { cardTokenId }, consent);
  const result = await charge(deps, { kind: 'MAYA_VAULT', customerId: card.customerId, cardTokenId }, payment);
  if ('redirect' in result) return { data: { verificationUrl: result.redirect } };
  return paidOrPending(result, {});
}

/** The linked Maya wallet: paid at once (or still processing). */
export async function buyWithWallet(deps: BillingDeps, userId: string, planId: number, linkId: string, consent: ConsentRequest = NO_CONSENT): Promise<Answer<null>> {
  const link = await walletLink(deps, userId);
  if (!link || link.linkId !== linkId) throw new HttpError(400, PAYMENT_METHOD_MESSAGES.walletNotLinked);
  if (!Number.isInteger(planId) || planId <= 0) throw new HttpError(404, PAYMENT_MESSAGES.planNotFound);
  const payment = await beginPurchase(deps, userId, planId, 'MAYA_WALLET', { mayaWalletId: linkId }, consent);
  const result = await charge(deps, { kind: 'MAYA_WALLET', linkId }, payment);
  if ('redirect' in result) throw new Error('A wallet payment has no hosted page');
  return paidOrPending(result, null);
}
