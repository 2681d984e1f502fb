/** Money and billing-period wording (product.md#constants), in the language in use (issue 20). */
import type { BillingCycle } from '../api/schemas';
import { m, type Locale } from '../i18n';

const CURRENCY_SYMBOLS: Record<string, string> = { PHP: '₱' };
export const DEFAULT_CURRENCY = 'PHP';

/** PHP maps to the peso sign; an unknown code is shown as it is. */
export function currencySymbol(code: string | null | undefined = DEFAULT_CURRENCY): string {
  const key = (code ?? DEFAULT_CURRENCY).trim().toUpperCase() || DEFAULT_CURRENCY;
  return CURRENCY_SYMBOLS[key] ?? key;
}

// Message functions, called when a period is written (never at module load: the language can change).
type Options = { locale?: Locale };
type Unit = Exclude<BillingCycle, 'voucher'>;
const SINGLE_PERIOD: Record<Unit, (inputs: Record<string, never>, options?: Options) => string> = {
  month: m.monthly, year: m.yearly, week: m.week, day: m.day_2, hour: m.hour, minute: m.minute,
};
const PERIODS: Record<Unit, (inputs: { amount: number | string }, options?: Options) => string> = {
  month: m.months, year: m.years, week: m.weeks, day: m.days_2, hour: m.hours, minute: m.minutes,
};

/**
 * 1 month reads 'monthly', 1 year 'yearly', 1 of another unit the bare unit ('day');
 * other amounts are pluralised ('3 days'); a voucher period reads 'voucher'.
 * In the language in use, or in `locale` when given (the server writes in the viewer's): 'kada bulan', 'kada 3 ka adlaw'.
 */
export function formatBillingPeriod(amount: number | string, unit: BillingCycle, locale?: Locale): string {
  if (unit === 'voucher') return m.voucher_2({}, { locale });
  return Number(amount) === 1 ? SINGLE_PERIOD[unit]({}, { locale }) : PERIODS[unit]({ amount }, { locale });
}

/** The last two digits of a number as a two-digit string, or '' for 00 (product.md#price-suffix). */
export function priceSuffix(value: number): string {
  const lastTwo = Math.abs(Math.trunc(value)) % 100;
  return lastTwo === 0 ? '' : String(lastTwo).padStart(2, '0');
}

/** Joins a whole part and its suffix with a slash; a missing suffix leaves the whole part alone. */
export function joinPriceSuffix(whole: string | number, suffix: string): string {
  return suffix ? `${whole}/${suffix}` : String(whole);
}

/**
 * A price with its currency symbol and product.md#price-suffix: '99.00' reads '₱99', '99.50' reads '₱99/50'.
 * An amount that is not a number is shown as sent.
 */
export function formatPrice(amount: string, currency: string | null | undefined): string {
  const value = Number(amount);
  if (!amount.trim() || !Number.isFinite(value)) return `${currencySymbol(currency)}${amount}`;
  const cents = Math.round(value * 100);
  return `${currencySymbol(currency)}${joinPriceSuffix(Math.trunc(cents / 100), priceSuffix(cents))}`;
}
