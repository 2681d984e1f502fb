/** src/lib/dates.ts (date-fns's intlFormat) must say what date-fns-tz's formatInTimeZone says, except where that one is wrong (product.md#dates). */
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

  it("stays right where date-fns-tz is not: a Manila time that the viewer's own zone skips (daylight saving)", async () => {
    // 2:30 am in Manila on 03/08/2026 is an hour New York skips; date-fns-tz moves the instant into the
    // runner's zone, so under TZ=America/New_York it says 3:30 am. Checked in a child process with that zone.
    const { execFileSync } = await import('node:child_process');
    const { resolve } = await import('node:path');
    const script = `
      import { formatDateTime } from ${JSON.stringify(resolve('src/lib/dates.ts'))};
      console.log(formatDateTime('2026-03-07T18:30:00Z'));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, TZ: 'America/New_York' }, encoding: 'utf8',
    });
    expect(out.trim()).toBe('03/08/2026 2:30 am');
  });
});
