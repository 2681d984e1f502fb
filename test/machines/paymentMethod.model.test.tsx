import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { ApiError } from '../../src/api/http';
import { createQueryClient, queryKeys } from '../../src/api/queries';
import { format, type PaymentMethodLocation } from '../../src/machines/paymentMethod/paymentMethod.address';
import { CHECKOUT_EXPLANATION, METHOD_NOTE, VOUCHER_METHOD_NOTE } from '../../src/machines/paymentMethod/paymentMethod.connect';
import { CONNECT_WALLET, paymentMethodMachine, type MethodOption } from '../../src/machines/paymentMethod/paymentMethod.machine';
import ChangePaymentMethodPage from '../../src/views/pages/ChangePaymentMethodPage';
import type { ActorOutput } from '../support/flow';
import { describeModel } from '../support/model';
import { renderMethodView } from '../support/planChange';
import { cachingActors, freeStatus, premiumStatus, voucherStatus } from '../support/subscription';

type Run = ReturnType<typeof renderMethodView>;
const LABELS: Record<MethodOption, string> = { card: 'Credit/Debit', wallet: 'Wallet', checkout: 'Checkout' };
const UPDATED = 'Your payment method has been updated. It takes effect in your next billing cycle.';
const REFUSED = 'Card not found. Please add the card again.';
const main = () => within(screen.getByRole('region', { name: 'New Payment Method' }));
let walletSavedWithoutLink = false;

const saved: Array<ActorOutput<typeof paymentMethodMachine, 'updatePaymentMethod'>> = [{ data: null, message: UPDATED }];

describeModel('paymentMethod', {
  machine: paymentMethodMachine,
  inputs: [
    { walletMethod: false, linkStatus: null },
    // Back from Maya's link page: the wallet option is forced and its banner shown.
    { walletMethod: true, linkStatus: 'success' },
  ],
  events: {
    'option.select': [
      { type: 'option.select', option: 'card' },
      { type: 'option.select', option: 'wallet' },
      { type: 'option.select', option: 'checkout' },
    ],
    'card.chosen': [{ type: 'card.chosen', card: { cardTokenId: 'seed-card-premium', cardType: 'visa', last4: '1381' } }],
    'wallet.save': [{ type: 'wallet.save', linkId: 'link-1' }, { type: 'wallet.save', linkId: null }],
    'checkout.save': [{ type: 'checkout.save' }],
    'load.retry': [{ type: 'load.retry' }],
  },
  // Saving needs the matching option; re-selecting the option already chosen walks nothing new.
  prune: (snapshot, event) => {
    const option = snapshot.context.option as MethodOption | null;
    if (event.type === 'option.select') return (event as unknown as { option: MethodOption }).option !== option;
    if (event.type === 'card.chosen') return option === 'card';
    if (event.type === 'wallet.save') return option === 'wallet';
    if (event.type === 'checkout.save') return option === 'checkout';
    return true;
  },
  serializeContext: (s) => `${s.context.option}|${s.context.walletMethod}|${s.context.linkStatus}|${s.context.error ? 'error' : ''}`,
  invocations: {
    loadStatus: { done: [premiumStatus, voucherStatus, freeStatus], error: [new ApiError('Something went wrong', 500)] },
    confirmCheckout: { done: [true, false], error: [new Error('The browser did not show the confirmation')] },
    updatePaymentMethod: { done: saved, error: [new ApiError(REFUSED, 400)] },
  },
  render: ({ actors, inspect }, input) => {
    walletSavedWithoutLink = false;
    const queryClient = createQueryClient();
    return renderMethodView(<ChangePaymentMethodPage />, {
      path: format(input as PaymentMethodLocation), queryClient,
      overrides: { actors: cachingActors(actors.actors, queryClient, { loadStatus: queryKeys.subscriptionStatus }), inspect },
    });
  },
  executors: {
    'option.select': async (run, event) => run.user.click(screen.getByRole('radio', { name: LABELS[event.option] })),
    // The card part's own flow: 'Use this card' is on for the default card; saving it ends that flow.
    'card.chosen': async (run) => {
      expect(await main().findByRole('switch', { name: 'Use this card' })).toBeChecked();
      await run.user.click(main().getByRole('button', { name: 'Save Payment Method' }));
    },
    'wallet.save': async (run, event) => {
      const unlink = await main().findByRole('button', { name: /^Unlink Maya/ });
      if (event.linkId === null) {
        await run.user.click(unlink);
        // Unlinking asks first (issue 17); the viewer confirms.
        await run.user.click(await main().findByRole('button', { name: 'Yes, unlink' }));
        await main().findByRole('button', { name: /^Link Maya/ });
        walletSavedWithoutLink = true;
      }
      await run.user.click(main().getByRole('button', { name: 'Save Payment Method' }));
    },
    'checkout.save': async (run) => run.user.click(main().getByRole('button', { name: 'Save Payment Method' })),
    'load.retry': async (run) => run.user.click(screen.getByRole('button', { name: 'Try again' })),
  },
  states: {
    loadingStatus: () => {
      expect(screen.getByRole('status')).toHaveTextContent('Loading Subscription Status...');
      expect(screen.queryByRole('radio')).not.toBeInTheDocument();
    },
    failed: () => {
      expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong');
      expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
      expect(screen.queryByRole('status')).not.toBeInTheDocument();
    },
    noSubscription: async (run: Run) => {
      expect(screen.getByText('No subscription found')).toBeInTheDocument();
      await waitFor(() => expect(run.location.history.at(-1)).toBe('/subscription'));
    },
    voucher: () => {
      expect(screen.getByText(VOUCHER_METHOD_NOTE())).toBeInTheDocument();
      expect(screen.getByText('SUGBO365')).toBeInTheDocument();
      expect(screen.queryByRole('radio')).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Save Payment Method' })).not.toBeInTheDocument();
    },
    choosing: async (run: Run, snapshot) => {
      const { option, walletMethod, linkStatus, error } = snapshot.context as { option: MethodOption | null; walletMethod: boolean; linkStatus: string | null; error: string | null };
      expect(screen.getByText(METHOD_NOTE())).toBeInTheDocument();
      expect(screen.getAllByText('**** **** **** 1381')[0]).toBeInTheDocument();
      for (const each of ['card', 'wallet', 'checkout'] as const) {
        expect(screen.getByRole('radio', { name: LABELS[each] })).toHaveProperty('checked', each === option);
      }
      // The address keeps the wallet-return marker only while the wallet option is the one shown.
      await waitFor(() => expect(run.location.history.at(-1)).toBe(walletMethod ? '/subscription/change-payment-method?wallet-method=1&wallet-link-status=success' : '/subscription/change-payment-method'));
      if (option === 'card') expect(await main().findByRole('switch', { name: 'Use this card' })).toBeChecked();
      if (option === 'wallet') {
        // Linked ('Unlink Maya') or not ('Link Maya'), as the wallet part's own flow read it.
        expect(await main().findByRole('button', { name: /^(Unl|L)ink Maya/ })).toBeEnabled();
        // The return's banner, until the wallet part's own flow moves on (an unlink clears it).
        if (linkStatus === 'success' && !walletSavedWithoutLink) expect(main().getByText('Successfully linked your account')).toBeInTheDocument();
        if (walletSavedWithoutLink) expect(await screen.findByText(CONNECT_WALLET())).toBeInTheDocument();
      }
      if (option === 'checkout') expect(main().getByText(CHECKOUT_EXPLANATION[0]())).toBeInTheDocument();
      if (error) {
        expect(main().getByRole('alert')).toHaveTextContent(error);
        expect(await screen.findAllByText(error)).not.toHaveLength(0);
      }
    },
    confirmingCheckout: () => {
      expect(main().getByRole('button', { name: 'Save Payment Method' })).toBeDisabled();
      expect(screen.getByRole('radio', { name: 'Checkout' })).toBeDisabled();
    },
    saving: () => {
      expect(screen.getAllByText('Saving...').length).toBeGreaterThan(0);
      expect(screen.getByRole('radio', { name: 'Credit/Debit' })).toBeDisabled();
    },
    saved: async (run: Run) => {
      await waitFor(() => expect(run.location.history.at(-1)).toBe('/subscription'));
      expect(await screen.findByText(UPDATED)).toBeInTheDocument();
    },
  },
});
