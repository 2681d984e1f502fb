/**
 * Dates are shown in Asia/Manila as month/day/year with a 12-hour clock (spec §9): '11/21/2026 7:05 pm'.
 * The platform's Intl.DateTimeFormat does the time-zone work (date-fns-tz's formatInTimeZone used it
 * underneath; calling it directly keeps 9 KB gzipped of date-fns out of every subscription route,
 * issue 10). test/lib/dates.property.test.ts holds the output equal to date-fns-tz's
 * 'MM/dd/yyyy h:mm aaa' for any instant and zone.
 */
import { DISPLAY_TIME_ZONE } from './product';

const formats = new Map<string, Intl.DateTimeFormat>();

function partsOf(date: Date, timeZone: string): Record<string, string> {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: 'numeric', minute: '2-digit', hourCycle: 'h12',
    });
    formats.set(timeZone, format);
  }
  return Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
}

function toDate(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const day = (p: Record<string, string>) => `${p.month}/${p.day}/${p.year!.padStart(4, '0')}`;

export function formatDateTime(value: string | number | Date, timeZone = DISPLAY_TIME_ZONE): string {
  const date = toDate(value);
  if (!date) return '';
  const p = partsOf(date, timeZone);
  return `${day(p)} ${p.hour}:${p.minute} ${p.dayPeriod!.toLowerCase()}`;
}

export function formatDate(value: string | number | Date, timeZone = DISPLAY_TIME_ZONE): string {
  const date = toDate(value);
  return date ? day(partsOf(date, timeZone)) : '';
}
