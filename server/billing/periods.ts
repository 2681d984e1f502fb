/**
 * Billing periods: where a period ends, and the arithmetic of a plan change (the time left on the
 * current subscription carried into the new one).
 */
import type { Plan } from '../../src/api/schemas';
import { addBillingPeriod } from '../../src/lib/billingPeriod';
import { DAY_MS } from '../platform/clock';

export { addBillingPeriod };

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
