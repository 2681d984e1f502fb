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
 * 'Nobyembre 21, 2026' (also where the browser's Intl has no Bisaya); English keeps the numeric form above.
 */
import { currentLocale, intlLocale, type Locale } from '../i18n';
import { DISPLAY_TIME_ZONE } from './product';

type Value = string | number | Date;

const DAY = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;
const TIME = { hour: 'numeric', minute: '2-digit', hour12: true } as const;
/** Bisaya names the month: short beside a time (tables), long alone (receipts, emails). */
const NAMED_DAY = { year: 'numeric', month: 'long', day: 'numeric' } as const;
const NAMED_DAY_SHORT = { year: 'numeric', month: 'short', day: 'numeric' } as const;

/**
 * Bisaya's months as CLDR writes them (short: the first three letters), for an Intl that has no Bisaya:
 * Chromium's ICU has none ('ceb' falls back to English), Node's has. Bisaya orders a date as US English
 * does ('Nob 24, 2026, 7:05 PM', 'Nobyembre 24, 2026'), so English parts with the month renamed read the same.
 */
const BISAYA_MONTHS = 'Enero Pebrero Marso Abril Mayo Hunyo Hulyo Agosto Septiyembre Oktubre Nobyembre Disyembre'.split(' ');
const ENGLISH_MONTHS = 'JanFebMarAprMayJunJulAugSepOctNovDec';

type Writer = (date: Date) => string;
const writers = new Map<string, Writer>();
/** One formatter per language, zone and shape, made on first use. */
function writer(timeZone: string, withTime: boolean, locale: Locale): Writer {
  const key = `${locale}|${timeZone}|${withTime}`;
  let made = writers.get(key);
  if (!made) {
    if (locale === 'en') {
      const format = new Intl.DateTimeFormat('en-US', { ...(withTime ? { ...DAY, ...TIME } : DAY), timeZone });
      made = (date) => format.format(date);
    } else {
      const tag = intlLocale(locale);
      const known = Intl.DateTimeFormat.supportedLocalesOf(tag).length > 0;
      const format = new Intl.DateTimeFormat(known ? tag : 'en-US', { ...(withTime ? { ...NAMED_DAY_SHORT, ...TIME } : NAMED_DAY), timeZone });
      made = known ? (date) => format.format(date) : (date) => format.formatToParts(date).map(({ type, value }) => {
        if (type !== 'month') return value;
        const name = BISAYA_MONTHS[ENGLISH_MONTHS.indexOf(value.slice(0, 3)) / 3] ?? value;
        return withTime ? name.slice(0, 3) : name;
      }).join('');
    }
    writers.set(key, made);
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
  const text = writer(timeZone, true, locale)(date);
  // Bisaya: the time stays on one line with its AM/PM (a no-break space, whatever space this ICU puts there).
  if (locale !== 'en') return text.replace(/[\s\u202f]([AP]M)$/, '\u00a0$1');
  // 'MM/dd/yyyy, h:mm AM' (some ICU versions put a narrow no-break space before AM/PM).
  return text.replace(/,\s/, ' ').replace(/[\s\u202f]([AP]M)$/, (_, period: string) => ` ${period.toLowerCase()}`);
}

/** A date; in the language in use, or in `locale` when given. */
export function formatDate(value: Value, timeZone = DISPLAY_TIME_ZONE, locale: Locale = currentLocale()): string {
  const date = valid(value);
  return date ? writer(timeZone, false, locale)(date) : '';
}
