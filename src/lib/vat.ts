/**
 * VAT on our prices (issue 34, product.md#invoices). Prices are VAT-inclusive: the VAT in a total is
 * total × 12/112, rounded half-up to the centavo, and the VATable sales are the rest, so the two always
 * add up to the total. All in whole centavos (no floating point): ₱99.00 = ₱88.39 + ₱10.61,
 * ₱990.00 = ₱883.93 + ₱106.07.
 */

/** The Philippine VAT rate, as printed ('12%') and as a decimal string for the contract. */
export const VAT_RATE_PERCENT = 12;
export const VAT_RATE = '0.12';

/** '99.00', '99.5', '99' → 9900, 9950, 9900. Refuses anything else (a negative amount, more than two decimals). */
export function toCentavos(amount: string): number {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) throw new Error(`Not an amount of money: "${amount}"`);
  const centavos = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(centavos)) throw new Error(`Amount too large: "${amount}"`);
  return centavos;
}

/** 8839 → '88.39'; a negative amount keeps its sign ('-88.39'). */
export function fromCentavos(centavos: number): string {
  const sign = centavos < 0 ? '-' : '';
  const abs = Math.abs(centavos);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The VAT in a VAT-inclusive total of centavos: round-half-up(total × 12 / 112). */
export function vatOfCentavos(total: number): number {
  if (!Number.isSafeInteger(total) || total < 0) throw new Error(`Not a total in centavos: ${total}`);
  return Math.floor((total * VAT_RATE_PERCENT * 2 + (100 + VAT_RATE_PERCENT)) / ((100 + VAT_RATE_PERCENT) * 2));
}

export interface VatSplit {
  /** The VATable sales (total less VAT), e.g. '88.39'. */
  vatable: string;
  /** The VAT, e.g. '10.61'. */
  vat: string;
  /** The total as given, written with two decimals, e.g. '99.00'. */
  total: string;
}

/** A VAT-inclusive total ('99.00') split into VATable sales and VAT; vatable + vat = total to the centavo. */
export function splitVat(total: string): VatSplit {
  const cents = toCentavos(total);
  const vat = vatOfCentavos(cents);
  return { vatable: fromCentavos(cents - vat), vat: fromCentavos(vat), total: fromCentavos(cents) };
}

/**
 * An amount on an invoice or credit memo, to the centavo with a decimal point and thousands grouped:
 * '₱88.39', '₱9,999.99' (not the pages' price suffix, product.md#price-suffix: a tax document writes
 * centavos as the BIR reads them; product.md#invoices).
 */
export function formatInvoiceAmount(amount: string, currency = 'PHP'): string {
  const [whole = '0', cents = '00'] = fromCentavos(toCentavos(amount.replace(/^-/, ''))).split('.');
  const symbol = currency.toUpperCase() === 'PHP' ? '₱' : `${currency} `;
  return `${amount.trim().startsWith('-') ? '-' : ''}${symbol}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}
