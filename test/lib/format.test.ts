import { describe, expect, it } from 'vitest';
import { currencySymbol, formatBillingPeriod, joinPriceSuffix, priceSuffix } from '../../src/lib/format';
import { formatDate, formatDateTime } from '../../src/lib/dates';

describe('formatBillingPeriod (spec §9)', () => {
  it('gives monthly and yearly for one month or year', () => {
    expect(formatBillingPeriod(1, 'month')).toBe('monthly');
    expect(formatBillingPeriod('1', 'year')).toBe('yearly');
  });
  it('gives the bare unit for one of another unit', () => {
    expect(formatBillingPeriod(1, 'day')).toBe('day');
    expect(formatBillingPeriod(1, 'week')).toBe('week');
    expect(formatBillingPeriod(1, 'hour')).toBe('hour');
    expect(formatBillingPeriod(1, 'minute')).toBe('minute');
  });
  it('pluralises other amounts', () => {
    expect(formatBillingPeriod(3, 'day')).toBe('3 days');
    expect(formatBillingPeriod(2, 'week')).toBe('2 weeks');
    expect(formatBillingPeriod(6, 'hour')).toBe('6 hours');
    expect(formatBillingPeriod(30, 'minute')).toBe('30 minutes');
    expect(formatBillingPeriod(6, 'month')).toBe('6 months');
  });
  it('reads voucher for a voucher period', () => {
    expect(formatBillingPeriod(30, 'voucher')).toBe('voucher');
  });
});

describe('priceSuffix (spec §9)', () => {
  it('keeps the last two digits as a two-digit string', () => {
    expect(priceSuffix(99)).toBe('99');
    expect(priceSuffix(105)).toBe('05');
    expect(priceSuffix(1234)).toBe('34');
  });
  it('returns nothing for 00', () => {
    expect(priceSuffix(100)).toBe('');
    expect(priceSuffix(0)).toBe('');
  });
  it('joins a whole part and the suffix with a slash', () => {
    expect(joinPriceSuffix(990, priceSuffix(1205))).toBe('990/05');
    expect(joinPriceSuffix('99', priceSuffix(200))).toBe('99');
  });
});

describe('currencySymbol', () => {
  it('maps PHP to the peso sign and defaults to PHP', () => {
    expect(currencySymbol('PHP')).toBe('₱');
    expect(currencySymbol('php')).toBe('₱');
    expect(currencySymbol()).toBe('₱');
    expect(currencySymbol(null)).toBe('₱');
  });
  it('shows an unknown code as it is', () => {
    expect(currencySymbol('USD')).toBe('USD');
  });
});

describe('dates in Asia/Manila', () => {
  it('formats month/day/year with a 12-hour clock', () => {
    expect(formatDateTime('2026-11-21T11:05:00Z')).toBe('11/21/2026 7:05 pm');
    expect(formatDateTime('2026-01-01T03:30:00Z')).toBe('01/01/2026 11:30 am');
  });
  it('crosses the date line as Manila does', () => {
    expect(formatDate('2026-12-31T20:00:00Z')).toBe('01/01/2027');
  });
  it('gives an empty string for an unreadable date', () => {
    expect(formatDateTime('not a date')).toBe('');
  });
});
