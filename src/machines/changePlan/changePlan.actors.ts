/**
 * The change-plan actors: the status and the plans are read through React Query (which owns them,
 * product.md#state-ownership) so the page reads the same cache entries; the preview and the change are plain calls.
 */
import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import type { Api } from '../../api/endpoints';
import { plansQuery, subscriptionStatusQuery } from '../../api/queries';
import type { Plan, SubscriptionStatusDetails } from '../../api/schemas';
import { fromCall } from '../actors';

export function createChangePlanActors(api: Api, queryClient: QueryClient) {
  return {
    // Always read afresh: the page decides from the current status (a plan may just have changed).
    loadStatus: fromPromise<SubscriptionStatusDetails>(() => queryClient.fetchQuery({ ...subscriptionStatusQuery(api), staleTime: 0, retry: false })),
    loadPlans: fromPromise<Plan[]>(() => queryClient.fetchQuery({ ...plansQuery(api), retry: false })),
    previewPlanChange: fromCall(api.previewPlanChange),
    updatePlan: fromCall(api.updatePlan),
  };
}
