import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { ApiError } from '../../src/api/http';
import { createQueryClient, queryKeys } from '../../src/api/queries';
import { format, type PaymentMethodLocation } from '../../src/machines/paymentMethod/paymentMethod.address';
import { CHECKOUT_EXPLANATION, METHOD_NOTE, VOUCHER_METHOD_NOTE } from '../../src/machines/paymentMethod/paymentMethod.connect';
import {
  CHECKOUT_CONFIRMATION, CONNECT_WALLET, OVERDUE_FAILED, OVERDUE_PAID, OVERDUE_PENDING, paymentMethodMachine, type ChargeOutcome, type MethodOption, type PaymentMethodInput,
} from '../../src/machines/paymentMethod/paymentMethod.machine';
import { CARD_RETURN_MESSAGES } from '../../src/machines/cardEntry/cardEntry.machine';
import ChangePaymentMethodPage from '../../src/views/pages/ChangePaymentMethodPage';
import type { ActorOutput } from '../support/flow';
import { describeModel } from '../support/model';
import { renderMethodView } from '../support/planChange';
import { cachingActors, freeStatus, premiumStatus, voucherStatus, walletStatus } from '../support/subscription';
import type { SubscriptionStatusDetails } from '../../src/api/schemas';

type Run = ReturnType<typeof renderMethodView>;
const LABELS: Record<MethodOption, string> = { card: 'Credit/Debit', wallet: 'Wallet', checkout: 'Checkout' };
const UPDATED = 'Your payment method has been updated. It takes effect in your next billing cycle.';
const REFUSED = 'Card not found. Please add the card again.';
const main = () => within(screen.getByRole('region', { name: 'New Payment Method' }));
let walletSavedWithoutLink = false;

const CHARGING = 'Your payment method has been updated. We are charging it now for the overdue payment.';
const CHARGE_AT = '2027-01-16T01:00:00.000Z';
// A wallet subscription whose renewal was declined at its end date (product.md#dunning): the new method is charged at once.
const pastDueStatus: SubscriptionStatusDetails = {
  ...walletStatus, status: 'PAST_DUE',
  renewal: { state: 'PAST_DUE', failure: 'Your payment was declined', nextAttemptDate: '2027-01-16T05:00:00.000Z', accessEndDate: '2027-01-22T00:00:00.000Z' },
};
const saved: Array<ActorOutput<typeof paymentMethodMachine, 'updatePaymentMethod'>> = [
  { data: null, message: UPDATED },
  // Saved while PAST_DUE: the server says when the overdue payment is charged (now).
  { data: { chargeAt: CHARGE_AT }, message: CHARGING },
];
const charges: ChargeOutcome[] = [{ outcome: 'paid' }, { outcome: 'failed', reason: 'Your payment was declined' }, { outcome: 'pending' }];

describeModel('paymentMethod', {
  machine: paymentMethodMachine,
  inputs: [
    { walletMethod: false, linkStatus: null },
    // Back from Maya's link page: the wallet option is forced and its banner shown.
    { walletMethod: true, linkStatus: 'success' },
    // Back from a bank that did not confirm a new card (finding 7: said whatever the current method).
    { walletMethod: false, linkStatus: null, cardReturn: 'failed' },
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
    'checkout.confirm': [{ type: 'checkout.confirm' }],
    'checkout.decline': [{ type: 'checkout.decline' }],
    // The view sends the sentence it shows (product.md#renewal-consent); the fixture's words only stand for it.
    'consent.toggle': [{ type: 'consent.toggle', consent: { accepted: true, text: 'the sentence shown', language: 'en' } }, { type: 'consent.toggle', consent: null }],
    'load.retry': [{ type: 'load.retry' }],
  },
  // Saving needs the matching option; re-selecting the option already chosen walks nothing new.
  prune: (snapshot, event) => {
    const option = snapshot.context.option as MethodOption | null;
    if (event.type === 'option.select') return (event as unknown as { option: MethodOption }).option !== option;
    if (event.type === 'card.chosen') return option === 'card';
    if (event.type === 'wallet.save') return option === 'wallet';
    if (event.type === 'checkout.save') return option === 'checkout';
    // The tick shows for a card or wallet on a renewing subscription; each press flips it.
    if (event.type === 'consent.toggle') {
      return snapshot.context.renewing && (option === 'card' || option === 'wallet')
        && ((event as unknown as { consent: unknown }).consent !== null) === (snapshot.context.renewalConsent === null);
    }
    return true;
  },
  serializeContext: (s) => `${s.context.option}|${s.context.walletMethod}|${s.context.linkStatus}|${s.context.error ? 'error' : ''}|${s.context.pastDue}|${s.context.charge?.outcome ?? ''}|${s.context.renewalConsent ? 'agreed' : ''}`,
  invocations: {
    loadStatus: { done: [premiumStatus, voucherStatus, freeStatus, pastDueStatus], error: [new ApiError('Something went wrong', 500)] },
    updatePaymentMethod: { done: saved, error: [new ApiError(REFUSED, 400)] },
    awaitCharge: { done: charges, error: [new ApiError('Something went wrong', 500)] },
  },
  render: ({ actors, inspect }, input) => {
    walletSavedWithoutLink = false;
    const queryClient = createQueryClient();
    return renderMethodView(<ChangePaymentMethodPage />, {
      path: `${format(input as PaymentMethodLocation)}${(input as PaymentMethodInput).cardReturn ? `?card=${(input as PaymentMethodInput).cardReturn}` : ''}`, queryClient,
      overrides: { actors: cachingActors(actors.actors, queryClient, { loadStatus: queryKeys.subscriptionStatus }), inspect },
    });
  },
  executors: {
    'option.select': async (run, event) => run.user.click(screen.getByRole('radio', { name: LABELS[event.option] })),
    // The card part's own flow: 'Use this card' is on for the default card; saving it ends that flow.
    'card.chosen': async (run) => {
      const useSaved = await main().findByRole('switch', { name: 'Use this card' });
      // Back from a refused new card the switch is off: the older card is one switch away.
      if (!(useSaved as HTMLInputElement).checked) await run.user.click(useSaved);
      expect(useSaved).toBeChecked();
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
    'checkout.confirm': async (run) => run.user.click(within(main().getByRole('alertdialog')).getByRole('button', { name: "Yes, I'm sure" })),
    'checkout.decline': async (run) => run.user.click(within(main().getByRole('alertdialog')).getByRole('button', { name: 'Cancel' })),
    'load.retry': async (run) => run.user.click(screen.getByRole('button', { name: 'Try again' })),
    'consent.toggle': async (run) => run.user.click(main().getByRole('checkbox', { name: 'I agree to automatic renewal' })),
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
      const { option, walletMethod, linkStatus, error, pastDue, cardReturn, attempt } = snapshot.context as {
        option: MethodOption | null; walletMethod: boolean; linkStatus: string | null; error: string | null; pastDue: boolean; cardReturn: string | null; attempt: number;
      };
      // The spec's note for a subscription in good standing; while PAST_DUE, what a save does now (finding 8/17).
      if (pastDue) {
        expect(screen.getByText(/^Your subscription is past due\. A card or Maya Wallet you save now is charged at once for the overdue ₱990/)).toBeInTheDocument();
        expect(screen.queryByText(METHOD_NOTE())).toBeNull();
      } else expect(screen.getByText(METHOD_NOTE())).toBeInTheDocument();
      expect(screen.queryByRole('alertdialog')).toBeNull();
      for (const each of ['card', 'wallet', 'checkout'] as const) {
        expect(screen.getByRole('radio', { name: LABELS[each] })).toHaveProperty('checked', each === option);
      }
      // The address keeps the wallet-return marker only while the wallet option is the one shown.
      await waitFor(() => expect(run.location.history.at(-1)).toBe(walletMethod ? '/subscription/change-payment-method?wallet-method=1&wallet-link-status=success' : '/subscription/change-payment-method'));
      if (option === 'card' && cardReturn === 'failed' && attempt === 0) {
        // The bank's refusal is said in the card form and takes focus, whatever the method was (a wallet included).
        const form = within(await main().findByRole('form', { name: 'Card details' }));
        expect(await form.findByRole('alert')).toHaveTextContent(CARD_RETURN_MESSAGES.failed());
        // On arrival it takes focus (it was on <body>); after the checkout question was declined, focus is back on the option.
        const alert = form.getByRole('alert');
        // (Or on the renewal tick, when it was just pressed.)
        await waitFor(() => expect(document.activeElement === alert || ['radio', 'checkbox'].includes((document.activeElement as HTMLInputElement | null)?.type ?? '')).toBe(true));
        expect(form.getByRole('switch', { name: 'Use this card' })).not.toBeChecked();
      } else if (option === 'card') expect(await main().findByRole('switch', { name: 'Use this card' })).toBeChecked();
      if (option === 'wallet') {
        // Linked ('Unlink Maya') or not ('Link Maya'), as the wallet part's own flow read it.
        expect(await main().findByRole('button', { name: /^(Unl|L)ink Maya/ })).toBeEnabled();
        // The return's banner, until the wallet part's own flow moves on (an unlink clears it).
        if (linkStatus === 'success' && !walletSavedWithoutLink) expect(main().getByText('Successfully linked your account')).toBeInTheDocument();
        if (walletSavedWithoutLink) expect(await screen.findByText(CONNECT_WALLET())).toBeInTheDocument();
      }
      if (option === 'checkout') expect(main().getByText(CHECKOUT_EXPLANATION[0]())).toBeInTheDocument();
      // A card or wallet renews the subscription: the sentence (its next billing date and price; while PAST_DUE the period after the overdue one) and the tick.
      if (option === 'card' || option === 'wallet') {
        expect(main().getByText(pastDue ? /^Renews automatically on 01\/15\/2028 at ₱990 until you cancel\./ : /^Renews automatically on \d\d\/\d\d\/\d{4} at ₱\d+ until you cancel\. Cancel anytime on Subscription\.$/)).toBeInTheDocument();
        await waitFor(() => expect(main().getByRole('checkbox', { name: 'I agree to automatic renewal' })).toHaveProperty('checked', snapshot.context.renewalConsent !== null));
      } else expect(main().queryByRole('checkbox', { name: 'I agree to automatic renewal' })).toBeNull();
      if (error) {
        expect(main().getByRole('alert')).toHaveTextContent(error);
        expect(await screen.findAllByText(error)).not.toHaveLength(0);
      }
    },
    // product.md#renewal-consent: Save pressed for a card or wallet without the tick: nothing saved; the box says why, focused.
    consentMissing: async (_run: Run, snapshot) => {
      const box = main().getByRole('checkbox', { name: 'I agree to automatic renewal' });
      expect(box).not.toBeChecked();
      expect(box).toHaveAttribute('aria-invalid', 'true');
      expect(box).toHaveAccessibleDescription(/^Please agree to automatic renewal to continue\. Renews automatically on \d\d\/\d\d\/\d{4} at ₱\d+ until you cancel\./);
      await waitFor(() => expect(box).toHaveFocus());
      expect(['card', 'wallet']).toContain(snapshot.context.option);
      expect(screen.queryByText('Saving...')).toBeNull();
    },
    confirmingCheckout: async () => {
      // Asked in the page the moment Checkout is picked, with the spec's words; it opens on the safe choice.
      const dialog = main().getByRole('alertdialog', { name: 'Pay by Checkout?' });
      expect(dialog).toHaveAccessibleDescription(CHECKOUT_CONFIRMATION());
      expect(CHECKOUT_CONFIRMATION()).toBe('Are you sure you want to proceed with checkout method? Please note that your next subscription payment will be done manually.');
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus());
      expect(screen.getByRole('radio', { name: 'Checkout' })).not.toBeChecked();
    },
    charging: () => {
      expect(screen.getByText('Charging your new payment method for the overdue payment...')).toHaveAttribute('role', 'status');
      expect(screen.getByRole('radio', { name: 'Credit/Debit' })).toBeDisabled();
    },
    saving: () => {
      expect(screen.getAllByText('Saving...').length).toBeGreaterThan(0);
      expect(screen.getByRole('radio', { name: 'Credit/Debit' })).toBeDisabled();
    },
    saved: async (run: Run, snapshot) => {
      await waitFor(() => expect(run.location.history.at(-1)).toBe('/subscription'));
      const charge = snapshot.context.charge as ChargeOutcome | null;
      // Saved while PAST_DUE: the toast says whether the overdue payment went through (finding 8).
      const toast = !charge ? UPDATED
        : charge.outcome === 'paid' ? OVERDUE_PAID()
        : charge.outcome === 'failed' ? OVERDUE_FAILED({ reason: 'Your payment was declined' })
        : OVERDUE_PENDING();
      expect(await screen.findByText(toast)).toBeInTheDocument();
    },
  },
});
