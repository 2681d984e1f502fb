/**
 * The subscription area's actors, from one factory so a test swaps them all with `machine.provide`.
 * Reads go through React Query, which owns the server data (product.md#state-ownership): the actors fill the cache
 * with `fetchQuery` and views read the same entries with `useQuery` and the same options.
 */
import type { FetchQueryOptions, QueryClient, QueryKey } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import type { Api } from '../../api/endpoints';
import { fromCall } from '../actors';
import { paymentHistoryQuery, queryKeys, subscriptionHistoryQuery, subscriptionStatusQuery } from '../../api/queries';
import type { PaymentRecord, SubscriptionHistoryItem, SubscriptionStatusDetails, VoucherSubscription } from '../../api/schemas';

export interface SubscriptionRequest {
  subscriptionId: string;
}

/** A server answer whose message is the result (cancel, resubscribe). */
export interface MessageResult {
  message: string;
}

/**
 * fetchQuery that stops when the actor stops (the page unmounts). No automatic retry: the page has a
 * 'Try again' button, and a retried 401 or 500 would only make the person wait.
 */
async function fetchUntilAborted<T, K extends QueryKey>(
  queryClient: QueryClient,
  options: FetchQueryOptions<T, Error, T, K>,
  signal: AbortSignal,
): Promise<T> {
  const cancel = () => void queryClient.cancelQueries({ queryKey: options.queryKey, exact: true });
  signal.addEventListener('abort', cancel, { once: true });
  try {
    return await queryClient.fetchQuery({ ...options, retry: false });
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

export function createSubscriptionActors(api: Api, queryClient: QueryClient) {
  return {
    loadStatus: fromPromise<SubscriptionStatusDetails>(({ signal }) =>
      fetchUntilAborted(queryClient, subscriptionStatusQuery(api), signal)),
    loadHistory: fromPromise<SubscriptionHistoryItem[]>(({ signal }) =>
      fetchUntilAborted(queryClient, subscriptionHistoryQuery(api), signal)),
    loadPayments: fromPromise<PaymentRecord[]>(({ signal }) =>
      fetchUntilAborted(queryClient, paymentHistoryQuery(api), signal)),
    // api.cancelSubscription / api.resubscribe throw an ApiError when the server answers success=false.
    cancelSubscription: fromPromise<MessageResult, SubscriptionRequest>(async ({ input, signal }) =>
      ({ message: (await api.cancelSubscription(input, signal)).message })),
    resubscribe: fromPromise<MessageResult, SubscriptionRequest>(async ({ input, signal }) =>
      ({ message: (await api.resubscribe(input, signal)).message })),
    redeemVoucher: fromPromise<VoucherSubscription, { code: string }>(({ input, signal }) => api.redeemVoucher(input, signal)),
    payRenewal: fromCall(api.payRenewal),
  };
}

/** product.md#subscription-flow: after a change, status, history and payments are read again (views bind this as an action). */
export function refreshSubscription(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.subscriptionStatus }),
    queryClient.invalidateQueries({ queryKey: queryKeys.subscriptionHistory }),
    queryClient.invalidateQueries({ queryKey: queryKeys.payments }),
  ]).then(() => undefined);
}
