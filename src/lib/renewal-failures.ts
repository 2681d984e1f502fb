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
