/** Money and billing-period wording (product.md#constants). */
import type { BillingCycle } from '../api/schemas';

const CURRENCY_SYMBOLS: Record<string, string> = { PHP: '₱' };
export const DEFAULT_CURRENCY = 'PHP';

/** PHP maps to the peso sign; an unknown code is shown as it is. */
export function currencySymbol(code: string | null | undefined = DEFAULT_CURRENCY): string {
  const key = (code ?? DEFAULT_CURRENCY).trim().toUpperCase() || DEFAULT_CURRENCY;
  return CURRENCY_SYMBOLS[key] ?? key;
}

const SINGLE_PERIOD: Partial<Record<BillingCycle, string>> = { month: 'monthly', year: 'yearly' };

/**
 * 1 month reads 'monthly', 1 year 'yearly', 1 of another unit the bare unit ('day');
 * other amounts are pluralised ('3 days'); a voucher period reads 'voucher'.
 */
export function formatBillingPeriod(amount: number | string, unit: BillingCycle): string {
  if (unit === 'voucher') return 'voucher';
  const count = Number(amount);
  if (count === 1) return SINGLE_PERIOD[unit] ?? unit;
  return `${amount} ${unit}s`;
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
