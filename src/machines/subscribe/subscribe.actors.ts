/**
 * The payment area's actors (wizard, card entry, wallet link), from one factory per machine so a test
 * swaps them with `machine.provide`. Reads go through React Query (product.md#state-ownership: it owns server data);
 * a change invalidates what it changed.
 */
import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import { fetchAppConfig, type Api } from '../../api/endpoints';
import { defaultCardQuery, plansQuery, queryKeys, subscriptionStatusQuery, walletLinkQuery } from '../../api/queries';
import { fromCall } from '../actors';

export function createSubscribeActors(api: Api, queryClient: QueryClient) {
  return {
    // Always asked afresh: a viewer who just paid elsewhere must not be offered a second plan.
    loadStatus: fromPromise(() => queryClient.fetchQuery({ ...subscriptionStatusQuery(api), staleTime: 0 })),
    loadPlans: fromPromise(() => queryClient.fetchQuery(plansQuery(api))),
    payWithCard: fromCall(api.payWithCard),
    payWithWallet: fromCall(api.payWithWallet),
    createCheckout: fromCall(api.createCheckout),
  };
}

export function createCardEntryActors(api: Api, queryClient: QueryClient) {
  return {
    loadDefaultCard: fromPromise(() => queryClient.fetchQuery({ ...defaultCardQuery(api), staleTime: 0 })),
    saveCard: fromPromise<Awaited<ReturnType<Api['saveCard']>>, Parameters<Api['saveCard']>[0]>(async ({ input, signal }) => {
      const saved = await api.saveCard(input, signal);
      void queryClient.invalidateQueries({ queryKey: queryKeys.defaultCard });
      return saved;
    }),
  };
}

export function createWalletLinkActors(api: Api, queryClient: QueryClient) {
  return {
    loadWalletLink: fromPromise(() => queryClient.fetchQuery({ ...walletLinkQuery(api), staleTime: 0 })),
    loadAppConfig: fromPromise(() => queryClient.fetchQuery({ queryKey: queryKeys.appConfig, queryFn: () => fetchAppConfig(), retry: false })),
    startWalletLink: fromCall(api.startWalletLink),
    unlinkWallet: fromPromise(async ({ signal }) => {
      const result = await api.unlinkWallet(signal);
      queryClient.setQueryData(queryKeys.walletLink, null);
      return result;
    }),
  };
}
