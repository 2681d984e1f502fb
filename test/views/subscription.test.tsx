/** The subscription pages against a fake server: card variants, history, payments, failures, dialog. */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../src/api/queries';
import { leaveFor } from '../../src/lib/leave';
import type { SubscriptionStatusDetails } from '../../src/api/schemas';
import RedeemVoucherPage from '../../src/views/pages/RedeemVoucherPage';
import SubscriptionPage from '../../src/views/pages/SubscriptionPage';
import { escapeFromDialog } from '../support/flow';
import * as subscriptionCss from '../../src/views/pages/subscription.css';
import {
  canceledStatus, fakeServer, freeEndedStatus, freeStatus, historyFixture, json, paidAheadStatus, pastDueStatus, paymentsFixture, premiumStatus,
  redeemedFixture, renderSubscriptionView, renewalDueStatus, voucherStatus, walletStatus, type FakeServer,
} from '../support/subscription';

vi.mock('../../src/lib/leave', () => ({ leaveFor: vi.fn() }));

const currentCard = () => within(screen.getByRole('region', { name: 'Current Subscription' }));
const historyPanel = () => within(screen.getByRole('region', { name: 'Subscription History' }));
const paymentsPanel = () => within(screen.getByRole('region', { name: 'Payments' }));

/** The value shown beside a label in the current-subscription card. */
function fact(label: string): string {
  const term = currentCard().getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? '';
}

function showPage(status: SubscriptionStatusDetails, change?: (server: FakeServer) => void) {
  const server = fakeServer(status);
  change?.(server);
  return renderSubscriptionView(<SubscriptionPage />, { path: '/subscription', server });
}

/** The card's own action row (not the renewal notice's), in order. */
const actionNames = () => {
  const rows = [...screen.getByRole('region', { name: 'Current Subscription' }).querySelectorAll(`.${subscriptionCss.actions}`)]
    .filter((row) => !row.closest('section[aria-labelledby="renewal-title"]'));
  return [...rows.at(-1)!.children].map((element) => element.textContent);
};

describe('current-subscription card (spec §2, §9; review finding 25, expectation 4)', () => {
  it('free@: Premium\'s price and benefits in short, subscribe and redeem links, no dates to bill', async () => {
    showPage(freeStatus);
    expect(await currentCard().findByText('Free', { selector: 'p' })).toBeInTheDocument();
    expect(currentCard().getByText(/^The monthly plan is ₱99\. The yearly plan is ₱990.*Premium: every Bisaya film and series, new releases every week\.$/)).toBeInTheDocument();
    expect(currentCard().getByRole('link', { name: 'Subscribe to Premium Plan' })).toHaveAttribute('href', '/subscription/payment');
    expect(currentCard().getByRole('link', { name: 'Redeem Voucher' })).toHaveAttribute('href', '/subscription/redeem-voucher');
    // Nothing said twice: no Plan / Type / Status facts under the header, no dates to bill.
    expect(currentCard().queryByText('Type')).not.toBeInTheDocument();
    expect(currentCard().queryByText('Next Billing Date')).not.toBeInTheDocument();
    expect(currentCard().queryByText('Payment Method')).not.toBeInTheDocument();
    expect(currentCard().queryByRole('button', { name: /Cancel|Reactivate/ })).not.toBeInTheDocument();
    expect(currentCard().queryByRole('link', { name: 'Change Plan' })).not.toBeInTheDocument();
    expect(currentCard().queryByText(/ended on/)).not.toBeInTheDocument();
  });

  it('Free after Premium ended unpaid (review finding 20): when and why, and Subscribe to Premium Plan in one click', async () => {
    showPage(freeEndedStatus);
    expect(await currentCard().findByText('Your Premium ended on 12/22/2026 because the renewal payment failed.')).toBeInTheDocument();
    expect(currentCard().getByRole('link', { name: 'Subscribe to Premium Plan' })).toHaveAttribute('href', '/subscription/payment');
  });

  it('premium@: the summary line, each fact once, the changes, Redeem Voucher, and Cancel last in the danger colour', async () => {
    showPage(premiumStatus);
    const cancel = await currentCard().findByRole('button', { name: 'Cancel Subscription' });
    expect(currentCard().getByText('Premium · renews 01/15/2027 for ₱99 on Visa •••• 1381')).toBeInTheDocument();
    expect(currentCard().getAllByText('Active')).toHaveLength(1); // once, as the Status fact's badge
    expect(fact('Status')).toBe('Active');
    expect(currentCard().queryByText('Type')).not.toBeInTheDocument();
    expect(currentCard().queryByText('PREMIUM')).not.toBeInTheDocument();
    expect(fact('Price')).toBe('₱99 monthly');
    expect(fact('Start Date')).toBe('12/15/2026 8:00 am');
    expect(fact('Next Billing Date')).toBe('01/15/2027 8:00 am');
    expect(fact('Payment Method')).toBe('Visa •••• 1381');
    expect(currentCard().queryByText('Next Charge')).not.toBeInTheDocument();
    expect(currentCard().queryByText('End Date')).not.toBeInTheDocument();
    expect(currentCard().getByRole('link', { name: 'Change Payment Method' })).toHaveAttribute('href', '/subscription/change-payment-method');
    expect(currentCard().getByRole('link', { name: 'Change Plan' })).toHaveAttribute('href', '/subscription/change-plan');
    // Review finding 24: a voucher adds its days to a renewing card or wallet plan (server/billing/vouchers.ts).
    expect(currentCard().getByRole('link', { name: 'Redeem Voucher' })).toHaveAttribute('href', '/subscription/redeem-voucher');
    expect(currentCard().queryByRole('link', { name: 'Subscribe to Premium Plan' })).not.toBeInTheDocument();
    expect(actionNames()).toEqual(['Change Plan', 'Change Payment Method', 'Cancel Subscription']);
    expect(cancel.className).toMatch(/button_danger/);
  });

  it("canceled@: 'Premium until …; it will not renew', 'End Date', checkout method, Reactivate (Change Plan kept: the server takes it)", async () => {
    showPage(canceledStatus);
    expect(await currentCard().findByRole('button', { name: 'Reactivate Subscription' })).toBeEnabled();
    expect(currentCard().getByText('Premium until 02/01/2027; it will not renew')).toBeInTheDocument();
    expect(fact('Status')).toBe('Canceled');
    expect(fact('End Date')).toBe('02/01/2027 12:00 pm');
    expect(currentCard().queryByText('Next Billing Date')).not.toBeInTheDocument();
    expect(fact('Payment Method')).toBe('Maya Checkout');
    expect(currentCard().queryByRole('button', { name: 'Cancel Subscription' })).not.toBeInTheDocument();
    // A voucher would replace a checkout plan rather than add to it: no Redeem Voucher here.
    expect(actionNames()).toEqual(['Change Plan', 'Change Payment Method', 'Reactivate Subscription']);
    expect(currentCard().getByRole('button', { name: 'Reactivate Subscription' }).className).toMatch(/button_primary/);
  });

  it('voucher@: until when, that it will not renew, the voucher; no dead-end Change Plan or Change Payment Method (review finding 16)', async () => {
    showPage(voucherStatus);
    expect(await currentCard().findByRole('button', { name: 'Cancel Subscription' })).toBeInTheDocument();
    expect(currentCard().getByText('Premium until 01/10/2028; it will not renew')).toBeInTheDocument();
    // The code once, as the Voucher fact (no 'Payment Method: Voucher SUGBO365' beside it).
    expect(currentCard().queryByText('Payment Method')).not.toBeInTheDocument();
    // A voucher bills nothing: what it is and when it ends, no price per period, no billing date, no next charge.
    expect(fact('Voucher')).toBe('SUGBO365 · 365 days');
    expect(fact('End Date')).toBe('01/10/2028 8:00 am');
    expect(currentCard().queryByText('Price')).not.toBeInTheDocument();
    expect(currentCard().queryByText('Next Billing Date')).not.toBeInTheDocument();
    expect(actionNames()).toEqual(['Cancel Subscription']);
    expect(currentCard().getByRole('link', { name: 'Redeem Voucher' })).toHaveAttribute('href', '/subscription/redeem-voucher');
  });

  it('a checkout subscription: until when, renewed by hand; paid early (review finding 9): Active, the running start, the next period paid', async () => {
    const checkout = showPage({ ...canceledStatus, status: 'ACTIVE' });
    expect(await currentCard().findByText('Your Premium ends on 02/01/2027. Maya Checkout does not renew by itself.')).toBeInTheDocument();
    checkout.unmount();
    showPage(paidAheadStatus);
    expect(await currentCard().findByText('Premium · paid through 02/15/2027')).toBeInTheDocument();
    expect(fact('Status')).toBe('Active');
    expect(fact('Start Date')).toBe('12/15/2026 8:00 am');
    expect(fact('Next Period')).toBe('01/15/2027 8:00 am');
    expect(fact('Next Billing Date')).toBe('02/15/2027 8:00 am');
    expect(currentCard().queryByRole('region')).not.toBeInTheDocument();
  });

  it('a wallet and a yearly price', async () => {
    showPage(walletStatus);
    expect(await currentCard().findByText('Premium · renews 01/15/2027 for ₱990 on Maya Wallet')).toBeInTheDocument();
    expect(fact('Payment Method')).toBe('Maya Wallet');
    expect(fact('Price')).toBe('₱990 yearly');
  });

  it('shows an unknown status as its raw text and offers neither cancel nor reactivate', async () => {
    showPage({ ...premiumStatus, status: 'ON_HOLD_BY_GATEWAY' });
    expect(await currentCard().findByRole('link', { name: 'Change Plan' })).toBeInTheDocument();
    expect(fact('Status')).toBe('ON_HOLD_BY_GATEWAY');
    expect(currentCard().queryByRole('button', { name: /Cancel Subscription|Reactivate Subscription/ })).not.toBeInTheDocument();
  });
});

describe('renewals (product.md#dunning, product.md#checkout-renewal)', () => {
  it('a failed renewal says why, when it is tried again, until when Premium lasts, and offers Change Payment Method and Renew now', async () => {
    showPage(pastDueStatus);
    const notice = within(await currentCard().findByRole('region', { name: 'Your renewal payment failed' }));
    expect(notice.getByText('Your payment was declined.')).toBeInTheDocument();
    expect(notice.getByText('We will try again on 12/16/2026 8:00 am.')).toBeInTheDocument();
    expect(notice.getByText('Change your payment method to keep Premium after 12/22/2026 8:00 am.')).toBeInTheDocument();
    expect(notice.getByText("Or press Renew now to pay the overdue period now with your payment method, after adding funds for example.")).toBeInTheDocument();
    // Two actions, the way forward first: Change Payment Method (filled), then Renew now (outlined).
    const change = notice.getByRole('link', { name: 'Change Payment Method' });
    const renew = notice.getByRole('button', { name: 'Renew now' });
    expect(change).toHaveAttribute('href', '/subscription/change-payment-method');
    expect(change.className).toMatch(/button_primary/);
    expect(renew).toBeEnabled();
    expect(renew.className).toMatch(/button_secondary/);
    expect(change.compareDocumentPosition(renew) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // Side by side in a row that wraps on a narrow screen (the card's own action row).
    expect(change.parentElement).toBe(renew.parentElement);
    expect(renew.parentElement).toHaveClass(subscriptionCss.actions);
    expect(currentCard().getAllByRole('link', { name: 'Change Payment Method' })).toHaveLength(1);
    expect(currentCard().getAllByRole('button', { name: 'Renew now' })).toHaveLength(1);
    expect(fact('Status')).toBe('Past due');
    // Review finding 8: what is owed, and no Next Billing Date in the past (the notice says the next try and the last day).
    expect(currentCard().getByText('Premium · payment of ₱99 overdue')).toBeInTheDocument();
    expect(fact('Amount Due')).toBe('₱99');
    expect(currentCard().queryByText('Next Billing Date')).not.toBeInTheDocument();
    // Cancelable, which stops the retries, and last; the plan can still be changed.
    expect(currentCard().getByRole('button', { name: 'Cancel Subscription' })).toBeEnabled();
    expect(currentCard().getByRole('link', { name: 'Change Plan' })).toBeInTheDocument();
    expect(actionNames()).toEqual(['Change Plan', 'Cancel Subscription']);
    expect(currentCard().getByRole('link', { name: 'Redeem Voucher' })).toBeInTheDocument();
  });

  it('after a hard decline it says the method will not be tried again', async () => {
    showPage({ ...pastDueStatus, renewal: { state: 'PAST_DUE', failure: 'Card not found', nextAttemptDate: null, accessEndDate: '2026-12-22T00:00:00.000Z' } });
    const notice = within(await currentCard().findByRole('region', { name: 'Your renewal payment failed' }));
    expect(notice.getByText('Card not found.')).toBeInTheDocument();
    expect(notice.getByText('We will not try this payment method again.')).toBeInTheDocument();
  });

  it('a checkout subscription near its end offers Renew now beside Change Payment Method', async () => {
    showPage(renewalDueStatus);
    const notice = within(await currentCard().findByRole('region', { name: 'Time to renew' }));
    expect(notice.getByRole('button', { name: 'Renew now' })).toBeEnabled();
    expect(currentCard().getByRole('link', { name: 'Change Payment Method' })).toBeInTheDocument();
  });

  it('a card subscription with nothing due shows no renewal notice', async () => {
    showPage(premiumStatus);
    await currentCard().findByRole('button', { name: 'Cancel Subscription' });
    expect(currentCard().queryByRole('region')).not.toBeInTheDocument();
  });

  it('the payments panel counts the retries of a renewal', async () => {
    showPage(pastDueStatus, (server) => {
      server.payments = [...paymentsFixture, { ...paymentsFixture[2]!, id: 'p-4', referenceId: 'SB-RN-0004', retryCount: 2, createdAt: '2026-12-15T00:00:00.000Z' }];
    });
    const row = within((await paymentsPanel().findByText('SB-RN-0004')).closest('tr')!);
    expect(row.getByText('Retried 2 times')).toBeInTheDocument();
    expect(paymentsPanel().getAllByText(/^Retried/)).toHaveLength(1);
  });
});

describe('history (spec §2)', () => {
  it('Active shows the PREMIUM items in force; All shows every item', async () => {
    const run = showPage(premiumStatus);
    const active = await historyPanel().findByRole('list', { name: 'Active subscriptions' });
    expect(within(active).getAllByRole('listitem')).toHaveLength(1);
    expect(within(active).getByText('Active')).toBeInTheDocument();
    await run.user.click(historyPanel().getByRole('tab', { name: 'All' }));
    const all = historyPanel().getByRole('list', { name: 'All subscriptions' });
    expect(within(all).getAllByRole('listitem')).toHaveLength(historyFixture.length);
    expect(within(all).getByText('Expired')).toBeInTheDocument();
    expect(within(all).getByText('12/15/2026 8:00 am – 01/15/2027 8:00 am')).toBeInTheDocument();
  });

  it("says 'No subscriptions found' when empty, in both tabs", async () => {
    const run = showPage(freeStatus, (server) => { server.history = []; });
    await historyPanel().findByRole('tab', { name: 'Active', selected: true });
    // Only the selected tab's panel is exposed (Ark hides the other one).
    await waitFor(() => expect(historyPanel().getByRole('tabpanel')).toHaveAccessibleName('Active'));
    expect(historyPanel().getByRole('tabpanel')).toHaveTextContent('No subscriptions found');
    await run.user.click(historyPanel().getByRole('tab', { name: 'All' }));
    await waitFor(() => expect(historyPanel().getByRole('tabpanel')).toHaveAccessibleName('All'));
    expect(historyPanel().getByRole('tabpanel')).toHaveTextContent('No subscriptions found');
  });

  it('Active lists a PAST_DUE item, a CANCELED one still running and an UPCOMING one (review findings 8, 9, 16)', async () => {
    const premium = historyFixture[0]!;
    showPage(pastDueStatus, (server) => {
      server.history = [
        { ...premium, id: 'h-up', status: 'UPCOMING', startDate: '2027-01-15T00:00:00.000Z', endDate: '2027-02-15T00:00:00.000Z', autoRenew: false },
        { ...premium, id: 'h-pd', status: 'PAST_DUE' },
        { ...premium, id: 'h-cx', status: 'CANCELED', autoRenew: false },
        { ...premium, id: 'h-ex', status: 'EXPIRED', autoRenew: false },
      ];
    });
    const active = await historyPanel().findByRole('list', { name: 'Active subscriptions' });
    expect(within(active).getAllByRole('listitem').map((item) => within(item).getAllByText(/./, { selector: 'span' })[0]!.textContent))
      .toEqual(['Upcoming', 'Past due', 'Canceled']);
  });

  it('Active hides a FREE item even when it is ACTIVE', async () => {
    showPage(freeStatus, (server) => { server.history = [historyFixture[2]!]; });
    expect(await historyPanel().findByText('No subscriptions found')).toBeInTheDocument();
  });
});

describe('payments panel', () => {
  it('lists date, plan, method, amount, status and reference, newest first', async () => {
    showPage(premiumStatus, (server) => {
      server.payments = [
        ...server.payments,
        { ...server.payments[0]!, id: 'p-4', status: 'PAYMENT_EXPIRED', referenceId: 'SB-REF-0004', createdAt: '2026-10-01T00:00:00.000Z' },
        { ...server.payments[0]!, id: 'p-5', status: 'PENDING', referenceId: 'SB-REF-0005', createdAt: '2026-09-01T00:00:00.000Z', paymentMethod: 'MAYA_CHECKOUT' },
        { ...server.payments[0]!, id: 'p-6', status: 'PAYMENT_CANCELLED', referenceId: 'SB-REF-0006', createdAt: '2026-08-01T00:00:00.000Z' },
        { ...server.payments[0]!, id: 'p-7', status: 'REFUND_REQUESTED', referenceId: 'SB-REF-0007', createdAt: '2026-07-01T00:00:00.000Z' },
      ];
    });
    const table = await paymentsPanel().findByRole('table');
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Date', 'Plan', 'Method', 'Amount', 'Status', 'Reference']);
    // The reference cell of a successful payment also holds its receipt link (checked below).
    const rows = within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent?.replace(/Receipt$/, '')));
    expect(rows.map((cells) => cells[5])).toEqual(['SB-REF-0003', 'SB-REF-0002', 'SB-REF-0001', 'SB-REF-0004', 'SB-REF-0005', 'SB-REF-0006', 'SB-REF-0007']);
    expect(rows.map((cells) => cells[4])).toEqual(['Succeeded', 'Failed', 'Succeeded', 'Expired', 'Pending', 'Canceled', 'REFUND_REQUESTED']);
    expect(rows[0]).toEqual(['12/15/2026 8:00 am', 'Monthly', 'Card', '₱99', 'Succeeded', 'SB-REF-0003']);
    expect(rows[4]![2]).toBe('Maya Checkout');
    // Each successful payment links its receipt (issue 19); no other does.
    const receipts = within(table).getAllByRole('link', { name: /^Receipt for / });
    expect(receipts.map((a) => [a.getAttribute('aria-label'), a.getAttribute('href')])).toEqual([
      ['Receipt for SB-REF-0003', '/subscription/receipts/p-3'],
      ['Receipt for SB-REF-0001', '/subscription/receipts/p-1'],
    ]);
  });

  it("says 'No payments yet' when there are none", async () => {
    showPage(freeStatus, (server) => { server.payments = []; });
    expect(await paymentsPanel().findByText('No payments yet')).toBeInTheDocument();
  });
});

/** product.md#errors for every call: the message a person reads, and no spinner left behind. */
const failures = [
  { name: '500 with a message', answer: () => json(500, { success: false, message: 'The billing service is resting' }), message: 'The billing service is resting' },
  { name: '500 without a message', answer: () => new Response('<html>oops</html>', { status: 500 }), message: 'Something went wrong' },
  { name: 'network down', answer: () => { throw new TypeError(''); }, message: 'Network error' },
  { name: '401', answer: () => json(401, { success: false, message: 'Your session has expired' }), message: 'Your session has expired' },
] as const;

describe('failures of the three reads (spec §8)', () => {
  const reads = [
    { call: 'status', panel: currentCard, loading: 'Loading subscription...' },
    { call: 'history', panel: historyPanel, loading: 'Loading history...' },
    { call: 'payments', panel: paymentsPanel, loading: 'Loading payments...' },
  ] as const;
  for (const read of reads) {
    for (const failure of failures) {
      it(`${read.call}: ${failure.name} shows '${failure.message}' with 'Try again' and no spinner`, async () => {
        const run = showPage(premiumStatus, (server) => { server.answers[read.call] = failure.answer; });
        expect(await read.panel().findByRole('alert')).toHaveTextContent(failure.message);
        expect(read.panel().queryByText(read.loading)).not.toBeInTheDocument();
        expect(screen.getByRole('region', { name: read.panel === currentCard ? 'Current Subscription' : read.panel === historyPanel ? 'Subscription History' : 'Payments' }))
          .toHaveAttribute('aria-busy', 'false');
        if (failure.name === '401') {
          await waitFor(() => expect(run.session.getSnapshot().value).toBe('signedOut'));
          return;
        }
        // Retry reads again and shows the data once the server answers.
        delete run.server.answers[read.call];
        await run.user.click(read.panel().getByRole('button', { name: 'Try again' }));
        await waitFor(() => expect(read.panel().queryByRole('alert')).not.toBeInTheDocument());
        expect(read.panel().queryByText(read.loading)).not.toBeInTheDocument();
      });
    }
  }
});

describe('cancel and reactivate (spec §2, §4, §8)', () => {
  it('cancels: the dialog names the end date, the server message is toasted, the card and history refresh', async () => {
    const run = showPage(premiumStatus);
    const opener = await currentCard().findByRole('button', { name: 'Cancel Subscription' });
    await run.user.click(opener);
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Cancel your subscription?' }));
    expect(dialog.getByText(/until 01\/15\/2027 8:00 am/)).toBeInTheDocument();
    expect(dialog.getByText(/non-refundable/)).toBeInTheDocument();
    const statusReads = run.server.calls.filter((c) => c === 'status').length;
    const historyReads = run.server.calls.filter((c) => c === 'history').length;
    await run.user.click(dialog.getByRole('button', { name: 'Cancel Subscription' }));
    expect(await screen.findByText('Your subscription has been canceled.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    // Focus comes back to the one Cancel / Reactivate button once the dialog has closed (a moment after it unmounts).
    const reactivate = await currentCard().findByRole('button', { name: 'Reactivate Subscription' });
    await waitFor(() => expect(reactivate).toHaveFocus());
    expect(fact('End Date')).toBe('01/15/2027 8:00 am');
    expect(run.server.calls.filter((c) => c === 'status').length).toBeGreaterThan(statusReads);
    expect(run.server.calls.filter((c) => c === 'history').length).toBeGreaterThan(historyReads);
    expect(run.server.calls).toContain('payments');
  });

  it('reactivates a CANCELED subscription', async () => {
    const run = showPage(canceledStatus);
    await run.user.click(await currentCard().findByRole('button', { name: 'Reactivate Subscription' }));
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Reactivate your subscription?' }));
    await run.user.click(dialog.getByRole('button', { name: 'Reactivate Subscription' }));
    expect(await screen.findByText('Your subscription has been reactivated.')).toBeInTheDocument();
    expect(await currentCard().findByRole('button', { name: 'Cancel Subscription' })).toBeInTheDocument();
  });

  it('Escape cancels without a call and focus returns to the opener', async () => {
    const run = showPage(premiumStatus);
    const opener = await currentCard().findByRole('button', { name: 'Cancel Subscription' });
    await run.user.click(opener);
    await screen.findByRole('alertdialog');
    await escapeFromDialog(run);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
    expect(run.server.calls).not.toContain('cancel');
  });

  for (const failure of failures) {
    for (const change of ['cancel', 'resubscribe'] as const) {
      it(`${change}: ${failure.name} keeps the dialog open with '${failure.message}' and an error toast, no spinner`, async () => {
        const run = showPage(change === 'cancel' ? premiumStatus : canceledStatus, (server) => { server.answers[change] = failure.answer; });
        await run.user.click(await currentCard().findByRole('button', { name: change === 'cancel' ? 'Cancel Subscription' : 'Reactivate Subscription' }));
        const dialog = within(await screen.findByRole('alertdialog'));
        await run.user.click(dialog.getByRole('button', { name: /^(Cancel|Reactivate) Subscription$/ }));
        if (failure.name === '401') {
          await waitFor(() => expect(run.session.getSnapshot().value).toBe('signedOut'));
        }
        expect(await dialog.findByRole('alert')).toHaveTextContent(failure.message);
        expect(await screen.findAllByText(failure.message)).toHaveLength(2); // the box and the toast
        expect(dialog.queryByRole('button', { name: /ing\.\.\.$/ })).not.toBeInTheDocument();
        expect(dialog.getByRole('button', { name: /^(Cancel|Reactivate) Subscription$/ })).toBeEnabled();
      });
    }
  }
});

describe('a PAST_DUE subscription: cancel and Renew now (product.md#dunning)', () => {
  const notice = () => within(currentCard().getByRole('region', { name: 'Your renewal payment failed' }));

  it('cancel: the dialog says the payment is no longer tried and Premium lasts to the end of the grace period; then End Date and Reactivate', async () => {
    const run = showPage(pastDueStatus);
    await run.user.click(await currentCard().findByRole('button', { name: 'Cancel Subscription' }));
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Cancel your subscription?' }));
    expect(dialog.getAllByText(/./, { selector: 'p' }).map((p) => p.textContent)).toEqual([
      'We will stop trying to charge your overdue payment.',
      'You keep PREMIUM access until 12/22/2026 8:00 am (Asia/Manila). After that your plan returns to Free.',
      'Subscription fees are non-refundable.',
    ]);
    expect(dialog.getByRole('button', { name: 'Keep Subscription' })).toBeEnabled();
    await run.user.click(dialog.getByRole('button', { name: 'Cancel Subscription' }));
    expect(await screen.findByText('Your subscription has been canceled.')).toBeInTheDocument();
    expect(run.server.calls).toContain('cancel');
    // The canceled view: the grace period's end as End Date, Reactivate, no renewal notice any more.
    expect(await currentCard().findByRole('button', { name: 'Reactivate Subscription' })).toHaveFocus();
    expect(currentCard().getByText('Canceled')).toBeInTheDocument();
    expect(fact('End Date')).toBe('12/22/2026 8:00 am');
    expect(currentCard().queryByRole('region')).not.toBeInTheDocument();
    expect(currentCard().queryByRole('button', { name: 'Renew now' })).not.toBeInTheDocument();
  });

  it('reactivating a subscription canceled while PAST_DUE shows the status the server returns (PAST_DUE again)', async () => {
    const run = showPage({ ...pastDueStatus, status: 'CANCELED', endDate: '2026-12-22T00:00:00.000Z', renewal: undefined }, (server) => {
      server.answers.resubscribe = () => {
        server.status = pastDueStatus;
        return json(200, { success: true, message: 'Your subscription has been reactivated.', data: null });
      };
    });
    await run.user.click(await currentCard().findByRole('button', { name: 'Reactivate Subscription' }));
    // A card subscription renews by itself again: the tick first (product.md#renewal-consent).
    const reactivate = within(await screen.findByRole('alertdialog'));
    await run.user.click(reactivate.getByRole('checkbox', { name: 'I agree to automatic renewal' }));
    await run.user.click(reactivate.getByRole('button', { name: 'Reactivate Subscription' }));
    expect(await currentCard().findByRole('region', { name: 'Your renewal payment failed' })).toBeInTheDocument();
    expect(currentCard().getByText('Past due')).toBeInTheDocument();
    expect(currentCard().getByRole('button', { name: 'Cancel Subscription' })).toBeEnabled();
  });

  it('Renew now asks to pay this subscription\'s overdue period and leaves for the page Maya answers (the bank\'s, for a card that must be confirmed)', async () => {
    vi.mocked(leaveFor).mockClear();
    const sent: unknown[] = [];
    let answer!: (response: Response) => void;
    const run = showPage(pastDueStatus, (server) => {
      server.answers.renew = (init) => {
        sent.push(JSON.parse(String(init?.body)));
        return new Promise<Response>((resolve) => { answer = resolve; });
      };
    });
    await currentCard().findByRole('region', { name: 'Your renewal payment failed' });
    await run.user.click(notice().getByRole('button', { name: 'Renew now' }));
    // Busy while the server answers; the other action stays a plain link.
    expect(await notice().findByRole('button', { name: 'Processing...' })).toBeDisabled();
    answer(json(200, { success: true, message: 'OK', data: { paymentLink: 'https://payments.example/3ds/overdue' } }));
    await waitFor(() => expect(vi.mocked(leaveFor).mock.calls).toEqual([['https://payments.example/3ds/overdue']]));
    expect(sent).toEqual([{ subscriptionId: 'sub-past-due' }]);
    expect(notice().getByRole('button', { name: 'Processing...' })).toBeDisabled();
  });

  it('Renew now paid at once on the card: says so and reads the subscription again', async () => {
    vi.mocked(leaveFor).mockClear();
    const run = showPage(pastDueStatus, (server) => {
      server.answers.renew = () => {
        server.status = { ...pastDueStatus, status: 'ACTIVE', renewal: undefined };
        return json(200, { success: true, message: 'OK', data: { paid: true } });
      };
    });
    await currentCard().findByRole('region', { name: 'Your renewal payment failed' });
    await run.user.click(notice().getByRole('button', { name: 'Renew now' }));
    expect(await screen.findByText('Paid. Your Premium continues.')).toBeInTheDocument();
    await waitFor(() => expect(currentCard().queryByRole('region', { name: 'Your renewal payment failed' })).not.toBeInTheDocument());
    expect(leaveFor).not.toHaveBeenCalled();
  });

  for (const failure of failures) {
    it(`Renew now: ${failure.name} shows '${failure.message}' in the notice and as a toast, and may be pressed again`, async () => {
      vi.mocked(leaveFor).mockClear();
      const run = showPage(pastDueStatus, (server) => { server.answers.renew = failure.answer; });
      await currentCard().findByRole('region', { name: 'Your renewal payment failed' });
      await run.user.click(notice().getByRole('button', { name: 'Renew now' }));
      if (failure.name === '401') {
        await waitFor(() => expect(run.session.getSnapshot().value).toBe('signedOut'));
        return;
      }
      expect(await notice().findByRole('alert')).toHaveTextContent(failure.message);
      await waitFor(() => expect(screen.getAllByText(failure.message)).toHaveLength(2)); // the box and the toast
      expect(notice().getByRole('button', { name: 'Renew now' })).toBeEnabled();
      expect(notice().getByRole('link', { name: 'Change Payment Method' })).toBeInTheDocument();
      expect(leaveFor).not.toHaveBeenCalled();
      // A refusal means the subscription may have changed: it is read again.
      await waitFor(() => expect(run.server.calls.filter((c) => c === 'status').length).toBeGreaterThan(1));
    });
  }
});

describe('redeem voucher (spec §2, §5, §8)', () => {
  it('upper-cases the code as it is typed', async () => {
    const run = renderSubscriptionView(<RedeemVoucherPage />, { path: '/subscription/redeem-voucher', server: fakeServer(freeStatus) });
    await run.user.type(screen.getByLabelText('Voucher Code'), 'sugbo365');
    expect(screen.getByLabelText('Voucher Code')).toHaveValue('SUGBO365');
  });

  it("sends the upper-case code, toasts 'Voucher redeemed successfully', refreshes the status and goes to /subscription", async () => {
    const server = fakeServer(freeStatus);
    const sent: unknown[] = [];
    server.answers.redeem = (init) => {
      sent.push(JSON.parse(String(init?.body)));
      server.status = voucherStatus;
      return json(200, { success: true, message: 'Voucher redeemed', data: redeemedFixture });
    };
    const run = renderSubscriptionView(<RedeemVoucherPage />, { path: '/subscription/redeem-voucher', server });
    run.queryClient.setQueryData(queryKeys.subscriptionStatus, freeStatus);
    await run.user.type(screen.getByLabelText('Voucher Code'), 'bisaya30');
    await run.user.click(screen.getByRole('button', { name: 'Redeem Voucher' }));
    expect(await screen.findByText('Voucher redeemed successfully')).toBeInTheDocument();
    expect(sent).toEqual([{ code: 'BISAYA30' }]);
    await waitFor(() => expect(run.location.history.at(-1)).toBe('/subscription'));
    // Refreshed: the page reads the status (what the voucher does to a paid plan), so it is read again at once.
    await waitFor(() => expect(run.queryClient.getQueryData(queryKeys.subscriptionStatus)).toEqual(voucherStatus));
  });

  for (const failure of failures) {
    it(`${failure.name} toasts '${failure.message}', keeps the code and leaves no spinner`, async () => {
      const server = fakeServer(freeStatus);
      server.answers.redeem = failure.answer;
      const run = renderSubscriptionView(<RedeemVoucherPage />, { path: '/subscription/redeem-voucher', server });
      await run.user.type(screen.getByLabelText('Voucher Code'), 'bisaya30');
      await run.user.click(screen.getByRole('button', { name: 'Redeem Voucher' }));
      // As a toast, and at the field (issue 19: the toast fades after 4 s).
      await waitFor(() => expect(screen.getAllByText(failure.message)).toHaveLength(2));
      expect(screen.getByLabelText('Voucher Code')).toHaveAccessibleDescription(failure.message);
      expect(screen.getByLabelText('Voucher Code')).toHaveValue('BISAYA30');
      expect(screen.getByRole('button', { name: 'Redeem Voucher' })).toBeEnabled();
      expect(screen.queryByRole('button', { name: 'Redeeming...' })).not.toBeInTheDocument();
      if (failure.name === '401') await waitFor(() => expect(run.session.getSnapshot().value).toBe('signedOut'));
    });
  }
});
