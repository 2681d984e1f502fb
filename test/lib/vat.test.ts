/**
 * VAT on VAT-inclusive prices (issue 34, product.md#invoices): VAT = total × 12/112 rounded half-up to
 * the centavo, VATable sales = total − VAT, computed in whole centavos. Every plan price of the catalog,
 * a table of edge amounts, and the invariant vatable + vat = total over every amount up to ₱100.
 */
import { describe, expect, it } from 'vitest';
import { SEED_PLANS } from '../../server/billing/catalog';
import { formatInvoiceAmount, fromCentavos, splitVat, toCentavos, vatOfCentavos } from '../../src/lib/vat';

describe('VAT in a VAT-inclusive total', () => {
  it('splits the two plan prices as decided: ₱99.00 = 88.39 + 10.61, ₱990.00 = 883.93 + 106.07', () => {
    expect(splitVat('99.00')).toEqual({ vatable: '88.39', vat: '10.61', total: '99.00' });
    expect(splitVat('990.00')).toEqual({ vatable: '883.93', vat: '106.07', total: '990.00' });
  });

  it('splits every price of the catalog so that it adds up', () => {
    const priced = SEED_PLANS.filter((plan) => Number(plan.price) > 0);
    expect(priced.length).toBeGreaterThan(0);
    for (const plan of priced) {
      const { vatable, vat, total } = splitVat(plan.price);
      expect(toCentavos(vatable) + toCentavos(vat), plan.name).toBe(toCentavos(plan.price));
      expect(total, plan.name).toBe(fromCentavos(toCentavos(plan.price)));
    }
  });

  it.each([
    // total, VATable sales, VAT (12/112 of the total, half-up)
    ['0.00', '0.00', '0.00'],
    ['0.01', '0.01', '0.00'], // 0.107 centavo
    ['0.04', '0.04', '0.00'], // 0.43 centavo
    ['0.05', '0.04', '0.01'], // 0.536 centavo
    ['0.13', '0.12', '0.01'], // 1.393 centavos
    ['0.14', '0.12', '0.02'], // exactly 1.5 centavos: half goes up
    ['1.00', '0.89', '0.11'],
    ['11.20', '10.00', '1.20'], // exact
    ['112.00', '100.00', '12.00'], // exact
    ['99.99', '89.28', '10.71'],
    ['100.00', '89.29', '10.71'],
    ['9999.99', '8928.56', '1071.43'],
    ['1000000.00', '892857.14', '107142.86'],
  ])('₱%s = %s + %s', (total, vatable, vat) => {
    expect(splitVat(total)).toEqual({ vatable, vat, total });
  });

  it('holds vatable + vat = total, and VAT within half a centavo of 12/112, for every amount to ₱100', () => {
    for (let cents = 0; cents <= 10_000; cents++) {
      const vat = vatOfCentavos(cents);
      const exact = (cents * 12) / 112;
      expect(Math.abs(vat - exact) <= 0.5, `${cents}`).toBe(true);
      // half-up: exactly half a centavo rounds up
      if (Math.abs(vat - exact) === 0.5) expect(vat > exact, `${cents}`).toBe(true);
      const split = splitVat(fromCentavos(cents));
      expect(toCentavos(split.vatable) + toCentavos(split.vat)).toBe(cents);
    }
  });

  it('reads money strings exactly and refuses what is not an amount', () => {
    expect(toCentavos('99')).toBe(9900);
    expect(toCentavos('99.5')).toBe(9950);
    expect(toCentavos('0.07')).toBe(7);
    for (const bad of ['', '-1.00', '1.005', 'abc', '1,000.00']) expect(() => toCentavos(bad), bad).toThrow();
  });

  it('writes invoice amounts to the centavo with the peso sign', () => {
    expect(formatInvoiceAmount('88.39')).toBe('₱88.39');
    expect(formatInvoiceAmount('990')).toBe('₱990.00');
    expect(formatInvoiceAmount('9999.99')).toBe('₱9,999.99');
    expect(formatInvoiceAmount('-106.07')).toBe('-₱106.07');
  });
});
