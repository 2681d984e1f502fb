import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { ApiError } from '../../src/api/http';
import { queryKeys } from '../../src/api/queries';
import { cancelSubscriptionMachine } from '../../src/machines/cancelSubscription/cancelSubscription.machine';
import SubscriptionPage from '../../src/views/pages/SubscriptionPage';
import { describeModel } from '../support/model';
import { canceledCardStatus, canceledStatus, canceledVoucherStatus, fakeServer, pastDueStatus, premiumStatus, renderSubscriptionView } from '../support/subscription';
import { escapeFromDialog } from '../support/flow';

type Run = ReturnType<typeof renderSubscriptionView>;
const dialog = () => within(screen.getByRole('alertdialog'));
// product.md#dates: Asia/Manila, month/day/year, 12-hour clock.
const ACCESS_ENDS = '01/15/2027 8:00 am';
const RENEWS = '01/15/2027 8:00 am';
// Checkout's line is the Time to renew notice's (date only in its own words); a voucher's is the card's summary.
const CHECKOUT_ENDS = '02/01/2027 12:00 pm';
const VOUCHER_ENDS = '01/10/2028 8:00 am';
// A PAST_DUE subscription keeps Premium to the end of its grace period (its renewal's accessEndDate), not its unpaid end date.
const GRACE_ENDS = '12/22/2026 8:00 am';
const PAST_DUE_ACCESS_END = pastDueStatus.renewal?.state === 'PAST_DUE' ? pastDueStatus.renewal.accessEndDate : null;

/** The three ways a person dismisses the dialog, taken in turn so each path family walks all three. */
const dismissals = [
  (run: Run) => escapeFromDialog(run),
  (run: Run) => run.user.click(dialog().getByRole('button', { name: 'Close' })),
  (run: Run) => run.user.click(dialog().getByRole('button', { name: /Keep Subscription|Not Now/ })),
];
let dismissal = 0;

describeModel('cancelSubscription', {
  machine: cancelSubscriptionMachine,
  events: {
    'dialog.open': [
      { type: 'dialog.open', change: 'cancel', subscriptionId: premiumStatus.subscriptionId!, periodEnd: premiumStatus.endDate },
      // Review finding 10: a card renews by itself; a checkout is paid by hand after a reminder; a voucher just ends.
      {
        type: 'dialog.open', change: 'reactivate', subscriptionId: canceledCardStatus.subscriptionId!, periodEnd: canceledCardStatus.endDate, continuation: 'automatic',
        renewalPrice: { amount: canceledCardStatus.planAmount, currency: canceledCardStatus.planCurrency },
      },
      { type: 'dialog.open', change: 'reactivate', subscriptionId: canceledStatus.subscriptionId!, periodEnd: canceledStatus.endDate, continuation: 'byHand' },
      { type: 'dialog.open', change: 'reactivate', subscriptionId: canceledVoucherStatus.subscriptionId!, periodEnd: canceledVoucherStatus.endDate, continuation: 'none' },
      { type: 'dialog.open', change: 'cancel', subscriptionId: pastDueStatus.subscriptionId!, periodEnd: PAST_DUE_ACCESS_END, pastDue: true },
    ],
    'dialog.confirm': [{ type: 'dialog.confirm' }],
    'dialog.cancel': [{ type: 'dialog.cancel' }],
    // The view sends the sentence it shows (product.md#renewal-consent); the fixture's words only stand for it.
    'consent.toggle': [{ type: 'consent.toggle', consent: { accepted: true, text: 'the sentence shown', language: 'en' } }, { type: 'consent.toggle', consent: null }],
  },
  // The tick shows when reactivating a card subscription; each press flips it.
  prune: (s, e) => e.type !== 'consent.toggle' || (s.context.change === 'reactivate' && s.context.continuation === 'automatic'
    && ((e as unknown as { consent: unknown }).consent !== null) === (s.context.renewalConsent === null)),
  // Cancel, cancel while PAST_DUE and reactivate share states; the change in context keeps their paths apart.
  serializeContext: (s) => `${s.context.change}${s.context.pastDue ? ' pastDue' : ''}${s.context.change === 'reactivate' ? ` ${s.context.continuation}` : ''}${s.context.renewalConsent ? ' agreed' : ''}`,
  invocations: {
    cancelSubscription: { done: [{ message: 'Your subscription has been canceled.' }], error: [new ApiError('This subscription is already canceled.', 409)] },
    resubscribe: { done: [{ message: 'Welcome back! Your subscription is active again.' }], error: [new ApiError('This subscription has ended. Please subscribe again.', 409)] },
  },
  render: ({ actors, inspect }) =>
    renderSubscriptionView(<SubscriptionPage />, { path: '/subscription', server: fakeServer(premiumStatus), overrides: { actors: actors.actors, inspect } }),
  executors: {
    'dialog.open': async (run, event) => {
      // The account shows the matching card first: ACTIVE and PAST_DUE offer cancel, CANCELED offers reactivate.
      const reactivated = { automatic: canceledCardStatus, byHand: canceledStatus, none: canceledVoucherStatus }[event.continuation ?? 'automatic'];
      const status = event.change === 'reactivate' ? reactivated : event.pastDue ? pastDueStatus : premiumStatus;
      if (run.server.status !== status) {
        run.server.status = status;
        await run.queryClient.invalidateQueries({ queryKey: queryKeys.subscriptionStatus });
      }
      const label = event.change === 'cancel' ? 'Cancel Subscription' : 'Reactivate Subscription';
      await run.user.click(await screen.findByRole('button', { name: label }));
    },
    'dialog.confirm': async (run) =>
      run.user.click(dialog().getByRole('button', { name: /^(Cancel|Reactivate) Subscription$/ })),
    'dialog.cancel': async (run) => dismissals[dismissal++ % dismissals.length]!(run),
    'consent.toggle': async (run) => run.user.click(dialog().getByRole('checkbox', { name: 'I agree to automatic renewal' })),
  },
  states: {
    closed: async (_run, snapshot) => {
      await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
      if (snapshot.context.subscriptionId) {
        // Focus goes back to the button that opened the dialog.
        await waitFor(() => expect(document.activeElement).toHaveAccessibleName(/^(Cancel|Reactivate) Subscription$/));
      }
    },
    'open.confirming': async (_run, snapshot) => {
      const box = within(await screen.findByRole('alertdialog'));
      if (snapshot.context.change === 'cancel' && snapshot.context.pastDue) {
        // product.md#dunning: the retries stop, Premium lasts to the end of the grace period.
        expect(box.getByRole('heading', { name: 'Cancel your subscription?' })).toBeInTheDocument();
        expect(box.getByText('We will stop trying to charge your overdue payment.')).toBeInTheDocument();
        expect(box.getByText(new RegExp(`keep PREMIUM access until ${GRACE_ENDS}`))).toBeInTheDocument();
        expect(box.getByText('Subscription fees are non-refundable.')).toBeInTheDocument();
        expect(box.getByRole('button', { name: 'Cancel Subscription' }).className).toMatch(/button_danger/);
      } else if (snapshot.context.change === 'cancel') {
        expect(box.getByRole('heading', { name: 'Cancel your subscription?' })).toBeInTheDocument();
        expect(box.queryByText(/stop trying/)).not.toBeInTheDocument();
        expect(box.getByText(new RegExp(`keep PREMIUM access until ${ACCESS_ENDS}`))).toBeInTheDocument();
        expect(box.getByText(/non-refundable/)).toBeInTheDocument();
        // Canceling ends something: its button is the outlined danger one, not the filled way forward.
        expect(box.getByRole('button', { name: 'Cancel Subscription' }).className).toMatch(/button_danger/);
      } else {
        expect(box.getByRole('heading', { name: 'Reactivate your subscription?' })).toBeInTheDocument();
        const said = box.getAllByText(/./, { selector: 'p' }).map((p) => p.textContent).join(' ');
        if (snapshot.context.continuation === 'automatic') {
          expect(said).toContain(`Your PREMIUM plan continues and renews on ${RENEWS} (Asia/Manila) with your current payment method.`);
        } else if (snapshot.context.continuation === 'byHand') {
          // Checkout never renews by itself: no promise of it, the reminder instead.
          expect(said).toContain(`Your Premium ends on ${CHECKOUT_ENDS}. Maya Checkout does not renew by itself.`);
        } else {
          expect(said).toContain(`Premium until ${VOUCHER_ENDS}; it will not renew.`);
        }
        if (snapshot.context.continuation !== 'automatic') expect(said).not.toMatch(/renews on|with your current payment method/);
        // product.md#renewal-consent: a card renews by itself again: the sentence with its date and price, and the tick.
        if (snapshot.context.continuation === 'automatic') {
          expect(said).toContain(`Renews automatically on ${RENEWS.slice(0, 10)} at ₱99 until you cancel. Cancel anytime on Subscription.`);
          const tick = box.getByRole('checkbox', { name: 'I agree to automatic renewal' });
          expect(tick).toHaveProperty('checked', snapshot.context.renewalConsent !== null);
          expect(tick).not.toHaveAttribute('aria-invalid');
        } else expect(box.queryByRole('checkbox')).toBeNull();
        expect(box.getByRole('button', { name: 'Reactivate Subscription' }).className).toMatch(/button_primary/);
      }
      expect(box.queryByRole('alert')).not.toBeInTheDocument();
      expect(box.getByRole('button', { name: 'Close' })).toBeEnabled();
    },
    // Reactivate pressed without the tick: nothing is called; the box says why, and has the focus.
    'open.consentMissing': async () => {
      const box = within(await screen.findByRole('alertdialog'));
      const tick = box.getByRole('checkbox', { name: 'I agree to automatic renewal' });
      expect(tick).not.toBeChecked();
      expect(tick).toHaveAttribute('aria-invalid', 'true');
      expect(tick).toHaveAccessibleDescription(/^Please agree to automatic renewal to continue\. Renews automatically on 01\/15\/2027 at ₱99/);
      await waitFor(() => expect(tick).toHaveFocus());
      expect(box.getByRole('button', { name: 'Reactivate Subscription' })).toBeEnabled();
    },
    'open.rejected': async (_run, snapshot) => {
      const box = within(await screen.findByRole('alertdialog'));
      expect(box.getByRole('alert')).toHaveTextContent(snapshot.context.error as string);
      // The error toast carries the same server message.
      expect(await screen.findAllByText(snapshot.context.error as string)).toHaveLength(2);
    },
    canceling: () => {
      expect(dialog().getByRole('button', { name: 'Canceling...' })).toBeDisabled();
      expect(dialog().getByRole('button', { name: 'Close' })).toBeDisabled();
    },
    reactivating: () => {
      expect(dialog().getByRole('button', { name: 'Reactivating...' })).toBeDisabled();
      expect(dialog().getByRole('button', { name: 'Not Now' })).toBeDisabled();
    },
  },
});
