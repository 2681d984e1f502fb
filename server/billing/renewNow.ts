/**
 * "Renew now" (product.md#checkout-renewal, #dunning): a checkout (MAYA_CHECKOUT) subscription is never
 * charged automatically; from 3 days before its end date the viewer pays the next period on Maya's
 * hosted checkout. A PAST_DUE subscription, whatever its method, pays its overdue period the same way
 * (and renews afterwards on its own method, activation.ts). The payment record carries the period's own reference (renewals.ts `renewalReference`), so
 * a period is paid at most once whichever way it is paid, and on success the next period starts at the
 * current end date (activation.ts), so renewing early loses no days.
 */
import { DAY_MS, now } from '../platform/clock';
import { HttpError } from '../platform/http';
import { RENEWS_KEY } from './activation';
import { charge, type PendingPayment } from './charge';
import type { BillingDeps } from './deps';
import { PAYMENT_MESSAGES, RENEW_MESSAGES } from './messages';
import { recordPayment } from './payments';
import { supersedeCheckouts } from './purchase';
import { renewalReference } from './renewals';
import { refreshPending } from './settlement';
import { currentSubscription, REMINDER_DAYS } from './subscriptions';

/** Opens (or reopens) the hosted checkout that pays the next period of the viewer's checkout subscription. */
export async function renewWithCheckout(deps: BillingDeps, userId: string, subscriptionId: string): Promise<{ paymentLink: string }> {
  // An abandoned checkout that has expired at Maya no longer holds the viewer's one payment slot.
  await refreshPending(deps, userId);
  const opened = await deps.db.transaction(async (tx): Promise<{ link: string } | { payment: PendingPayment }> => {
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
    const reference = renewalReference(current.id, current.end_date);
    const slug = (await tx.query<{ slug: string }>('SELECT slug FROM plans WHERE id = $1', [current.plan_id])).rows[0]?.slug ?? String(current.plan_id);
    const payment: Omit<PendingPayment, 'id'> = {
      userId, referenceId: reference, amount: current.plan_price, currency: current.plan_currency, planName: current.plan_name,
      planSlug: slug, planDescription: `${current.plan_name}, the period from ${current.end_date.toISOString().slice(0, 10)}`,
    };
    const existing = (
      await tx.query<{ id: string; status: string; payment_link: string | null; amount: string; open_checkout: boolean }>(
        `SELECT r.id, r.status, r.payment_link, r.total_amount::text AS amount,
           EXISTS (SELECT 1 FROM gateway_attempts a WHERE a.record_id = r.id AND a.kind = 'CHECKOUT' AND a.outcome IN ('OPEN', 'UNKNOWN')) AS open_checkout
         FROM payment_records r WHERE r.reference_id = $1 FOR UPDATE`,
        [reference],
      )
    ).rows[0];
    if (existing?.status === 'PAYMENT_SUCCESS') throw new HttpError(409, RENEW_MESSAGES.alreadyPaid);
    // The same period's checkout still open: the viewer goes back to it instead of opening a second one.
    if (existing?.status === 'PENDING') {
      if (existing.open_checkout && existing.payment_link) return { link: existing.payment_link };
      throw new HttpError(409, PAYMENT_MESSAGES.inFlight); // the engine is charging it, or another request is opening it
    }
    await supersedeCheckouts(tx, userId);
    if (existing) {
      // An earlier attempt for this period failed or expired: the same record, one more attempt, at the
      // amount the period was billed at.
      await tx.query(
        `UPDATE payment_records SET status = 'PENDING', checkout_id = NULL, payment_link = NULL, retry_count = retry_count + 1, last_retry_date = $2, updated_at = $2 WHERE id = $1`,
        [existing.id, at],
      );
      return { payment: { ...payment, amount: existing.amount, id: existing.id } };
    }
    const created = await recordPayment(tx, {
      userId, subscriptionId: current.id, planId: current.plan_id, referenceId: reference, status: 'PENDING', amount: current.plan_price,
      paymentMethod: 'MAYA_CHECKOUT', gatewayResponse: { details: { [RENEWS_KEY]: current.id, periodStart: current.end_date.toISOString() } }, at,
    });
    return { payment: { ...payment, id: created.id } };
  }).catch((error: unknown) => {
    // Another request of the viewer wrote a pending payment between the check and the insert.
    if ((error as { code?: string }).code === '23505') throw new HttpError(409, PAYMENT_MESSAGES.inFlight);
    throw error;
  });
  if ('link' in opened) return { paymentLink: opened.link };
  const result = await charge(deps, { kind: 'MAYA_CHECKOUT', itemName: `Sine Bisaya ${opened.payment.planName}, next period` }, opened.payment);
  if (!('redirect' in result)) throw new Error('A checkout always answers with its hosted page');
  return { paymentLink: result.redirect };
}
