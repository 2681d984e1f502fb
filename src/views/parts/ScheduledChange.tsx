/**
 * A move down waiting for the end of the paid period, on the subscription card
 * (product.md#scheduled-downgrade). Nothing without one; its code (the keepPlan flow) comes only when a
 * subscription has one, so the page's first load carries this wrapper alone.
 */
import type { SubscriptionStatusDetails } from '../../api/schemas';
import { lazyPage } from '../lazyPage';
import { OnDemand } from './OnDemand';

const ScheduledChangeLine = lazyPage<{ status: SubscriptionStatusDetails }>(() => import('./ScheduledChangeLine'));

export function ScheduledChange({ status }: { status: SubscriptionStatusDetails }) {
  if (!status.scheduledChange || !status.subscriptionId) return null;
  return (
    <OnDemand part={ScheduledChangeLine} fallback={null} onFailed={() => {}} resetKey={status.scheduledChange.date}>
      <ScheduledChangeLine status={status} />
    </OnDemand>
  );
}
