/**
 * Where the change-payment-method flow lives in the address (product.md#wallet-option): its route, and the wallet-link
 * return Maya sends the browser back with (`wallet-method=1&wallet-link-status=success|failed|canceled`).
 */
import { routes } from '../../lib/route-paths';
import { readWalletLinkStatus, writeWalletLinkStatus, type WalletLinkOutcome } from '../walletLink/walletLink.address';

export const paymentMethodRoute = routes.changePaymentMethod;

export interface PaymentMethodLocation {
  /** `wallet-method=1`: the browser is back from linking a wallet (forces the wallet option). */
  walletMethod: boolean;
  linkStatus: WalletLinkOutcome | null;
}

export function parse(search: string): PaymentMethodLocation {
  const query = new URLSearchParams(search);
  const status = readWalletLinkStatus(query);
  const linkStatus = status === 'invalid' ? null : status;
  return { walletMethod: query.get('wallet-method') === '1', linkStatus };
}

/** The address with or without the wallet-return marker (leaving the wallet option drops both). */
export function format(location: PaymentMethodLocation): string {
  if (!location.walletMethod) return paymentMethodRoute;
  const query = new URLSearchParams({ 'wallet-method': '1' });
  writeWalletLinkStatus(query, location.linkStatus);
  return `${paymentMethodRoute}?${query.toString()}`;
}

/** Where Maya sends the browser back to after a link (the wallet link machine adds the outcome). */
export const walletReturnPath = `${paymentMethodRoute}?wallet-method=1`;
