/**
 * Plan-change fixtures in the reference server's shapes, a fake server for the change-plan calls,
 * and a renderer that gives the page a real React Query cache and the API over that fake server.
 */
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createQueryClient } from '../../src/api/queries';
import type { Plan, PlanChangePreview, SavedCard, SubscriptionStatusDetails, WalletLink } from '../../src/api/schemas';
import { Toasts } from '../../src/views/Toasts';
import type { FlowOverrides } from '../../src/views/services';
import { demoUser, renderView, startSession } from './render';
import { json, premiumStatus } from './subscription';

export const plansFixture: Plan[] = [
  {
    id: 2, slug: 'yearly', name: 'Yearly', description: 'One payment a year: save ₱198, the equal of 2 free months.', price: '990.00',
    currency: 'PHP', duration: '1', billingCycle: 'year', trialDays: 0, sortOrder: 2, isActive: true,
    features: ['Everything in Monthly', 'Save ₱198 a year', 'One payment a year, renews automatically'], popular: true,
  },
  {
    id: 1, slug: 'monthly', name: 'Monthly', description: 'Every Bisaya film and series, billed monthly.', price: '99.00',
    currency: 'PHP', duration: '1', billingCycle: 'month', trialDays: 0, sortOrder: 1, isActive: true,
    features: ['Unlimited Bisaya films and series', 'New releases every week', 'Watch on phone and tablet', 'Cancel anytime'], popular: false,
  },
];

/** premium@ monthly → yearly with 20 days left (Asia/Manila display: 02/04/2028 8:00 am). */
export const previewFixture: PlanChangePreview = { amountDue: '990.00', currency: 'PHP', carriedDays: 20, newEndDate: '2028-02-04T00:00:00.000Z' };
/** A move down scheduled for the end of the paid period (product.md#scheduled-downgrade): nothing now, changes on 01/27/2028 (Manila). */
export const scheduledPreviewFixture: PlanChangePreview = {
  amountDue: '0.00', currency: 'PHP', carriedDays: 0, newEndDate: '2028-02-27T00:00:00.000Z', changesOn: '2028-01-27T00:00:00.000Z',
};

export type PlanChangeCall = 'status' | 'plans' | 'preview' | 'update-plan';

export interface PlanChangeServer {
  status: SubscriptionStatusDetails;
  answers: Partial<Record<PlanChangeCall, () => Response | Promise<Response>>>;
  calls: PlanChangeCall[];
}

const ok = (data: unknown, message = 'OK') => json(200, { success: true, message, data });

export function planChangeServer(status: SubscriptionStatusDetails = premiumStatus): PlanChangeServer {
  return { status, answers: {}, calls: [] };
}

export function planChangeFetch(server: PlanChangeServer): typeof fetch {
  return async (url) => {
    const path = new URL(String(url), 'http://x').pathname;
    const name: PlanChangeCall | null = path.endsWith('/subscription/status') ? 'status'
      : path.endsWith('/subscription/plans') ? 'plans'
      : path.endsWith('/update-plan/preview') ? 'preview'
      : path.endsWith('/subscription/update-plan') ? 'update-plan'
      : null;
    if (!name) return json(404, { success: false, message: 'Not in this test' });
    server.calls.push(name);
    const answer = server.answers[name];
    if (answer) return answer();
    if (name === 'status') return ok(server.status);
    if (name === 'plans') return ok(plansFixture);
    if (name === 'preview') return ok(previewFixture);
    return ok({ paymentMethod: 'MAYA_VAULT', paymentLink: null }, 'Your plan has been changed to Yearly. The remaining days of your previous plan were added.');
  };
}

export function renderPlanChangeView(ui: ReactNode, options: { path: string; server?: PlanChangeServer; queryClient?: QueryClient; overrides?: FlowOverrides }) {
  const server = options.server ?? planChangeServer();
  const queryClient = options.queryClient ?? createQueryClient();
  const session = startSession(demoUser);
  const run = renderView(
    <QueryClientProvider client={queryClient}>
      {ui}
      <Toasts />
    </QueryClientProvider>,
    { path: options.path, session, fetch: planChangeFetch(server), overrides: options.overrides },
  );
  return { ...run, server, queryClient, user: userEvent.setup() };
}

/* ----------------------------------------------------------------- change payment method */

export const savedCardFixture: SavedCard = {
  createdAt: '2026-09-13T00:00:00.000Z', updatedAt: '2026-09-13T00:00:00.000Z', cardTokenId: 'seed-card-premium', cardType: 'visa',
  first6: '412345', last4: '1381', maskedPan: '1381', walletType: 'VAULT', state: 'VERIFIED', default: true,
};

export const walletLinkFixture: WalletLink = {
  linkId: 'link-1', profileId: 'profile-1', card: { state: 'VERIFIED' },
  customer: { firstName: 'Maya', middleName: null, lastName: 'Sandbox', birthday: '1990-01-01', sex: 'F', contact: { phone: '+639193890579', email: 'wallet.tester@maya.sandbox' } },
};

/** The reads the card and wallet parts make (their own flows run for real over this). */
export interface MethodServer {
  card: SavedCard | null;
  link: WalletLink | null;
  calls: string[];
}

export function methodServer(): MethodServer {
  return { card: savedCardFixture, link: walletLinkFixture, calls: [] };
}

export function methodFetch(server: MethodServer, status: SubscriptionStatusDetails = premiumStatus): typeof fetch {
  return async (url, init) => {
    const path = new URL(String(url), 'http://x').pathname;
    const method = init?.method ?? 'GET';
    server.calls.push(`${method} ${path}`);
    if (path.endsWith('/subscription/status')) return ok(status);
    if (path.endsWith('/payment/vault/cards/default')) return ok(server.card);
    if (path.endsWith('/payment/wallet/link') && method === 'GET') return ok(server.link);
    if (path.endsWith('/payment/wallet/link') && method === 'DELETE') {
      server.link = null;
      return ok(null, 'Maya Wallet unlinked successfully');
    }
    return json(404, { success: false, message: 'Not in this test' });
  };
}

export function renderMethodView(ui: ReactNode, options: { path: string; server?: MethodServer; queryClient?: QueryClient; overrides?: FlowOverrides; fetch?: typeof fetch }) {
  const server = options.server ?? methodServer();
  const queryClient = options.queryClient ?? createQueryClient();
  const session = startSession(demoUser);
  const run = renderView(
    <QueryClientProvider client={queryClient}>
      {ui}
      <Toasts />
    </QueryClientProvider>,
    { path: options.path, session, fetch: options.fetch ?? methodFetch(server), overrides: options.overrides },
  );
  return { ...run, server, queryClient, user: userEvent.setup() };
}
