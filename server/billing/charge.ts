/**
 * The one charge path: a payment record is charged through Maya by hosted checkout, a saved card token
 * or a linked wallet, for a purchase, a plan change, Renew now and the renewal engine alike. Each call
 * is written to the ledger before it is made (ledger.ts) and its answer classified there; the record's
 * outcome is then decided from its attempts (settlement.ts `decideRecord`).
 *
 * `chargeOnce` answers what happened in the ledger's words; `charge` turns that into what a viewer in
 * front of the app is told: where to go next (`redirect`: Maya's hosted page or 3-D Secure), `paid`,
 * `pending` (the answer was lost: Maya is read by reference before anything else is decided), a
 * decline as a 402, our own fault as a 502 (never a decline).
 */
import { fromMayaValue, GatewayError, toMayaValue, type MayaPayment } from '../gateway/maya';
import { contactOf } from '../identity/users';
import { now } from '../platform/clock';
import { HttpError } from '../platform/http';
import { returnUrls, type BillingDeps } from './deps';
import { attemptMade, classifyError, DECLINE_REASONS, classifyPayment, openAttempt, resolveAttempt, type AttemptKind, type Classified } from './ledger';
import { PAYMENT_MESSAGES, PLAN_CHANGE_MESSAGES } from './messages';
import { mailReceiptOf } from './receipts';
import { decideAndSchedule, mayaTime, type Decision } from './settlement';

/** A payment record about to be charged, with what the gateway is told about it. */
export interface PendingPayment {
  id: string;
  userId: string;
  referenceId: string;
  /** Our decimal string, e.g. '99.00': what the record bills (a retry charges the same). */
  amount: string;
  currency: string;
  planName: string;
  planSlug: string;
  planDescription: string;
}

export type ChargeMethod =
  | { kind: 'MAYA_CHECKOUT'; itemName: string }
  /** `customerId` null: the card is not (or no longer) at Maya; the charge fails as 'card not found'. */
  | { kind: 'MAYA_VAULT'; customerId: string | null; cardTokenId: string; redirectUrl?: { success: string; failure: string; cancel: string } }
  | { kind: 'MAYA_WALLET'; linkId: string };

export type ChargeResult = { redirect: string } | { paid: true } | { pending: true };

const KIND: Record<ChargeMethod['kind'], AttemptKind> = { MAYA_CHECKOUT: 'CHECKOUT', MAYA_VAULT: 'CARD', MAYA_WALLET: 'WALLET' };

export interface Attempted {
  attemptId: string;
  result: Classified;
  /** The hosted page or 3-D Secure page the viewer goes to, when there is one. */
  redirect: string | null;
  decision: Decision | null;
}

/** Writes the attempt, calls Maya once, writes what it said, and decides the record. */
export async function chargeOnce(deps: BillingDeps, method: ChargeMethod, payment: PendingPayment, attemptId?: string): Promise<Attempted> {
  const { db, gateway } = deps;
  const kind = KIND[method.kind];
  const details = method.kind === 'MAYA_VAULT' ? { cardTokenId: method.cardTokenId } : method.kind === 'MAYA_WALLET' ? { mayaWalletId: method.linkId } : null;
  const id = attemptId ?? (await openAttempt(db, { recordId: payment.id, kind, referenceId: payment.referenceId, amount: payment.amount, currency: payment.currency, methodDetails: details, at: await now(db) }));
  const value = toMayaValue(payment.amount);
  let answer: MayaPayment;
  let redirect: string | null = null;
  try {
    if (method.kind === 'MAYA_CHECKOUT') {
      const buyer = await contactOf(db, payment.userId);
      const created = await gateway.createCheckout({
        totalAmount: { value, currency: payment.currency },
        buyer: { firstName: buyer.firstName, lastName: buyer.lastName, contact: { email: buyer.email } },
        items: [{ name: method.itemName, quantity: 1, code: payment.planSlug, description: payment.planDescription, amount: { value }, totalAmount: { value } }],
        redirectUrl: returnUrls(deps.publicBaseUrl, payment.id),
        requestReferenceNumber: payment.referenceId,
        metadata: { paymentRecordId: payment.id },
      });
      await attemptMade(db, id, created.checkoutId);
      await db.query('UPDATE payment_records SET checkout_id = $2, payment_link = $3 WHERE id = $1', [payment.id, created.checkoutId, created.redirectUrl]);
      await decideAndSchedule(db, payment.id);
      return { attemptId: id, result: { outcome: 'OPEN', reason: '' }, redirect: created.redirectUrl, decision: null };
    }
    if (method.kind === 'MAYA_VAULT') {
      if (!method.customerId) throw new GatewayError(404, 'CARD', 'Card not found');
      answer = await gateway.payWithCard(method.customerId, method.cardTokenId, {
        totalAmount: { amount: value, currency: payment.currency }, requestReferenceNumber: payment.referenceId,
        redirectUrl: method.redirectUrl ?? returnUrls(deps.publicBaseUrl, payment.id),
      });
    } else {
      answer = await gateway.payWithWalletLink(method.linkId, { totalAmount: { value, currency: payment.currency }, requestReferenceNumber: payment.referenceId });
    }
  } catch (error) {
    // A checkout whose answer was lost cannot be paid by anyone (nobody has its page): it fails; a card
    // or wallet charge whose answer was lost stays open until Maya is read by reference.
    const result = classifyError(error, kind);
    if (result.outcome === 'OURS') deps.log(`ALERT gateway: Maya refused our ${kind} request for ${payment.referenceId} (${result.gatewayStatus ?? 'error'}): check the keys and limits`);
    const written = kind === 'CHECKOUT' && result.outcome === 'UNKNOWN' ? { ...result, outcome: 'FAILED' as const } : result;
    await resolveAttempt(db, id, written, await now(db));
    return { attemptId: id, result: written, redirect: null, decision: await decideAndSchedule(db, payment.id) };
  }
  let result = classifyPayment(answer);
  const matches = answer.requestReferenceNumber === payment.referenceId && answer.currency === payment.currency;
  if (!matches) {
    deps.log(`gateway: payment ${answer.id} does not match record ${payment.id} (reference or currency); left for the reconciler`);
    result = { outcome: 'UNKNOWN', reason: 'The payment gateway answered about another payment' };
  }
  // 3-D Secure: the viewer confirms on the bank's page; the return settles the payment.
  if (answer.verificationUrl && answer.status === 'FOR_AUTHENTICATION') redirect = answer.verificationUrl;
  if (redirect) await db.query('UPDATE payment_records SET payment_link = $2 WHERE id = $1', [payment.id, redirect]);
  // Maya's id, the outcome and what Maya took (settlement compares it with the record's amount), in one write.
  if (result.outcome === 'OPEN') await attemptMade(db, id, answer.id);
  else {
    const paid = result.outcome === 'SUCCEEDED';
    await resolveAttempt(db, id, { ...result, mayaId: answer.id, amount: paid ? answerAmount(answer) : null, paidAt: paid ? mayaTime(answer, await now(db)) : null });
  }
  return { attemptId: id, result, redirect, decision: await decideAndSchedule(db, payment.id) };
}

/** What Maya says it took, as our decimal string; null when it says nothing readable (the record's amount stands). */
function answerAmount(answer: MayaPayment): string | null {
  try {
    return fromMayaValue(answer.amount);
  } catch {
    return null;
  }
}

/** A viewer's charge (purchase, plan change, Renew now): what they are told. */
export async function charge(deps: BillingDeps, method: ChargeMethod, payment: PendingPayment): Promise<ChargeResult> {
  const attempted = await chargeOnce(deps, method, payment);
  if (attempted.redirect) return { redirect: attempted.redirect };
  const status = attempted.decision?.status;
  if (status === 'PAYMENT_SUCCESS') {
    await mailReceiptOf(deps, payment.id);
    return { paid: true };
  }
  if (status === 'REVERSAL_DUE' || status === 'VOIDED' || status === 'REFUNDED') throw new HttpError(409, PAYMENT_MESSAGES.alreadyPaid);
  const { outcome } = attempted.result;
  if (outcome === 'OPEN' || outcome === 'UNKNOWN' || status === 'PENDING') return { pending: true };
  if (outcome === 'OURS' || outcome === 'FAILED') throw new HttpError(502, PAYMENT_MESSAGES.gatewayDown);
  if (attempted.result.reason === DECLINE_REASONS.cardGone) throw new HttpError(400, PLAN_CHANGE_MESSAGES.cardNotFound);
  throw new HttpError(402, method.kind === 'MAYA_WALLET' ? PAYMENT_MESSAGES.walletFailed : PAYMENT_MESSAGES.declined);
}
