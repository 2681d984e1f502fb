/** Dates are shown in Asia/Manila as month/day/year with a 12-hour clock (spec §9). */
import { formatInTimeZone } from 'date-fns-tz';
import { DISPLAY_TIME_ZONE } from './product';

export function formatDateTime(value: string | number | Date, timeZone = DISPLAY_TIME_ZONE): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return formatInTimeZone(date, timeZone, 'MM/dd/yyyy h:mm aaa');
}

export function formatDate(value: string | number | Date, timeZone = DISPLAY_TIME_ZONE): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return formatInTimeZone(date, timeZone, 'MM/dd/yyyy');
}
