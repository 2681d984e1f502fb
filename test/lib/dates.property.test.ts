/** src/lib/dates.ts formats with Intl directly: it must say exactly what date-fns-tz said (spec §9). */
import { formatInTimeZone } from 'date-fns-tz';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from '../../src/lib/dates';

const zones = ['Asia/Manila', 'UTC', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'America/St_Johns'];
const instants = fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-12-31T23:59:59Z'), noInvalidDate: true });

describe('formatDateTime and formatDate', () => {
  it("equal date-fns-tz's 'MM/dd/yyyy h:mm aaa' and 'MM/dd/yyyy' for any instant and zone", () => {
    fc.assert(
      fc.property(instants, fc.constantFrom(...zones), (date, zone) => {
        expect(formatDateTime(date, zone)).toBe(formatInTimeZone(date, zone, 'MM/dd/yyyy h:mm aaa'));
        expect(formatDate(date, zone)).toBe(formatInTimeZone(date, zone, 'MM/dd/yyyy'));
      }),
      { numRuns: 500 },
    );
  });
  it('gets noon, midnight and the hour before each right', () => {
    expect(formatDateTime('2026-05-20T04:00:00Z')).toBe('05/20/2026 12:00 pm');
    expect(formatDateTime('2026-05-20T16:00:00Z')).toBe('05/21/2026 12:00 am');
    expect(formatDateTime('2026-05-20T15:59:00Z')).toBe('05/20/2026 11:59 pm');
    expect(formatDateTime('2026-05-20T03:59:00Z')).toBe('05/20/2026 11:59 am');
  });
});
