/**
 * "Renew now" (product.md#checkout-renewal, #pay-now): a checkout (MAYA_CHECKOUT) subscription is never
 * charged automatically; from 3 days before its end date the viewer pays the next period on Maya's
 * hosted checkout. A PAST_DUE subscription pays its overdue period with the viewer in front: on its own
 * saved card or linked wallet (paid at once, or after the bank's 3-D Secure page: the step a renewal
 * made while nobody was there could not take), a checkout one on the hosted checkout; it renews
 * afterwards on its own method (activation.ts). The payment record carries the period's own reference
 * (renewals.ts `renewalReference`), so a period is paid at most once whichever way it is paid, and on
 * success the next period starts at the current end date (activation.ts), so renewing early loses no days.
 */
import { DAY_MS, now } from '../platform/clock';
import { HttpError } from '../platform/http';
import { RENEWS_KEY } from './activation';
import { charge, type ChargeMethod, type PendingPayment } from './charge';
import type { BillingDeps } from './deps';
import { PAYMENT_MESSAGES, RENEW_MESSAGES } from './messages';
import { recordPayment } from './payments';
import { supersedeCheckouts } from './purchase';
import { renewalReference } from './renewals';
import { refreshPending } from './settlement';
import { currentSubscription, immediateAttemptAt, REMINDER_DAYS } from './subscriptions';
import { formatDateTime } from '../../src/lib/dates';

/** What Renew now answers: Maya's page to go to (hosted checkout, or the bank's 3-D Secure page), paid, or not known yet. */
export type RenewAnswer = { paymentLink: string } | { paid: true } | { pending: true };

type Opened = { link: string } | { payment: PendingPayment; method: ChargeMethod };

/**
 * Pays the due (or overdue) period of the viewer's subscription now: on the hosted checkout, or, for a
 * PAST_DUE card or wallet subscription, on that method with the viewer in front (a 3-D Secure card goes
 * to the bank's page). At most IMMEDIATE_ATTEMPTS_A_DAY card or wallet attempts a Manila day per period,
 * the engine's included: a card that keeps declining is not tried again and again.
 */
export async function payRenewal(deps: BillingDeps, userId: string, subscriptionId: string): Promise<RenewAnswer> {
  // An abandoned checkout that has expired at Maya no longer holds the viewer's one payment slot.
  await refreshPending(deps, userId);
  const opened = await deps.db.transaction(async (tx): Promise<Opened> => {
    const at = await now(tx);
    const current = await currentSubscription(tx, userId, at);
    if (!current || current.id !== subscriptionId || !current.end_date) throw new HttpError(409, RENEW_MESSAGES.nothingDue);
    // A PAST_DUE subscription (any method) pays its overdue period now; a checkout one renews from 3 days before its end.
    const pastDue = current.status === 'PAST_DUE' && current.effective_status === 'PAST_DUE';
    if (!pastDue) {
      if (current.payment_method !== 'MAYA_CHECKOUT') throw new HttpError(409, RENEW_MESSAGES.renewsItself);
      if (current.effective_status !== 'ACTIVE') throw new HttpError(409, RENEW_MESSAGES.notActive);
      if (current.end_date.getTime() - REMINDER_DAYS * DAY_MS > at.getTime()) throw new HttpError(409, RENEW_MESSAGES.tooEarly(REMINDER_DAYS));
    }
    const onMethod = pastDue && (current.payment_method === 'MAYA_VAULT' || current.payment_method === 'MAYA_WALLET');
    const reference = renewalReference(current.id, current.end_date);
    // The next period is on the plan a scheduled move down names, at its price (product.md#scheduled-downgrade).
    const planId = current.scheduled_plan_id ?? current.plan_id;
    const plan = (await tx.query<{ slug: string; name: string; price: string }>('SELECT slug, name, price::text AS price FROM plans WHERE id = $1', [planId])).rows[0];
    const planName = plan?.name ?? current.plan_name;
    const payment: Omit<PendingPayment, 'id'> = {
      userId, referenceId: reference, amount: plan?.price ?? current.plan_price, currency: current.plan_currency, planName,
      planSlug: plan?.slug ?? String(planId), planDescription: `${planName}, the period from ${current.end_date.toISOString().slice(0, 10)}`,
    };
    const existing = (
      await tx.query<{ id: string; status: string; payment_link: string | null; amount: string; open_checkout: boolean; open_confirmation: boolean }>(
        `SELECT r.id, r.status, r.payment_link, r.total_amount::text AS amount,
           EXISTS (SELECT 1 FROM gateway_attempts a WHERE a.record_id = r.id AND a.kind = 'CHECKOUT' AND a.outcome IN ('OPEN', 'UNKNOWN')) AS open_checkout,
           EXISTS (SELECT 1 FROM gateway_attempts a WHERE a.record_id = r.id AND a.kind = 'CARD' AND a.outcome = 'OPEN' AND a.maya_id IS NOT NULL) AS open_confirmation
         FROM payment_records r WHERE r.reference_id = $1 FOR UPDATE`,
        [reference],
      )
    ).rows[0];
    if (existing?.status === 'PAYMENT_SUCCESS') throw new HttpError(409, RENEW_MESSAGES.alreadyPaid);
    if (existing?.status === 'PENDING') {
      // The same period's checkout still open: the viewer goes back to it instead of opening a second one.
      if (existing.open_checkout && existing.payment_link) return { link: existing.payment_link };
      // A card charge waiting for the bank's confirmation (the engine's, or an earlier Renew now): the
      // viewer confirms that one on the bank's page; no second charge is made beside it.
      if (existing.open_confirmation && existing.payment_link) return { link: existing.payment_link };
      throw new HttpError(409, PAYMENT_MESSAGES.inFlight); // the engine is charging it, or another request is opening it
    }
    let method: ChargeMethod = { kind: 'MAYA_CHECKOUT', itemName: `Sine Bisaya ${planName}, next period` };
    if (onMethod) {
      const next = await immediateAttemptAt(tx, current.id, current.end_date, at);
      if (next?.getTime() !== at.getTime()) throw new HttpError(409, next ? RENEW_MESSAGES.triedToday(formatDateTime(next)) : RENEW_MESSAGES.triedTodayLast);
      if (current.payment_method === 'MAYA_WALLET') method = { kind: 'MAYA_WALLET', linkId: String(current.payment_details?.mayaWalletId ?? '') };
      else {
        const cardTokenId = String(current.payment_details?.cardTokenId ?? '');
        const card = (
          await tx.query<{ customer_id: string | null }>('SELECT customer_id FROM saved_cards WHERE user_id = $1 AND card_token_id = $2', [userId, cardTokenId])
        ).rows[0];
        method = { kind: 'MAYA_VAULT', customerId: card?.customer_id ?? null, cardTokenId };
      }
    }
    await supersedeCheckouts(tx, userId);
    const paymentMethod = method.kind;
    if (existing) {
      // An earlier attempt for this period failed or expired: the same record, one more attempt, at the
      // amount the period was billed at, on the method paid with now. Opening a hosted checkout charges
      // nothing, so it is not counted as a retry (retry_count counts charges tried again: the engine's
      // retries, a new card's charge at once, Renew now on the card or wallet).
      await tx.query(
        `UPDATE payment_records SET status = 'PENDING', checkout_id = NULL, payment_link = NULL, payment_method = $3,
           retry_count = retry_count + CASE WHEN $3 = 'MAYA_CHECKOUT' THEN 0 ELSE 1 END,
           last_retry_date = CASE WHEN $3 = 'MAYA_CHECKOUT' THEN last_retry_date ELSE $2 END, updated_at = $2
         WHERE id = $1`,
        [existing.id, at, paymentMethod],
      );
      return { payment: { ...payment, amount: existing.amount, id: existing.id }, method };
    }
    const created = await recordPayment(tx, {
      userId, subscriptionId: current.id, planId, referenceId: reference, status: 'PENDING', amount: payment.amount,
      paymentMethod,
      gatewayResponse: { details: { ...(onMethod ? (current.payment_details ?? {}) : {}), [RENEWS_KEY]: current.id, periodStart: current.end_date.toISOString() } },
      at,
    });
    return { payment: { ...payment, id: created.id }, method };
  }).catch((error: unknown) => {
    // Another request of the viewer wrote a pending payment between the check and the insert.
    if ((error as { code?: string }).code === '23505') throw new HttpError(409, PAYMENT_MESSAGES.inFlight);
    throw error;
  });
  if ('link' in opened) return { paymentLink: opened.link };
  const result = await charge(deps, opened.method, opened.payment);
  if ('redirect' in result) return { paymentLink: result.redirect };
  return result;
}
