import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Receipt } from '../../src/api/schemas';
import { m, overwriteGetLocale } from '../../src/i18n';
import { formatDate, formatDateTime } from '../../src/lib/dates';
import { formatBillingPeriod } from '../../src/lib/format';
import { createActor } from 'xstate';
import { cancelSubscriptionMachine, connectCancelSubscription } from '../../src/machines/cancelSubscription';
import {
  formatPrice, historyItems, historyRow, paymentStatusLabel, renewalNotice, statusLabel, subscriptionCardView,
} from '../../src/machines/subscription/subscription.format';
import { receiptView } from '../../src/views/pages/receipt.format';
import {
  canceledCardStatus, canceledStatus, canceledVoucherStatus, freeEndedStatus, freeStatus, historyFixture, paidAheadStatus, pastDueStatus,
  premiumStatus, renewalDueStatus, voucherStatus, walletStatus,
} from '../support/subscription';

describe('formatPrice (spec §9 price suffix)', () => {
  it('drops a 00 suffix and joins another with a slash', () => {
    expect(formatPrice('99.00', 'PHP')).toBe('₱99');
    expect(formatPrice('99.50', 'PHP')).toBe('₱99/50');
    expect(formatPrice('990.05', 'PHP')).toBe('₱990/05');
    expect(formatPrice('12', 'USD')).toBe('USD12');
  });
  it('shows an amount that is not a number as sent', () => {
    expect(formatPrice('n/a', 'PHP')).toBe('₱n/a');
  });
});

describe('status wording', () => {
  it('names known statuses and keeps unknown ones raw', () => {
    expect(statusLabel('ACTIVE')).toBe('Active');
    expect(statusLabel('CANCELED')).toBe('Canceled');
    expect(statusLabel('SOMETHING_NEW')).toBe('SOMETHING_NEW');
    expect(paymentStatusLabel('PAYMENT_SUCCESS')).toBe('Succeeded');
    expect(paymentStatusLabel('PAYMENT_FAILED')).toBe('Failed');
    expect(paymentStatusLabel('PENDING')).toBe('Pending');
    expect(paymentStatusLabel('PAYMENT_EXPIRED')).toBe('Expired');
    expect(paymentStatusLabel('PAYMENT_CANCELLED')).toBe('Canceled');
    expect(paymentStatusLabel('CHARGEBACK')).toBe('CHARGEBACK');
  });
});

describe('subscriptionCardView', () => {
  it('offers cancel for ACTIVE, reactivate for CANCELED, nothing for FREE', () => {
    expect(subscriptionCardView(premiumStatus).change?.open).toEqual({
      type: 'dialog.open', change: 'cancel', subscriptionId: 'sub-premium', periodEnd: premiumStatus.endDate, continuation: 'automatic',
      // What a reactivation would renew at (the consent's sentence, issue 34).
      renewalPrice: { amount: '99.00', currency: 'PHP' },
    });
    expect(subscriptionCardView(canceledStatus).change?.kind).toBe('reactivate');
    expect(subscriptionCardView(freeStatus).change).toBeNull();
    expect(subscriptionCardView(freeStatus).price).toBeNull();
  });

  it('offers cancel for PAST_DUE, with access to the end of the grace period (product.md#dunning)', () => {
    expect(subscriptionCardView(pastDueStatus).change).toEqual({
      kind: 'cancel',
      open: {
        type: 'dialog.open', change: 'cancel', subscriptionId: 'sub-past-due', periodEnd: '2026-12-22T00:00:00.000Z', continuation: 'automatic', pastDue: true,
        renewalPrice: { amount: '99.00', currency: 'PHP' },
      },
    });
    expect(subscriptionCardView({ ...pastDueStatus, status: 'EXPIRED' }).change).toBeNull();
  });

  it('says the whole state in one line at the top (review expectation 4), each fact once', () => {
    expect(subscriptionCardView(premiumStatus).summary).toBe('Premium · renews 01/15/2027 for ₱99 on Visa •••• 1381');
    expect(subscriptionCardView(walletStatus).summary).toBe('Premium · renews 01/15/2027 for ₱990 on Maya Wallet');
    expect(subscriptionCardView(canceledStatus).summary).toBe('Premium until 02/01/2027; it will not renew');
    expect(subscriptionCardView(voucherStatus).summary).toBe('Premium until 01/10/2028; it will not renew');
    expect(subscriptionCardView({ ...canceledStatus, status: 'ACTIVE' }).summary).toBe('Your Premium ends on 02/01/2027. Maya Checkout does not renew by itself.');
    expect(subscriptionCardView(paidAheadStatus).summary).toBe('Premium · paid through 02/15/2027');
    expect(subscriptionCardView(renewalDueStatus).summary).toBeNull(); // the Time to renew notice says it
    expect(subscriptionCardView(pastDueStatus).summary).toBe('Premium · payment of ₱99 overdue');
    expect(subscriptionCardView(freeStatus).summary).toBeNull();
    // The card's masked number as the summary writes it.
    expect(subscriptionCardView(premiumStatus).paymentMethod).toBe('Visa •••• 1381');
    expect(subscriptionCardView(voucherStatus).paymentMethod).toBeNull(); // the Voucher fact says the code
  });

  it('PAST_DUE: the amount owed instead of a Next Billing Date in the past (review finding 8)', () => {
    const card = subscriptionCardView(pastDueStatus);
    expect(card.amountDue).toBe('₱99');
    expect([card.dateLabel, card.date]).toEqual([null, null]);
    expect(subscriptionCardView(premiumStatus).amountDue).toBeNull();
  });

  it('paid early (product.md#renew-early): the running period\'s start, the paid one as the next period, the end as Next Billing Date', () => {
    const card = subscriptionCardView(paidAheadStatus);
    expect(card.startDate).toBe('12/15/2026 8:00 am');
    expect(card.nextPeriod).toBe('01/15/2027 8:00 am');
    expect([card.dateLabel, card.date]).toEqual(['Next Billing Date', '02/15/2027 8:00 am']);
    expect(card.status).toBe('Active');
  });

  it('offers only the links the server takes (product.md#subscription-actions)', () => {
    const links = (status: typeof premiumStatus) => subscriptionCardView(status).links;
    expect(links(premiumStatus)).toEqual({ changePlan: true, changePaymentMethod: true, redeemVoucher: true });
    expect(links(pastDueStatus)).toEqual({ changePlan: true, changePaymentMethod: true, redeemVoucher: true });
    expect(links(voucherStatus)).toEqual({ changePlan: false, changePaymentMethod: false, redeemVoucher: true });
    expect(links(canceledVoucherStatus)).toEqual({ changePlan: false, changePaymentMethod: false, redeemVoucher: false });
    // A voucher would replace a checkout or canceled plan rather than add to it: no link there.
    expect(links(canceledStatus)).toEqual({ changePlan: true, changePaymentMethod: true, redeemVoucher: false });
    expect(links(renewalDueStatus).redeemVoucher).toBe(false);
    expect(links(freeStatus).redeemVoucher).toBe(true);
  });

  it('the reactivate dialog is told how the subscription goes on (review finding 10)', () => {
    expect(subscriptionCardView(canceledStatus).change?.open).toMatchObject({ change: 'reactivate', continuation: 'byHand' });
    expect(subscriptionCardView(canceledCardStatus).change?.open).toMatchObject({ change: 'reactivate', continuation: 'automatic' });
    expect(subscriptionCardView(canceledVoucherStatus).change?.open).toMatchObject({ change: 'reactivate', continuation: 'none' });
  });

  it('Free: Premium\'s price and benefits; after Premium ended unpaid, when and why (product.md#ended-unpaid)', () => {
    expect(subscriptionCardView(freeStatus).premiumPitch).toBe('The monthly plan is ₱99. The yearly plan is ₱990, saving ₱198 — the equal of 2 free months — with one payment a year, renewed automatically. Premium: every Bisaya film and series, new releases every week.');
    expect(subscriptionCardView(freeStatus).ended).toBeNull();
    expect(subscriptionCardView(freeEndedStatus).ended).toBe('Your Premium ended on 12/22/2026 because the renewal payment failed.');
  });
});

describe('historyRow', () => {
  it('a period renewed early says so beside its UPCOMING next period, not \'Does not renew\' (walk finding 9)', () => {
    const running = { ...historyFixture[0]!, autoRenew: false };
    const upcoming = { ...historyFixture[0]!, id: 'h-next', status: 'UPCOMING', startDate: running.endDate!, endDate: '2027-02-15T00:00:00.000Z', autoRenew: false };
    expect(historyRow(running, [upcoming, running]).autoRenew).toBe('Renewed: the next period is paid');
    expect(historyRow(running, [running]).autoRenew).toBe('Does not renew');
    expect(historyRow(historyFixture[0]!).autoRenew).toBe('Renews automatically');
  });
});

describe('renewalNotice (product.md#dunning, product.md#checkout-renewal)', () => {
  it('PAST_DUE: Change Payment Method first, then Renew now for this subscription', () => {
    expect(renewalNotice(pastDueStatus)?.actions).toEqual([{ kind: 'changePaymentMethod' }, { kind: 'renew', subscriptionId: 'sub-past-due' }]);
    expect(renewalNotice(pastDueStatus)?.lines.at(-1)).toBe("Or press Renew now to pay the overdue period now with your payment method, after adding funds for example.");
  });
  it('PAST_DUE because the bank asks to confirm every payment (product.md#pay-now): Confirm with your bank first, then Change Payment Method', () => {
    const confirmStatus = { ...pastDueStatus, renewal: { ...(pastDueStatus.renewal as object), failure: 'Your bank asked to confirm the payment' } } as typeof pastDueStatus;
    const notice = renewalNotice(confirmStatus)!;
    expect(notice.actions).toEqual([{ kind: 'renew', subscriptionId: 'sub-past-due', label: 'Confirm with your bank' }, { kind: 'changePaymentMethod' }]);
    expect(notice.lines[0]).toBe('Your bank asked to confirm the payment.');
    expect(notice.lines.at(-1)).toBe("Your bank asks you to confirm each payment: press Confirm with your bank and confirm it on your bank's page.");
  });
  it('a checkout reminder: Renew now alone', () => {
    expect(renewalNotice(renewalDueStatus)?.actions).toEqual([{ kind: 'renew', subscriptionId: 'sub-checkout' }]);
  });
});

describe('historyItems (spec §2 tabs, product.md#history-active)', () => {
  it('Active keeps the PREMIUM items in force: ACTIVE, PAST_DUE, CANCELED to its end, UPCOMING; never EXPIRED or FREE', () => {
    expect(historyItems(historyFixture, 'active').map((i) => i.id)).toEqual(['h-1']);
    expect(historyItems(historyFixture, 'all')).toHaveLength(historyFixture.length);
    const premium = historyFixture[0]!;
    const items = ['PAST_DUE', 'CANCELED', 'UPCOMING', 'EXPIRED', 'PENDING'].map((status) => ({ ...premium, id: status, status }));
    expect(historyItems(items, 'active').map((i) => i.id)).toEqual(['PAST_DUE', 'CANCELED', 'UPCOMING']);
    expect(statusLabel('UPCOMING')).toBe('Upcoming');
  });
});

describe('in Bisaya (issue 20)', () => {
  beforeAll(() => overwriteGetLocale(() => 'ceb'));
  afterAll(() => overwriteGetLocale(() => 'en'));

  it('names the month in dates, through Intl in Asia/Manila (the time keeps its AM/PM on its line)', () => {
    expect(formatDate('2026-11-24T03:00:00Z')).toBe('Nobyembre 24, 2026');
    expect(formatDate('2026-12-31T20:00:00Z')).toBe('Enero 1, 2027');
    expect(formatDateTime('2026-11-21T11:05:00Z')).toBe('Nob 21, 2026, 7:05\u00a0PM');
    expect(formatDateTime('not a date')).toBe('');
  });
  it("names the months itself where the browser's Intl has no Bisaya (Chromium's ICU), as Node's ICU does", async () => {
    const instants = Array.from({ length: 12 }, (_, month) => new Date(Date.UTC(2027, month, 9, 13, 7)));
    const byIcu = instants.map((instant) => [formatDate(instant), formatDateTime(instant)]);
    expect(byIcu[4]).toEqual(['Mayo 9, 2027', 'May 9, 2027, 9:07\u00a0PM']);
    vi.resetModules();
    const unknown = vi.spyOn(Intl.DateTimeFormat, 'supportedLocalesOf').mockReturnValue([]);
    try {
      const withoutBisaya = await import('../../src/lib/dates');
      expect(instants.map((instant) => [withoutBisaya.formatDate(instant, undefined, 'ceb'), withoutBisaya.formatDateTime(instant, undefined, 'ceb')]))
        .toEqual(byIcu);
      expect(unknown).toHaveBeenCalledWith('ceb-PH');
      expect(withoutBisaya.formatDate('2027-05-09T00:00:00Z', undefined, 'ceb')).toBe('Mayo 9, 2027');
    } finally {
      unknown.mockRestore();
    }
  });
  it("says why a renewal failed in Bisaya: the server's reasons are catalog messages; a gateway's own words inside a Bisaya sentence that says what to do", () => {
    expect(renewalNotice(pastDueStatus)!.lines[0]).toBe('Gibalibaran ang imong bayad.');
    const pastDue = pastDueStatus.renewal as Extract<NonNullable<typeof pastDueStatus.renewal>, { state: 'PAST_DUE' }>;
    const failing = (failure: string) => renewalNotice({ ...pastDueStatus, renewal: { ...pastDue, failure } })!.lines[0];
    expect(failing('Your bank asked to confirm the payment')).toBe('Gihangyo sa imong bangko nga kumpirmahon ang bayad.');
    expect(failing('Card not found')).toBe('Wala makit-i ang card.');
    expect(failing('Your Maya wallet is no longer linked')).toBe('Wala na na-link ang imong Maya wallet.');
    expect(failing('Insufficient balance (PY0042)')).toBe(
      'Wala gidawat sa Maya ang imong bayad. Palihug sulayi ang laing card o paagi sa pagbayad. Rason sa Maya: Insufficient balance (PY0042).',
    );
    expect(failing('Insufficient balance.')).toMatch(/Rason sa Maya: Insufficient balance\.$/);
  });
  it('keeps English when asked for it, whatever the language in use (the server writes the viewer\'s)', () => {
    expect(formatDateTime('2026-11-21T11:05:00Z', undefined, 'en')).toBe('11/21/2026 7:05 pm');
    expect(formatBillingPeriod(1, 'month', 'en')).toBe('monthly');
  });
  it('says billing periods in words', () => {
    expect(formatBillingPeriod(1, 'month')).toBe('kada bulan');
    expect(formatBillingPeriod('1', 'year')).toBe('kada tuig');
    expect(formatBillingPeriod(3, 'day')).toBe('kada 3 ka adlaw');
    expect(formatBillingPeriod(30, 'voucher')).toBe('voucher');
  });
  it('names statuses and keeps unknown ones raw', () => {
    expect(statusLabel('ACTIVE')).toBe('Aktibo');
    expect(statusLabel('PAST_DUE')).toBe('Atrasado');
    expect(statusLabel('SOMETHING_NEW')).toBe('SOMETHING_NEW');
    expect(paymentStatusLabel('PAYMENT_SUCCESS')).toBe('Malampuson');
    expect(paymentStatusLabel('PAYMENT_FAILED')).toBe('Napakyas');
  });
  it('writes the subscription card in Bisaya', () => {
    const card = subscriptionCardView(premiumStatus);
    expect(card.price).toBe('₱99 kada bulan');
    expect(card.dateLabel).toBe('Sunod nga Petsa sa Bayad');
    expect(card.date).toBe('Ene 15, 2027, 8:00\u00a0AM');
    expect(card.summary).toBe('Premium · mo-renew sa Enero 15, 2027, ₱99 gikan sa Visa •••• 1381');
    expect(subscriptionCardView(canceledStatus).summary).toBe('Premium hangtod Pebrero 1, 2027; dili na kini mo-renew');
    expect(subscriptionCardView(canceledStatus).dateLabel).toBe('Petsa sa Pagtapos');
    expect(subscriptionCardView(voucherStatus).voucher).toBe('SUGBO365 · 365 ka adlaw');
  });
  it('offers Renew now on a failed renewal in Bisaya', () => {
    expect(renewalNotice(pastDueStatus)?.lines.at(-1))
      .toBe('O pinduta ang "I-renew karon" aron bayran karon ang atrasado nga period gamit ang imong paagi sa pagbayad, pananglitan human nimo dugangi ang pondo.');
    expect(m.renew_now()).toBe('I-renew karon');
  });
  it('says in Bisaya what canceling a PAST_DUE subscription does', () => {
    const dialog = createActor(cancelSubscriptionMachine).start();
    dialog.send(subscriptionCardView(pastDueStatus).change!.open);
    expect(connectCancelSubscription(dialog.getSnapshot(), dialog.send).body).toEqual([
      'Hunongon namo ang pagsulay sa pagsingil sa imong atrasado nga bayad.',
      'Magpabilin ang imong PREMIUM access hangtod Dis 22, 2026, 8:00\u00a0AM (oras sa Pilipinas). Human niana, mobalik sa Libre ang imong plan.',
      'Dili ma-refund ang bayad sa subscription.',
    ]);
    dialog.stop();
  });
  it('writes history rows and a receipt in Bisaya', () => {
    expect(historyRow(historyFixture[0]!).autoRenew).toBe('Kusang mo-renew');
    const paid: Receipt = {
      id: 'r-1', merchant: 'Sine Bisaya', merchantUrl: 'https://sinebisaya.example', customerName: 'Nena Cabahug',
      customerEmail: 'nena@example.com', planName: 'Monthly', periodStart: '2026-11-15T00:00:00.000Z', periodEnd: '2026-12-15T00:00:00.000Z',
      paymentMethod: 'MAYA_VAULT', referenceId: 'SB-1', paidAt: '2026-11-15T00:00:00.000Z', amount: '99.00', currency: 'PHP',
    };
    const receipt = receiptView(paid);
    expect(receipt.rows[0]).toEqual({ label: 'Gisingil kang', value: 'Nena Cabahug (nena@example.com)' });
    expect(receipt.rows.find((row) => row.label === m.period())?.value).toBe('Nobyembre 15, 2026 hangtod Disyembre 15, 2026');
    expect(receipt.rows.find((row) => row.label === 'Petsa sa pagbayad')?.value).toBe('Nob 15, 2026, 8:00\u00a0AM');
    expect(receipt.rows.at(-1)).toEqual({ label: m.status(), value: 'Bayad na' });
    expect(receipt.total).toBe('₱99');
  });
});
