/**
 * Why a renewal failed, as the server writes it on the subscription (server/billing/ledger.ts) and the
 * app reads it back (the PAST_DUE notice): the server's own words, in English, shared here so both
 * sides name the same ones. Each is a catalog message, which the app shows in the reader's language.
 */
export const DECLINE_REASONS = {
  declined: 'Your payment was declined',
  confirm: 'Your bank asked to confirm the payment',
  cardGone: 'Card not found',
  cardExpired: 'Your card has expired',
  walletGone: 'Your Maya wallet is no longer linked',
  unknown: 'The payment gateway did not answer',
  ours: 'The payment gateway refused our request',
} as const;

export type DeclineReason = keyof typeof DECLINE_REASONS;

/** The reason an English text names (a trailing full stop aside), or null for words of the gateway's own. */
export function declineReasonOf(text: string): DeclineReason | null {
  const english = text.trim().replace(/\.$/, '');
  return (Object.keys(DECLINE_REASONS) as DeclineReason[]).find((reason) => DECLINE_REASONS[reason] === english) ?? null;
}

/**
 * A reason in the gateway's own words (one the product does not know) said in ours: what happened and
 * what to do, with the gateway's words kept at the end for support (catalog: `maya_did_not_accept_your_payment`,
 * whose English this is; the server writes it into the failed-payment email, the app shows the catalog's).
 * A reason the product knows is returned as it is.
 */
export function reasonInOurWords(text: string): string {
  if (declineReasonOf(text)) return text;
  return `Maya did not accept your payment. Please try another card or payment method. Maya's reason: ${gatewayWords(text)}`;
}

/** The gateway's words as kept in a reason: trimmed, without a final full stop (the sentence around them puts one). */
export const gatewayWords = (text: string): string => text.trim().replace(/\.+$/, '') || '—';
