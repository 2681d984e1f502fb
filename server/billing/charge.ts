/**
 * The one charge path: a PENDING payment record is charged through Maya by hosted checkout, a saved
 * card token or a linked wallet, for a purchase and for a plan change alike. It answers where the
 * viewer goes next (`redirect`: Maya's hosted page or 3-D Secure), or that the payment is `paid` or
 * still `pending`; a decline is a 402, a gateway failure marks the record failed and is mapped once
 * (messages.ts `gatewayHttpError`).
 */
import { GatewayError, toMayaValue, type MayaPayment } from '../gateway/maya';
import { contactOf } from '../identity/users';
import { HttpError } from '../platform/http';
import { returnUrls, type BillingDeps } from './deps';
import { gatewayHttpError, PAYMENT_MESSAGES, PLAN_CHANGE_MESSAGES } from './messages';
import { applyGatewayAnswer, applyOutcome, attachGatewayId } from './settlement';

/** A PENDING payment record, with what the gateway is told about it. */
export interface PendingPayment {
  id: string;
  userId: string;
  referenceId: string;
  /** Our decimal string, e.g. '99.00'. */
  amount: string;
  currency: string;
  planName: string;
  planSlug: string;
  planDescription: string;
}

export type ChargeMethod =
  | { kind: 'MAYA_CHECKOUT'; itemName: string }
  /** `customerId` null: the card is not (or no longer) at Maya; the charge fails as 'card not found'. */
  | { kind: 'MAYA_VAULT'; customerId: string | null; cardTokenId: string }
  | { kind: 'MAYA_WALLET'; linkId: string };

export type ChargeResult = { redirect: string } | { paid: true } | { pending: true };

/** The gateway call that should have created the payment failed: the record says so, the viewer is told once. */
async function failToStart(deps: BillingDeps, recordId: string, error: unknown): Promise<never> {
  const reason = error instanceof GatewayError ? { code: error.code, message: error.message } : { message: 'gateway error' };
  await applyOutcome(deps.db, recordId, 'PAYMENT_FAILED', { error: reason });
  throw gatewayHttpError(error instanceof GatewayError ? error : new GatewayError(0, 'ERROR', 'gateway error'));
}

export async function charge(deps: BillingDeps, method: ChargeMethod, payment: PendingPayment): Promise<ChargeResult> {
  const { db, gateway } = deps;
  const value = toMayaValue(payment.amount);
  const redirectUrl = returnUrls(deps.publicBaseUrl, payment.id);
  let answer: MayaPayment;
  try {
    if (method.kind === 'MAYA_CHECKOUT') {
      const buyer = await contactOf(db, payment.userId);
      const created = await gateway.createCheckout({
        totalAmount: { value, currency: payment.currency },
        buyer: { firstName: buyer.firstName, lastName: buyer.lastName, contact: { email: buyer.email } },
        items: [{ name: method.itemName, quantity: 1, code: payment.planSlug, description: payment.planDescription, amount: { value }, totalAmount: { value } }],
        redirectUrl,
        requestReferenceNumber: payment.referenceId,
        metadata: { paymentRecordId: payment.id },
      });
      await attachGatewayId(db, payment.id, created.checkoutId, created.redirectUrl);
      return { redirect: created.redirectUrl };
    }
    if (method.kind === 'MAYA_VAULT') {
      if (!method.customerId) throw new GatewayError(404, 'CARD', PLAN_CHANGE_MESSAGES.cardNotFound);
      answer = await gateway.payWithCard(method.customerId, method.cardTokenId, {
        totalAmount: { amount: value, currency: payment.currency }, requestReferenceNumber: payment.referenceId, redirectUrl,
      });
    } else {
      answer = await gateway.payWithWalletLink(method.linkId, { totalAmount: { value, currency: payment.currency }, requestReferenceNumber: payment.referenceId });
    }
  } catch (error) {
    return failToStart(deps, payment.id, error);
  }
  await attachGatewayId(db, payment.id, answer.id, answer.verificationUrl ?? null);
  // 3-D Secure: the viewer confirms on the bank's page; the return settles the payment.
  if (answer.verificationUrl && answer.status === 'FOR_AUTHENTICATION') return { redirect: answer.verificationUrl };
  const status = await applyGatewayAnswer(deps, { id: payment.id, reference_id: payment.referenceId, amount: payment.amount }, answer);
  if (status === 'PAYMENT_SUCCESS') return { paid: true };
  if (status === 'PENDING') return { pending: true };
  if (status === 'REVERSAL_DUE' || status === 'VOIDED' || status === 'REFUNDED') throw new HttpError(409, PAYMENT_MESSAGES.alreadyPaid);
  throw new HttpError(402, method.kind === 'MAYA_WALLET' ? PAYMENT_MESSAGES.walletFailed : PAYMENT_MESSAGES.declined);
}
