/** Property tests for card entry (product.md#card-rules): grouping, brand detection, expiry, CVC. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CARD_MESSAGES, CARD_REQUIRED, cardBrand, luhn, cardErrors, digitsOf, expiryError, formatCardNumber, formatCvc, formatExpiry, manilaMonthIndex, newCardRequest,
} from '../../src/lib/card';
import { maskSecrets } from '../../src/lib/mask';

const digit = fc.constantFrom(...'0123456789'.split(''));
const digits = (min: number, max: number) => fc.array(digit, { minLength: min, maxLength: max }).map((a) => a.join(''));
const noise = fc.constantFrom(' ', '-', 'a', '/', '.');
/** Typed text: digits with anything else between them. */
const typed = fc.array(fc.oneof(digit, noise), { maxLength: 40 }).map((a) => a.join(''));

describe('card number grouping', () => {
  it('keeps the first 16 digits, in groups of four, at most 19 characters', () => {
    fc.assert(fc.property(typed, (text) => {
      const formatted = formatCardNumber(text);
      expect(formatted.length).toBeLessThanOrEqual(19);
      expect(digitsOf(formatted)).toBe(digitsOf(text).slice(0, 16));
      expect(formatted).toMatch(/^(\d{4} )*\d{0,4}$/);
      expect(formatted.endsWith(' ')).toBe(false);
    }));
  });
  it('is idempotent (formatting a formatted number changes nothing)', () => {
    fc.assert(fc.property(typed, (text) => {
      expect(formatCardNumber(formatCardNumber(text))).toBe(formatCardNumber(text));
    }));
  });
});

describe('brand detection', () => {
  it('Visa is every number starting with 4', () => {
    fc.assert(fc.property(digits(0, 15), (rest) => {
      expect(cardBrand(`4${rest}`)).toBe('visa');
    }));
  });
  it('Mastercard is every number starting with 51 to 55', () => {
    fc.assert(fc.property(fc.integer({ min: 51, max: 55 }), digits(0, 14), (prefix, rest) => {
      expect(cardBrand(`${prefix}${rest}`)).toBe('mastercard');
    }));
  });
  it('JCB is every number starting with 3528 to 3589', () => {
    fc.assert(fc.property(fc.integer({ min: 3528, max: 3589 }), digits(0, 12), (prefix, rest) => {
      expect(cardBrand(`${prefix}${rest}`)).toBe('jcb');
    }));
  });
  it('any other 16-digit number has no brand and reads "This card type is not supported"', () => {
    const other = digits(16, 16).filter((n) => {
      const two = Number(n.slice(0, 2));
      const four = Number(n.slice(0, 4));
      // A valid number (Luhn) of another network: a mistyped one reads 'Invalid card number' first.
      return !n.startsWith('4') && !(two >= 51 && two <= 55) && !(four >= 3528 && four <= 3589) && luhn(n);
    });
    fc.assert(fc.property(other, (number) => {
      expect(cardBrand(number)).toBeNull();
      expect(cardErrors({ number, expiry: '12/99', cvc: '123' }, new Date('2026-11-21T00:00:00Z')).fields.number).toBe(CARD_MESSAGES.unsupported());
    }));
  });
  it('the edges: 50, 56, 3527 and 3590 are not brands', () => {
    for (const number of ['5000000000000000', '5600000000000000', '3527000000000000', '3590000000000000']) expect(cardBrand(number)).toBeNull();
  });
});

describe('expiry MM/YY', () => {
  const now = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2090-12-31T00:00:00Z'), noInvalidDate: true });
  it('a month outside 1 to 12 is "Invalid month"', () => {
    fc.assert(fc.property(fc.oneof(fc.constant(0), fc.integer({ min: 13, max: 99 })), fc.integer({ min: 0, max: 99 }), now, (month, year, at) => {
      const text = `${String(month).padStart(2, '0')}/${String(year).padStart(2, '0')}`;
      expect(expiryError(text, at)).toBe(CARD_MESSAGES.invalidMonth());
    }));
  });
  it('a valid month is expired exactly when it is before the current month in Asia/Manila', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 99 }), now, (month, year, at) => {
      const text = `${String(month).padStart(2, '0')}/${String(year).padStart(2, '0')}`;
      const expired = (2000 + year) * 12 + month < manilaMonthIndex(at);
      expect(expiryError(text, at)).toBe(expired ? CARD_MESSAGES.expired() : null);
    }));
  });
  it('the current Manila month is still valid, the one before is expired (Manila is UTC+8)', () => {
    // 2026-11-30 17:00 UTC is already 1 December in Manila.
    const at = new Date('2026-11-30T17:00:00Z');
    expect(expiryError('12/26', at)).toBeNull();
    expect(expiryError('11/26', at)).toBe(CARD_MESSAGES.expired());
  });
  it('typing builds MM/YY from the digits', () => {
    fc.assert(fc.property(typed, (text) => {
      const formatted = formatExpiry(text);
      const d = digitsOf(text).slice(0, 4);
      expect(formatted.replace('/', '')).toBe(d);
      expect(formatted).toMatch(/^\d{0,2}(\/\d{1,2})?$/);
    }));
  });
});

describe('CVC and the request', () => {
  it('keeps at most 3 digits', () => {
    fc.assert(fc.property(typed, (text) => {
      expect(formatCvc(text)).toBe(digitsOf(text).slice(0, 3));
    }));
  });
  it('an empty field reads "Please fill in all the fields"', () => {
    fc.assert(fc.property(fc.constantFrom('number', 'expiry', 'cvc'), (empty) => {
      const card = { number: '4123 4501 3100 1381', expiry: '12/30', cvc: '123', [empty]: '' };
      const { form, fields } = cardErrors(card, new Date('2026-11-21T00:00:00Z'));
      expect(form).toBe(CARD_MESSAGES.fillAll());
      // The empty field alone is marked, with what to enter.
      expect(fields).toEqual({ [empty]: CARD_REQUIRED[empty]() });
    }));
  });
  it('a 16-digit number that fails the Luhn check reads "Invalid card number", as the server says', () => {
    fc.assert(fc.property(fc.stringMatching(/^4\d{15}$/), (number) => {
      const { fields } = cardErrors({ number, expiry: '12/30', cvc: '123' }, new Date('2026-11-21T00:00:00Z'));
      if (luhn(number)) expect(fields.number).toBeUndefined();
      else expect(fields.number).toBe(CARD_MESSAGES.invalidNumber());
    }));
    expect(cardErrors({ number: '4111 1111 1111 1112', expiry: '12/30', cvc: '123' }, new Date('2026-11-21T00:00:00Z')).fields.number).toBe(CARD_MESSAGES.invalidNumber());
  });
  it('the request has a 2-character month and a 4-character year (spec §5 schema)', () => {
    expect(newCardRequest({ number: '4123 4501 3100 1381', expiry: '07/31', cvc: '123' }, false))
      .toEqual({ number: '4123450131001381', expMonth: '07', expYear: '2031', cvc: '123', isDefault: false });
  });
});

describe('card data in the inspector', () => {
  it('the typed number and CVC are masked in the entry events and in the save call', () => {
    fc.assert(fc.property(digits(16, 16), digits(3, 3), (number, cvc) => {
      const event = { type: 'card.submit', card: { number: formatCardNumber(number), expiry: '12/39', cvc }, isDefault: true };
      const context = { card: newCardRequest(event.card, true) };
      const shown = JSON.stringify([maskSecrets(event), maskSecrets(context)]);
      expect(shown).not.toContain(number);
      expect(shown).not.toContain(formatCardNumber(number));
      expect(shown).not.toContain(`"${cvc}"`);
    }));
  });
});
