/** What the scheduled-change line on the subscription card shows (product.md#scheduled-downgrade); pure. */
import type { SnapshotFrom } from 'xstate';
import type { SubscriptionStatusDetails } from '../../api/schemas';
import { m } from '../../i18n';
import { formatDate } from '../../lib/dates';
import { formatPrice } from '../../lib/format';
import type { KeepPlanEvent, KeepPlanMachine } from './keepPlan.machine';

export interface ScheduledChangeView {
  /** 'Your plan changes to Monthly on 01/27/2028, at ₱99 monthly.' */
  line: string;
  /** 'Until then you keep Yearly. …' */
  note: string;
  /** 'Keep Yearly', or 'Keeping Yearly...' while it runs. */
  label: string;
  busy: boolean;
  error: string | null;
  keep: () => void;
}

/** The line for a status with a scheduled change; null without one. */
export function connectKeepPlan(
  snapshot: SnapshotFrom<KeepPlanMachine>, send: (event: KeepPlanEvent) => void, status: SubscriptionStatusDetails,
): ScheduledChangeView | null {
  const change = status.scheduledChange;
  const subscriptionId = status.subscriptionId;
  if (!change || !subscriptionId) return null;
  const busy = snapshot.matches('undoing');
  const price = formatPrice(change.planAmount, status.planCurrency);
  return {
    line: m.your_plan_changes_to_on_card({ planName: change.planName, date: formatDate(change.date), price }),
    note: m.until_then_you_keep({ currentPlanName: status.planName }),
    label: busy ? m.keeping_plan({ planName: status.planName }) : m.keep_plan({ planName: status.planName }),
    busy,
    error: snapshot.matches('rejected') ? snapshot.context.error : null,
    keep: () => send({ type: 'keep.press', subscriptionId }),
  };
}
