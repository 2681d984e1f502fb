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
 * In Bisaya (issue 20) the month is named, as Intl writes it for 'ceb-PH': 'Nob 21, 2026, 7:05 PM' and
 * 'Nobyembre 21, 2026'; English keeps the numeric form above, letter for letter.
 */
import { currentLocale, intlLocale, type Locale } from '../i18n';
import { DISPLAY_TIME_ZONE } from './product';

type Value = string | number | Date;

const DAY = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;
const TIME = { hour: 'numeric', minute: '2-digit', hour12: true } as const;
/** Bisaya names the month: short beside a time (tables), long alone (receipts, emails). */
const NAMED_DAY = { year: 'numeric', month: 'long', day: 'numeric' } as const;
const NAMED_DAY_SHORT = { year: 'numeric', month: 'short', day: 'numeric' } as const;
const formatters = new Map<string, Intl.DateTimeFormat>();
/** One formatter per language, zone and shape, made on first use. */
function formatter(timeZone: string, withTime: boolean, locale: Locale): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}|${withTime}`;
  let made = formatters.get(key);
  if (!made) {
    const options = locale === 'en'
      ? (withTime ? { ...DAY, ...TIME } : DAY)
      : (withTime ? { ...NAMED_DAY_SHORT, ...TIME } : NAMED_DAY);
    made = new Intl.DateTimeFormat(locale === 'en' ? 'en-US' : intlLocale(locale), { ...options, timeZone });
    formatters.set(key, made);
  }
  return made;
}

function valid(value: Value): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A date and time; in the language in use, or in `locale` when given (the server writes in the viewer's). */
export function formatDateTime(value: Value, timeZone = DISPLAY_TIME_ZONE, locale: Locale = currentLocale()): string {
  const date = valid(value);
  if (!date) return '';
  const text = formatter(timeZone, true, locale).format(date);
  if (locale !== 'en') return text.replace(/\u202f/g, ' ');
  // 'MM/dd/yyyy, h:mm AM' (some ICU versions put a narrow no-break space before AM/PM).
  return text.replace(/,\s/, ' ').replace(/[\s\u202f]([AP]M)$/, (_, period: string) => ` ${period.toLowerCase()}`);
}

/** A date; in the language in use, or in `locale` when given. */
export function formatDate(value: Value, timeZone = DISPLAY_TIME_ZONE, locale: Locale = currentLocale()): string {
  const date = valid(value);
  return date ? formatter(timeZone, false, locale).format(date) : '';
}
