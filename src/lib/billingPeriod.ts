/** Where a billing period ends (shared by the server's billing and the app's renewal sentences). */
import type { BillingCycle } from '../api/schemas';
import { MANILA_OFFSET_MS } from './product';

/**
 * The end of a period that starts at `start`: calendar months and years in Asia/Manila (31 January
 * plus one month is 28 or 29 February, the last day of that month), fixed lengths for the rest.
 */
export function addBillingPeriod(start: Date, cycle: BillingCycle | string, duration: number): Date {
  const fixed: Record<string, number> = { week: 7 * 86_400_000, day: 86_400_000, hour: 3_600_000, minute: 60_000 };
  if (cycle in fixed) return new Date(start.getTime() + duration * fixed[cycle]!);
  const months = cycle === 'year' ? 12 * duration : cycle === 'month' ? duration : null;
  if (months === null) throw new Error(`No calendar period for billing cycle ${cycle}`);
  const local = new Date(start.getTime() + MANILA_OFFSET_MS);
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(local.getUTCDate(), lastDay);
  const end = Date.UTC(year, month, day, local.getUTCHours(), local.getUTCMinutes(), local.getUTCSeconds(), local.getUTCMilliseconds());
  return new Date(end - MANILA_OFFSET_MS);
}
