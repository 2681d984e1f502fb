import { screen, waitFor, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { ApiError } from '../../src/api/http';
import type { AppConfig } from '../../src/api/schemas';
import { walletReturnPath } from '../../src/machines/subscribe/subscribe.address';
import { UNLINK_CONFIRM, WALLET_BANNERS, walletLinkMachine, type WalletLinkInput, type WalletLinkOutcome } from '../../src/machines/walletLink/walletLink.machine';
import { WalletPanel } from '../../src/views/parts/WalletPanel';
import type { DeferredActors } from '../support/deferred';
import { describeModel } from '../support/model';
import { walletLinkFixture } from '../support/payments';
import { renderSubscriptionView } from '../support/subscription';

const returnPath = walletReturnPath('monthly');
const appConfig: AppConfig = { baseUrl: 'https://sine.example.ph', appStoreUrl: 'x', playStoreUrl: 'y', supportUrl: 'z', socialLinks: [] };
const MAYA_PAGE = 'https://sine.example.ph/sandbox/maya/link/abc';
const REFUSALS = {
  lookup: 'The payment gateway is not answering. Please try again in a moment.',
  start: 'The return addresses must be on this app.',
  unlink: 'No Maya wallet is linked.',
};

type Run = ReturnType<typeof renderSubscriptionView> & {
  onLinkChanged: ReturnType<typeof vi.fn>;
  redirect: ReturnType<typeof vi.fn>;
  deferred: DeferredActors;
};
const panel = () => within(screen.getByRole('group', { name: 'Maya Wallet' }));

describeModel('walletLink', {
  machine: walletLinkMachine,
  inputs: [
    ...(['success', null, 'failed', 'canceled'] as const).map((linkStatus): WalletLinkInput => ({ linkStatus, returnPath })),
    // The change-payment-method page of a subscription that renews from the wallet.
    { linkStatus: null, returnPath, renewsOnWallet: true },
  ],
  events: {
    'wallet.link': [{ type: 'wallet.link' }],
    'wallet.unlink': [{ type: 'wallet.unlink' }],
    'unlink.confirm': [{ type: 'unlink.confirm' }],
    'unlink.cancel': [{ type: 'unlink.cancel' }],
    'wallet.retry': [{ type: 'wallet.retry' }],
  },
  serializeContext: (s) => `${s.context.linkStatus}|${s.context.error ?? ''}|${s.context.renewsOnWallet}`,
  // The failed and canceled returns only need their banner over each answer of the lookup.
  prune: (s) => s.context.linkStatus === null || s.context.linkStatus === 'success' || s.matches('loading'),
  invocations: {
    loadWalletLink: { done: [walletLinkFixture, null], error: [new ApiError(REFUSALS.lookup, 502)] },
    loadAppConfig: { done: [appConfig], error: [new ApiError('Failed to get base url')] },
    startWalletLink: { done: [{ linkId: 'link-2', redirectUrl: MAYA_PAGE }], error: [new ApiError(REFUSALS.start, 400)] },
    unlinkWallet: { done: [{ data: null, message: 'Maya Wallet unlinked successfully' }], error: [new ApiError(REFUSALS.unlink, 404)] },
  },
  render: ({ actors, inspect }, input) => {
    const onLinkChanged = vi.fn();
    const redirect = vi.fn();
    const run = renderSubscriptionView(
      <WalletPanel linkStatus={input!.linkStatus} returnPath={input!.returnPath} onLinkChanged={onLinkChanged} renewsOnWallet={input!.renewsOnWallet} />,
      { path: returnPath, overrides: { actors: actors.actors, actions: { redirect: (_: unknown, params: { url: string }) => redirect(params.url) }, inspect } },
    );
    return { ...run, onLinkChanged, redirect, deferred: actors } as Run;
  },
  executors: {
    'wallet.link': async (run) => run.user.click(panel().getByRole('button', { name: 'Link Maya' })),
    'wallet.unlink': async (run) => run.user.click(panel().getByRole('button', { name: 'Unlink Maya' })),
    'unlink.confirm': async (run) => run.user.click(panel().getByRole('button', { name: 'Yes, unlink' })),
    'unlink.cancel': async (run) => run.user.click(panel().getByRole('button', { name: 'Keep it linked' })),
    'wallet.retry': async (run) => run.user.click(panel().getByRole('button', { name: 'Try again' })),
  },
  states: {
    loading: (_run, snapshot) => {
      expect(panel().getByText('Loading your Maya wallet...')).toBeInTheDocument();
      const status = snapshot.context.linkStatus as WalletLinkOutcome | null;
      if (status) expect(panel().getByText(WALLET_BANNERS[status]())).toBeInTheDocument();
    },
    lookupFailed: () => {
      expect(panel().getByRole('alert')).toHaveTextContent(REFUSALS.lookup);
    },
    unlinked: async (run, snapshot) => {
      expect(panel().getByRole('button', { name: 'Link Maya' })).toBeEnabled();
      await waitFor(() => expect(run.onLinkChanged).toHaveBeenLastCalledWith(null));
      const status = snapshot.context.linkStatus as WalletLinkOutcome | null;
      if (status) expect(panel().getByRole('status')).toHaveTextContent(WALLET_BANNERS[status]());
      else expect(panel().queryByText(/linked your account|canceled!/)).not.toBeInTheDocument();
      if (snapshot.context.error === 'Failed to get base url') {
        expect(panel().getByRole('alert')).toHaveTextContent('Failed to get base url');
        await waitFor(() => expect(screen.getAllByText('Failed to get base url')).toHaveLength(2));
      } else if (snapshot.context.error) {
        expect(panel().getByRole('alert')).toHaveTextContent(REFUSALS.start);
      }
    },
    gettingBaseUrl: () => {
      expect(panel().getByRole('button', { name: 'Opening Maya...' })).toBeDisabled();
    },
    starting: (run) => {
      expect(panel().getByRole('button', { name: 'Opening Maya...' })).toBeDisabled();
      expect(run.redirect).not.toHaveBeenCalled();
    },
    redirecting: async (run) => {
      await waitFor(() => expect(run.redirect).toHaveBeenCalledWith(MAYA_PAGE));
      // Maya sends the viewer back to step 2 of the wizard with the outcome (product.md#subscribe-wizard, product.md#wallet-return).
      const back = 'https://sine.example.ph/subscription/payment?plan=monthly&step=2&payment-method=maya&wallet-link-status=';
      expect(run.deferred.inputs('startWalletLink').at(-1)).toEqual({
        redirectUrl: { success: `${back}success`, failure: `${back}failed`, cancel: `${back}canceled` },
      });
    },
    linked: async (run, snapshot) => {
      expect(panel().getByText('maria@example.com')).toBeInTheDocument();
      expect(panel().getByText('Maya account status: Verified')).toBeInTheDocument();
      expect(panel().getByRole('button', { name: 'Unlink Maya' })).toBeEnabled();
      await waitFor(() => expect(run.onLinkChanged).toHaveBeenLastCalledWith('link-1'));
      if (snapshot.context.error) expect(panel().getByRole('alert')).toHaveTextContent(REFUSALS.unlink);
    },
    confirmingUnlink: (run, snapshot) => {
      const dialog = panel().getByRole('alertdialog', { name: 'Unlink your Maya wallet?' });
      // Says what happens to renewals when the subscription renews from this wallet.
      expect(dialog).toHaveAccessibleDescription(snapshot.context.renewsOnWallet ? UNLINK_CONFIRM.renewal() : UNLINK_CONFIRM.plain());
      expect(within(dialog).getByRole('button', { name: 'Keep it linked' })).toHaveFocus();
      // Nothing is unlinked until the viewer confirms.
      expect(panel().queryByRole('button', { name: 'Unlinking...' })).not.toBeInTheDocument();
      expect(run.onLinkChanged).not.toHaveBeenLastCalledWith(null);
    },
    unlinking: () => {
      expect(panel().getByRole('button', { name: 'Unlinking...' })).toBeDisabled();
    },
  },
});
