/** The wallet panel's view props: the banner of a return, the link, errors, pending. */
import type { SnapshotFrom } from 'xstate';
import { m } from '../../i18n';
import { UNLINK_CONFIRM, WALLET_BANNERS, type WalletLinkEvent, type WalletLinkMachine } from './walletLink.machine';

export const WALLET_PROVIDER = 'Maya';

/** Maya's card state of a linked wallet, in words (its values are not listed anywhere; others are shown as Maya sends them, lower-cased). */
export function walletCardState(state: string | null | undefined): string | null {
  if (!state) return null;
  const words: Record<string, () => string> = { VERIFIED: m.verified, PRE_VERIFICATION: m.waiting_for_verification, FAILED: m.verification_failed, ACTIVE: m.active, INACTIVE: m.inactive };
  return words[state.toUpperCase()]?.() ?? state.replace(/_/g, ' ').toLowerCase().replace(/^./, (c) => c.toUpperCase());
}

export function connectWalletLink(state: SnapshotFrom<WalletLinkMachine>, send: (event: WalletLinkEvent) => void) {
  const { link, linkStatus, error } = state.context;
  return {
    loading: state.matches('loading'),
    lookupFailed: state.matches('lookupFailed'),
    linked: state.matches('linked') || state.matches('unlinking') || state.matches('confirmingUnlink'),
    confirmUnlink: state.matches('confirmingUnlink')
      ? { question: UNLINK_CONFIRM.question(), detail: state.context.renewsOnWallet ? UNLINK_CONFIRM.renewal() : UNLINK_CONFIRM.plain() }
      : null,
    linking: state.matches('gettingBaseUrl') || state.matches('starting') || state.matches('redirecting'),
    unlinking: state.matches('unlinking'),
    banner: linkStatus ? { tone: linkStatus === 'success' ? ('good' as const) : ('bad' as const), text: WALLET_BANNERS[linkStatus]() } : null,
    email: link?.customer.contact.email ?? null,
    cardState: walletCardState(link?.card.state),
    error,
    onLink: () => send({ type: 'wallet.link' }),
    onUnlink: () => send({ type: 'wallet.unlink' }),
    onConfirmUnlink: () => send({ type: 'unlink.confirm' }),
    onCancelUnlink: () => send({ type: 'unlink.cancel' }),
    onRetry: () => send({ type: 'wallet.retry' }),
  } as const;
}
