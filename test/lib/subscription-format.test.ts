import { describe, expect, it } from 'vitest';
import {
  formatPrice, historyItems, paymentStatusLabel, statusLabel, subscriptionCardView,
} from '../../src/machines/subscription/subscription.format';
import { canceledStatus, freeStatus, historyFixture, premiumStatus } from '../support/subscription';

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
      type: 'dialog.open', change: 'cancel', subscriptionId: 'sub-premium', periodEnd: premiumStatus.endDate,
    });
    expect(subscriptionCardView(canceledStatus).change?.kind).toBe('reactivate');
    expect(subscriptionCardView(freeStatus).change).toBeNull();
    expect(subscriptionCardView(freeStatus).price).toBeNull();
  });
});

describe('historyItems (spec §2 tabs)', () => {
  it('Active keeps only ACTIVE and PREMIUM', () => {
    expect(historyItems(historyFixture, 'active').map((i) => i.id)).toEqual(['h-1']);
    expect(historyItems(historyFixture, 'all')).toHaveLength(historyFixture.length);
  });
});
