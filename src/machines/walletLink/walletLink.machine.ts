/**
 * The Maya wallet link (product.md#wallet-option, product.md#payment-flows, product.md#api): read the viewer's link, link a wallet (the
 * base address first, then Maya's page, which sends the browser back with `wallet-link-status`),
 * unlink it. The return's outcome is a banner. Its own machine, with its own input, so the subscribe
 * wizard and the change-payment-method page use the same chart; the view tells its parent which
 * link (if any) is usable through the `linkChanged` action.
 */
import { assign, setup } from 'xstate';
import type { AppConfig, WalletLink } from '../../api/schemas';
import { m } from '../../i18n';
import { notProvided, placeholder } from '../actors';
import { errorMessageOf, withErrorMessage, type Notify } from '../shared';

import { walletReturnUrls, type WalletLinkOutcome } from './walletLink.address';

export { walletReturnUrls, type WalletLinkOutcome } from './walletLink.address';

// Catalog messages (issue 20): functions the view (or an action) calls, in the language in use.
export const WALLET_BANNERS: Record<WalletLinkOutcome, () => string> = {
  success: m.successfully_linked_your_account,
  failed: m.failed_to_link_your_account,
  canceled: m.linking_your_maya_wallet_account_was,
};
export const WALLET_UNLINKED = m.maya_wallet_unlinked_successfully;
export const BASE_URL_FAILED = m.failed_to_get_base_url;

export interface WalletLinkInput {
  /** The outcome Maya's page sent back in the address, if this is a return. */
  linkStatus: WalletLinkOutcome | null;
  /** Path and query of the page to come back to; the outcome is added as `wallet-link-status`. */
  returnPath: string;
  /** The viewer's active subscription renews from this wallet (unlinking says what that means). */
  renewsOnWallet?: boolean;
}

export const UNLINK_CONFIRM = {
  question: m.unlink_your_maya_wallet,
  renewal: m.your_subscription_renews_from_this,
  plain: m.you_can_link_it_again_at_any_time,
} as const;

export interface WalletLinkContext extends WalletLinkInput {
  link: WalletLink | null;
  /** The app's base address (from /app-config.json), asked for when a link starts. */
  baseUrl: string | null;
  error: string | null;
}

export type WalletLinkEvent =
  | { type: 'wallet.link' }
  | { type: 'wallet.unlink' }
  | { type: 'unlink.confirm' }
  | { type: 'unlink.cancel' }
  | { type: 'wallet.retry' };

export const walletLinkMachine = setup({
  types: {
    context: {} as WalletLinkContext,
    events: {} as WalletLinkEvent,
    input: {} as WalletLinkInput,
  },
  actors: {
    loadWalletLink: placeholder<WalletLink | null>('loadWalletLink'),
    loadAppConfig: placeholder<AppConfig>('loadAppConfig'),
    startWalletLink: notProvided<'startWalletLink'>('startWalletLink'),
    unlinkWallet: placeholder<unknown>('unlinkWallet'),
  },
  guards: {
    isPresent: (_, params: { value: unknown }) => params.value !== null && params.value !== undefined,
  },
  actions: {
    assignLink: assign((_, params: { link: WalletLink | null }) => ({ link: params.link })),
    assignError: assign((_, params: { message: string }) => ({ error: params.message })),
    assignBaseUrl: assign((_, params: { baseUrl: string }) => ({ baseUrl: params.baseUrl })),
    clearMessages: assign({ error: null, linkStatus: null }),
    forgetLink: assign({ link: null }),
    /** The browser leaves for a Maya page (3-D Secure, hosted checkout, wallet linking): bound by the view (lib/leave.ts). */
    redirect: (_, _params: { url: string }) => {},
    // Bound by the view: toasts, the parent's view of the usable link, the cache after a change.
    notify: (_, _params: Notify) => {},
    linkChanged: (_, _params: { linkId: string | null }) => {},
  },
}).createMachine({
  id: 'walletLink',
  description:
    'The Maya wallet panel of the subscribe wizard and of the change-payment-method page. It shows whether the viewer has a linked wallet; Link sends the browser to Maya\'s page, which sends it back with the outcome shown as a banner (linked, failed or canceled); Unlink removes the link. Errors from reading, linking and unlinking are shown in the panel.',
  meta: {
    title: 'Maya wallet link',
    events: {
      'wallet.link': 'The person presses the link button',
      'wallet.unlink': 'The person presses the unlink button',
      'unlink.confirm': 'The person confirms: unlink the wallet',
      'unlink.cancel': 'The person keeps the wallet linked',
      'wallet.retry': 'The person tries reading the link again',
    },
  },
  context: ({ input }) => ({ ...input, renewsOnWallet: input.renewsOnWallet ?? false, link: null, baseUrl: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      description: 'Reading the wallet link',
      invoke: {
        id: 'loadWalletLink',
        src: 'loadWalletLink',
        onDone: [
          { guard: { type: 'isPresent', params: ({ event }) => ({ value: event.output }) }, target: 'linked', description: 'A wallet is linked', actions: { type: 'assignLink', params: ({ event }) => ({ link: event.output }) } },
          { target: 'unlinked', description: 'No wallet linked', actions: { type: 'assignLink', params: { link: null } } },
        ],
        onError: { target: 'lookupFailed', actions: withErrorMessage('assignError') },
      },
    },
    lookupFailed: {
      description: 'The link could not be read',
      on: { 'wallet.retry': { target: 'loading', actions: 'clearMessages' } },
    },
    unlinked: {
      description: 'No wallet linked: offering the link button',
      entry: { type: 'linkChanged', params: { linkId: null } },
      on: { 'wallet.link': { target: 'gettingBaseUrl', actions: 'clearMessages' } },
    },
    gettingBaseUrl: {
      description: 'Getting the app\'s address for Maya to come back to',
      invoke: {
        id: 'loadAppConfig',
        src: 'loadAppConfig',
        onDone: { target: 'starting', description: 'Address known', actions: { type: 'assignBaseUrl', params: ({ event }) => ({ baseUrl: event.output.baseUrl }) } },
        onError: {
          target: 'unlinked',
          description: 'Address not available',
          actions: [
            { type: 'assignError', params: () => ({ message: BASE_URL_FAILED() }) },
            { type: 'notify', params: { kind: 'error', message: BASE_URL_FAILED } },
          ],
        },
      },
    },
    starting: {
      description: 'Starting the link at Maya',
      invoke: {
        id: 'startWalletLink',
        src: 'startWalletLink',
        input: ({ context }) => ({ redirectUrl: walletReturnUrls(context.baseUrl ?? '', context.returnPath) }),
        onDone: { target: 'redirecting', description: 'Link started: on to Maya\'s page', actions: { type: 'redirect', params: ({ event }) => ({ url: event.output.redirectUrl }) } },
        onError: {
          target: 'unlinked',
          description: 'Link refused',
          actions: withErrorMessage('assignError'),
        },
      },
    },
    // The browser is on its way to Maya's page; nothing more happens here.
    redirecting: { description: 'On the way to Maya\'s page' },
    linked: {
      description: 'A wallet is linked: offering the unlink button',
      entry: { type: 'linkChanged', params: ({ context }) => ({ linkId: context.link?.linkId ?? null }) },
      on: { 'wallet.unlink': { target: 'confirmingUnlink', actions: 'clearMessages' } },
    },
    confirmingUnlink: {
      description: 'Asking before unlinking (and saying what happens to renewals when the subscription renews from it)',
      on: {
        'unlink.confirm': { target: 'unlinking', description: 'Unlink confirmed' },
        'unlink.cancel': { target: 'linked', description: 'Kept linked' },
      },
    },
    unlinking: {
      description: 'Unlinking the wallet',
      invoke: {
        id: 'unlinkWallet',
        src: 'unlinkWallet',
        onDone: {
          target: 'unlinked',
          description: 'Wallet unlinked',
          actions: ['forgetLink', { type: 'notify', params: { kind: 'success', message: WALLET_UNLINKED } }],
        },
        onError: {
          target: 'linked',
          description: 'Unlink refused',
          actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessageOf(event) }) },
        },
      },
    },
  },
});

export type WalletLinkMachine = typeof walletLinkMachine;
