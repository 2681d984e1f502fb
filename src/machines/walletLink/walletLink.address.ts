/**
 * The wallet-link return parameter (product.md#wallet-option): Maya's wallet page sends the browser back
 * to the page the link started from with `wallet-link-status=success|failed|canceled`. This module is its
 * one owner: the values, reading them from an address, writing them into one, and Maya's return addresses.
 * The subscribe wizard and the change-payment-method page keep their own parameters and use these.
 */
import type { WalletLinkStartRequest } from '../../api/schemas';

export type WalletLinkOutcome = 'success' | 'failed' | 'canceled';

export const WALLET_LINK_PARAM = 'wallet-link-status';
export const WALLET_LINK_OUTCOMES: readonly WalletLinkOutcome[] = ['success', 'failed', 'canceled'];

/** The outcome in a query; 'invalid' when the parameter is there with a value we do not know. */
export function readWalletLinkStatus(params: URLSearchParams): WalletLinkOutcome | 'invalid' | null {
  const status = params.get(WALLET_LINK_PARAM);
  if (status === null) return null;
  return WALLET_LINK_OUTCOMES.find((outcome) => outcome === status) ?? 'invalid';
}

/** Writes a known outcome into a query (nothing for none or an invalid one). */
export function writeWalletLinkStatus(params: URLSearchParams, status: WalletLinkOutcome | 'invalid' | null): void {
  if (status && status !== 'invalid') params.set(WALLET_LINK_PARAM, status);
}

/** Maya's three return addresses: the app's base address, the page, and the outcome. */
export function walletReturnUrls(baseUrl: string, returnPath: string): WalletLinkStartRequest['redirectUrl'] {
  const url = (status: WalletLinkOutcome) =>
    `${baseUrl.replace(/\/+$/, '')}${returnPath}${returnPath.includes('?') ? '&' : '?'}${WALLET_LINK_PARAM}=${status}`;
  return { success: url('success'), failure: url('failed'), cancel: url('canceled') };
}
