/**
 * Billing periods: where a period ends, and the arithmetic of a plan change (the time left on the
 * current subscription carried into the new one).
 */
import type { BillingCycle, Plan } from '../../src/api/schemas';
import { MANILA_OFFSET_MS } from '../../src/lib/product';
import { DAY_MS } from '../platform/clock';

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

export interface PlanChangeNumbers {
  /** Time left on the current subscription at `at` (0 when it has ended). */
  carriedMs: number;
  /** That time in days, rounded to the nearest whole day (what people read). */
  carriedDays: number;
  newEndDate: Date;
}

/**
 * The new end date of a change applied at `at` to a subscription that ends at `currentEnd`: the new
 * plan's period from now plus everything left of the current one, to the millisecond.
 */
export function planChangeNumbers(at: Date, currentEnd: Date | null, plan: Pick<Plan, 'billingCycle' | 'duration'>): PlanChangeNumbers {
  const carriedMs = currentEnd ? Math.max(0, currentEnd.getTime() - at.getTime()) : 0;
  const periodEnd = addBillingPeriod(at, plan.billingCycle, Number(plan.duration));
  return { carriedMs, carriedDays: Math.round(carriedMs / DAY_MS), newEndDate: new Date(periodEnd.getTime() + carriedMs) };
}
