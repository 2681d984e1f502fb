/**
 * A move down waiting for the end of the paid period, on the subscription card
 * (product.md#scheduled-downgrade). Nothing without one; its code (the keepPlan flow) comes only when a
 * subscription has one, so the page's first load carries this wrapper alone.
 */
import type { SubscriptionStatusDetails } from '../../api/schemas';
import { lazyPage } from '../lazyPage';
import { OnDemand } from './OnDemand';

const ScheduledChangeLine = lazyPage<{ status: SubscriptionStatusDetails; className: string }>(() => import('./ScheduledChangeLine'));

/** `className`: the page's notice box. */
export function ScheduledChange({ status, className }: { status: SubscriptionStatusDetails; className: string }) {
  // The line itself says nothing without a subscription to undo it for (keepPlan.connect).
  if (!status.scheduledChange) return null;
  return (
    <OnDemand part={ScheduledChangeLine} fallback={null} onFailed={() => {}} resetKey={status}>
      <ScheduledChangeLine status={status} className={className} />
    </OnDemand>
  );
}
