/** Property tests: the code and birthdate validators accept exactly what the spec allows (product.md#validation). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { birthdateField, isCalendarDate, otpField } from '../../src/api/schemas';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'.split('');
const TODAY = '2026-11-21';
const birthdate = birthdateField(() => TODAY);

describe('one-time code: exactly 6 letters or digits', () => {
  it('accepts every 6-character string of letters and digits', () => {
    fc.assert(fc.property(fc.array(fc.constantFrom(...ALNUM), { minLength: 6, maxLength: 6 }), (chars) => {
      expect(otpField.safeParse(chars.join('')).success).toBe(true);
    }));
  });
  it('refuses any other length', () => {
    fc.assert(fc.property(fc.array(fc.constantFrom(...ALNUM), { maxLength: 20 }).filter((a) => a.length !== 6), (chars) => {
      expect(otpField.safeParse(chars.join('')).success).toBe(false);
    }));
  });
  it('refuses any code holding a character that is not a letter or digit', () => {
    const other = fc.string({ minLength: 1, maxLength: 1 }).filter((c) => !/^[A-Za-z0-9]$/.test(c) && c.trim() === c && c !== '');
    fc.assert(fc.property(fc.array(fc.constantFrom(...ALNUM), { minLength: 5, maxLength: 5 }), other, fc.nat(5), (chars, bad, at) => {
      chars.splice(at, 0, bad);
      expect(otpField.safeParse(chars.join('')).success).toBe(false);
    }));
  });
  it("says 'OTP code is required' for an empty code", () => {
    expect(otpField.safeParse('').error?.issues[0]?.message).toBe('OTP code is required');
  });
});

describe('birthdate: a real date from 1900-01-01 to today', () => {
  const day = fc.date({ min: new Date('1800-01-01T00:00:00Z'), max: new Date('2200-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));
  it('accepts exactly the dates in range', () => {
    fc.assert(fc.property(day, (value) => {
      const allowed = value >= '1900-01-01' && value <= TODAY;
      expect(birthdate.safeParse(value).success).toBe(allowed);
    }));
  });
  it('gives the right message on each side', () => {
    expect(birthdate.safeParse('1899-12-31').error?.issues[0]?.message).toBe('Birthdate cannot be before 1900-01-01');
    expect(birthdate.safeParse('2026-11-22').error?.issues[0]?.message).toBe('Birthdate cannot be in the future');
    expect(birthdate.safeParse('').error?.issues[0]?.message).toBe('Birthdate is required');
    expect(birthdate.safeParse('1900-01-01').success).toBe(true);
    expect(birthdate.safeParse(TODAY).success).toBe(true);
  });
  it('refuses dates that do not exist', () => {
    fc.assert(fc.property(fc.integer({ min: 1900, max: 2025 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 29, max: 31 }), (y, m, d) => {
      const value = `${y}-${String(m).padStart(2, '0')}-${d}`;
      const real = new Date(Date.UTC(y, m - 1, d)).getUTCDate() === d;
      expect(isCalendarDate(value)).toBe(real);
      expect(birthdate.safeParse(value).success).toBe(real);
    }));
  });
});
