/**
 * Every answer billing gives a viewer, and the one mapping from a gateway failure to an HTTP answer.
 */
import { GatewayError } from '../gateway/maya';
import { HttpError } from '../platform/http';
import { gatewayWords } from '../../src/lib/renewal-failures';

export const PAYMENT_MESSAGES = {
  alreadyPremium: 'You already have a Premium subscription. Change your plan or payment method from the Subscription page instead.',
  pending: 'A payment is already in progress. Finish it, or try again after it expires in an hour.',
  inFlight: 'A payment is being processed. Please try again in a few minutes.',
  alreadyPaid: 'Your Premium period is already paid, so this payment is being returned to you.',
  notPremiumPlan: 'Choose a Premium plan to subscribe to.',
  planInactive: 'This plan is no longer offered.',
  planNotFound: 'Plan not found',
  gatewayDown: 'The payment gateway could not be reached. Please try again.',
  declined: 'Your payment was declined. Please try another card or payment method.',
  walletFailed: 'Your Maya wallet payment failed. Please try again or use another payment method.',
  paid: 'Payment successful. Your Premium subscription is active.',
  processing: 'Your payment is being processed.',
  refusedDetails: (details: string) =>
    `Maya did not accept these details. Please check them, or try another card or payment method. Maya's reason: ${gatewayWords(details)}`,
} as const;

export const PLAN_CHANGE_MESSAGES = {
  voucherPlan: 'Voucher subscriptions cannot change plans. Your voucher subscription will remain active until it expires.',
  voucherMethod: 'Voucher subscriptions cannot change payment methods. Your voucher subscription will remain active until it expires.',
  currentPlan: 'This is already your current plan. Please select another plan.',
  noMethod: 'This subscription has no payment method to charge. Please change your payment method first.',
  changed: (plan: string) => `Your plan has been changed to ${plan}. The remaining days of your previous plan were added.`,
  checkout: 'Complete the payment to change your plan.',
  verify: 'Confirm the payment with your bank to change your plan.',
  processing: 'Your payment is being processed. Your plan changes once it is confirmed.',
  scheduled: (plan: string, date: string) => `Your plan changes to ${plan} on ${date}. Nothing is charged now.`,
  canceledDowngrade: (plan: string) =>
    `Your subscription is canceled and will not renew, so it cannot move to ${plan} at the end of its period. Reactivate it first, then change your plan.`,
  undone: (plan: string, date: string) => `You keep the ${plan} plan. It renews on ${date}.`,
  nothingScheduled: 'No plan change is scheduled for this subscription.',
  methodUpdated: 'Your payment method has been updated. It takes effect in your next billing cycle.',
  methodUnchanged: 'This is already your payment method. Nothing was changed.',
  // While PAST_DUE (product.md#method-while-past-due): when the overdue period is charged on the new method.
  methodUpdatedChargingNow: 'Your payment method has been updated. We are charging it now for the overdue payment.',
  methodUpdatedChargingOn: (date: string) => `Your payment method has been updated. We will charge it for the overdue payment on ${date}.`,
  methodUpdatedPayByCheckout: 'Your payment method has been updated. Pay the overdue payment with Renew now on the Subscription page.',
  methodUpdatedPastDue: 'Your payment method has been updated.',
  noCard: 'Please add a card first.',
  cardNotFound: 'Card not found. Please add the card again.',
  walletNotLinked: 'Please connect your Maya wallet to continue',
  badDetails: 'paymentMethodDetails must be a JSON object.',
} as const;

/** "Renew now" for a checkout subscription (renewNow.ts). */
export const RENEW_MESSAGES = {
  nothingDue: 'There is no subscription to renew. Please reload the page.',
  renewsItself: 'This subscription renews automatically; there is nothing to pay now.',
  notActive: 'Only an active subscription can be renewed. Please subscribe again.',
  tooEarly: (days: number) => `You can renew from ${days} days before your subscription ends.`,
  alreadyPaid: 'Your next period is already paid.',
  triedToday: (date: string) => `This payment method was tried 3 times today. We will try it again on ${date}, or change your payment method.`,
  triedTodayLast: 'This payment method was tried 3 times today. Please change your payment method.',
} as const;

export const PAYMENT_METHOD_MESSAGES = {
  noReceipt: 'We could not find a receipt for this payment.',
  noInvoice: 'We could not find this invoice.',
  cardSaved: 'Card saved',
  confirmCard: 'Confirm the card with your bank to finish saving it.',
  cardNotFound: 'Card not found. Please add the card again.',
  cardNotVerified: 'Please confirm this card with your bank first.',
  walletUnlinked: 'Maya Wallet unlinked successfully',
  walletNotLinked: 'Please connect your Maya wallet to continue',
  noWalletLinked: 'No Maya wallet is linked.',
  foreignRedirect: 'The return addresses must be on this app.',
} as const;

/**
 * The one mapping from a failed gateway call to what the viewer is told: Maya refusing the request
 * (4xx) says why in a 400; anything else (unreachable, 5xx, an answer we cannot read) is a 502.
 */
export function gatewayHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  // Maya's own words (English, and no message of ours) are kept for support inside a sentence of ours
  // that the reader's language has: what happened and what to do (catalog: maya_did_not_accept_these_details).
  if (error instanceof GatewayError && error.status >= 400 && error.status < 500) return new HttpError(400, PAYMENT_MESSAGES.refusedDetails(error.message));
  return new HttpError(502, PAYMENT_MESSAGES.gatewayDown);
}
