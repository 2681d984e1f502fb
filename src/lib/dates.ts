/**
 * Dates are shown in Asia/Manila as month/day/year with a 12-hour clock and am/pm (product.md#dates):
 * '11/21/2026 7:05 pm', written by the platform's Intl.DateTimeFormat in the display zone, with the
 * options date-fns's `intlFormat` would pass it; the formatter is made once per zone and kept (making
 * one costs more than formatting with it, and the billing engine's receipts format thousands a minute).
 * Not date-fns-tz's `formatInTimeZone`, for two reasons:
 * - it moves the instant into the viewer's own zone first, so for a viewer whose zone skips an hour
 *   (a daylight-saving gap) the hour shown is wrong ('3:30 am' for 2:30 am in Manila, seen from New York);
 * - it brings date-fns's locale-heavy `format`, about 7 KB gzipped on every subscription route (issue 10).
 * test/lib/dates.property.test.ts holds the output equal to date-fns-tz's wherever that one is right,
 * and checks the daylight-saving case against the true Manila time.
 */
import { DISPLAY_TIME_ZONE } from './product';

type Value = string | number | Date;

const DAY = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;
const formatters = new Map<string, Intl.DateTimeFormat>();
/** One formatter per zone and shape, made on first use. */
function formatter(timeZone: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${timeZone}|${withTime}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat('en-US', withTime ? { ...DAY, hour: 'numeric', minute: '2-digit', hour12: true, timeZone } : { ...DAY, timeZone });
    formatters.set(key, made);
  }
  return made;
}

function valid(value: Value): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDateTime(value: Value, timeZone = DISPLAY_TIME_ZONE): string {
  const date = valid(value);
  if (!date) return '';
  // 'MM/dd/yyyy, h:mm AM' (some ICU versions put a narrow no-break space before AM/PM).
  const text = formatter(timeZone, true).format(date);
  return text.replace(/,\s/, ' ').replace(/[\s\u202f]([AP]M)$/, (_, period: string) => ` ${period.toLowerCase()}`);
}

export function formatDate(value: Value, timeZone = DISPLAY_TIME_ZONE): string {
  const date = valid(value);
  return date ? formatter(timeZone, false).format(date) : '';
}
