/** The change-payment-method actors: status through React Query, the browser's confirmation, the update. */
import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import type { Api } from '../../api/endpoints';
import { subscriptionStatusQuery } from '../../api/queries';
import type { SubscriptionStatusDetails } from '../../api/schemas';
import { fromCall } from '../actors';

export function createPaymentMethodActors(api: Api, queryClient: QueryClient) {
  return {
    loadStatus: fromPromise<SubscriptionStatusDetails>(() => queryClient.fetchQuery({ ...subscriptionStatusQuery(api), staleTime: 0, retry: false })),
    confirmCheckout: fromPromise<boolean, { message: string }>(async ({ input }) => window.confirm(input.message)),
    updatePaymentMethod: fromCall(api.updatePaymentMethod),
  };
}
