/** React Query set-up (product.md#caching: 5-minute freshness, no refetch on window focus) and query keys. */
import { QueryClient, queryOptions } from '@tanstack/react-query';
import { currentLocale } from '../i18n';
import type { Api } from './endpoints';

export const STALE_TIME_MS = 5 * 60 * 1000;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: STALE_TIME_MS, refetchOnWindowFocus: false, retry: 1 },
    },
  });
}

export const queryKeys = {
  profile: ['account', 'profile'] as const,
  subscriptionStatus: ['subscription', 'status'] as const,
  subscriptionHistory: ['subscription', 'history'] as const,
  /** Per language: the server answers a plan's texts in the request's (product.md#plan-texts), so two languages never share an answer. */
  get plans() {
    return ['subscription', 'plans', currentLocale()] as const;
  },
  payments: ['payment', 'history'] as const,
  defaultCard: ['payment', 'default-card'] as const,
  walletLink: ['payment', 'wallet-link'] as const,
  appConfig: ['app-config'] as const,
  planChangePreview: (planId: number) => ['subscription', 'plan-change-preview', planId] as const,
  receipt: (paymentId: string) => ['payment', 'receipt', paymentId] as const,
  /**
   * Under the payments key (issue 34): invalidating `payments` after a purchase, plan change or Renew now
   * (React Query matches keys by prefix) refreshes the invoice list too, so a new invoice shows at once.
   */
  invoices: ['payment', 'history', 'invoices'] as const,
  invoice: (id: string) => ['payment', 'invoice', id] as const,
};

/** One definition per server read, shared by machine actors (fetchQuery) and views (useQuery). */
export const profileQuery = (api: Api) =>
  queryOptions({ queryKey: queryKeys.profile, queryFn: ({ signal }) => api.getProfile(signal) });
export const subscriptionStatusQuery = (api: Api) =>
  queryOptions({ queryKey: queryKeys.subscriptionStatus, queryFn: ({ signal }) => api.getSubscriptionStatus(signal) });
export const subscriptionHistoryQuery = (api: Api) =>
  queryOptions({ queryKey: queryKeys.subscriptionHistory, queryFn: ({ signal }) => api.getSubscriptionHistory(signal) });
export const paymentHistoryQuery = (api: Api) =>
  queryOptions({ queryKey: queryKeys.payments, queryFn: ({ signal }) => api.getPaymentHistory(signal) });
export const plansQuery = (api: Api) =>
  queryOptions({ queryKey: queryKeys.plans, queryFn: ({ signal }) => api.getPlans(signal) });
/** The server's numbers for a plan change; never cached long, the carried time shrinks as it is read. */
export const planChangePreviewQuery = (api: Api, planId: number) =>
  queryOptions({ queryKey: queryKeys.planChangePreview(planId), queryFn: ({ signal }) => api.previewPlanChange({ planId }, signal), staleTime: 0 });
export const defaultCardQuery = (api: Api) =>
  queryOptions({ queryKey: queryKeys.defaultCard, queryFn: ({ signal }) => api.getDefaultCard(signal) });
export const walletLinkQuery = (api: Api) =>
  queryOptions({ queryKey: queryKeys.walletLink, queryFn: ({ signal }) => api.getWalletLink(signal) });
/** A receipt does not change once paid: read once per visit. */
export const receiptQuery = (api: Api, paymentId: string) =>
  queryOptions({ queryKey: queryKeys.receipt(paymentId), queryFn: ({ signal }) => api.getReceipt(paymentId, signal), staleTime: Infinity });
