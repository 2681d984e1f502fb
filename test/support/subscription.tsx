/**
 * Subscription fixtures in the shapes the reference server sends (one per seeded account), a fake
 * server answering the subscription calls from mutable state, and a renderer for the subscription
 * pages with a real React Query cache.
 */
import { QueryClientProvider, type QueryClient, type QueryKey } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createActor, fromPromise, toPromise, type AnyActorLogic } from 'xstate';
import { createQueryClient, queryKeys } from '../../src/api/queries';
import type { PaymentRecord, SubscriptionHistoryItem, SubscriptionStatusDetails, TaxDocument, VoucherSubscription } from '../../src/api/schemas';
import { Toasts } from '../../src/views/Toasts';
import type { FlowOverrides } from '../../src/views/services';
import { demoUser, renderView, startSession } from './render';

export const freeStatus: SubscriptionStatusDetails = {
  planId: 3, planName: 'Free', planType: 'FREE', status: 'ACTIVE', startDate: '2026-11-02T02:30:00.000Z', endDate: null,
  planCurrency: 'PHP', planAmount: '0.00', planDuration: 1, planBillingCycle: 'month',
  subscriptionId: null, paymentMethod: null, paymentMethodDetails: null,
};

export const premiumStatus: SubscriptionStatusDetails = {
  planId: 1, planName: 'Monthly', planType: 'PREMIUM', status: 'ACTIVE', startDate: '2026-12-15T00:00:00.000Z',
  endDate: '2027-01-15T00:00:00.000Z', planCurrency: 'PHP', planAmount: '99.00', planDuration: '1', planBillingCycle: 'month',
  subscriptionId: 'sub-premium', paymentMethod: 'MAYA_VAULT',
  paymentMethodDetails: { description: 'Visa', maskedCardNumber: '**** **** **** 1381' },
};

export const canceledStatus: SubscriptionStatusDetails = {
  ...premiumStatus, status: 'CANCELED', startDate: '2027-01-01T04:00:00.000Z', endDate: '2027-02-01T04:00:00.000Z',
  subscriptionId: 'sub-canceled', paymentMethod: 'MAYA_CHECKOUT', paymentMethodDetails: { description: 'Maya Checkout' },
};

export const voucherStatus: SubscriptionStatusDetails = {
  planId: 4, planName: 'Voucher', planType: 'PREMIUM', status: 'ACTIVE', startDate: '2027-01-10T00:00:00.000Z',
  endDate: '2028-01-10T00:00:00.000Z', planCurrency: 'PHP', planAmount: '0.00', planDuration: 365, planBillingCycle: 'voucher',
  subscriptionId: 'sub-voucher', paymentMethod: 'VOUCHER', paymentMethodDetails: { description: 'Voucher', voucherCode: 'SUGBO365' },
  isVoucherSubscription: true, voucherCode: 'SUGBO365',
};

export const walletStatus: SubscriptionStatusDetails = {
  ...premiumStatus, planName: 'Yearly', planAmount: '990.00', planBillingCycle: 'year', subscriptionId: 'sub-wallet',
  paymentMethod: 'MAYA_WALLET', paymentMethodDetails: { description: 'Maya Wallet' },
};

/** A Maya Checkout subscription 2 days before its end: the reminder offers Renew now (product.md#checkout-renewal). */
export const renewalDueStatus: SubscriptionStatusDetails = {
  ...premiumStatus, subscriptionId: 'sub-checkout', paymentMethod: 'MAYA_CHECKOUT', paymentMethodDetails: { description: 'Maya Checkout' },
  renewal: { state: 'DUE', dueDate: premiumStatus.endDate! },
};

/** A card renewal that failed (product.md#dunning): tried again in a day, Premium until a week after the end. */
export const pastDueStatus: SubscriptionStatusDetails = {
  ...premiumStatus, subscriptionId: 'sub-past-due', status: 'PAST_DUE', startDate: '2026-11-15T00:00:00.000Z', endDate: '2026-12-15T00:00:00.000Z',
  renewal: { state: 'PAST_DUE', failure: 'Your payment was declined', nextAttemptDate: '2026-12-16T00:00:00.000Z', accessEndDate: '2026-12-22T00:00:00.000Z' },
};

/** Yearly on a wallet with a move down to Monthly scheduled for its end (product.md#scheduled-downgrade). */
export const scheduledStatus: SubscriptionStatusDetails = {
  ...walletStatus, subscriptionId: 'sub-scheduled',
  scheduledChange: { planName: 'Monthly', planAmount: '99.00', date: premiumStatus.endDate! },
};

/** A canceled card subscription: reactivating it renews by itself again. */
export const canceledCardStatus: SubscriptionStatusDetails = { ...premiumStatus, status: 'CANCELED', subscriptionId: 'sub-canceled-card' };

/** A canceled voucher subscription: reactivating it only keeps Premium to the voucher's end. */
export const canceledVoucherStatus: SubscriptionStatusDetails = { ...voucherStatus, status: 'CANCELED', subscriptionId: 'sub-canceled-voucher' };

/** A checkout subscription whose next period was paid early with Renew now (product.md#renew-early). */
export const paidAheadStatus: SubscriptionStatusDetails = {
  ...renewalDueStatus, renewal: undefined, subscriptionId: 'sub-paid-ahead', startDate: '2026-12-15T00:00:00.000Z',
  nextPeriodStart: '2027-01-15T00:00:00.000Z', endDate: '2027-02-15T00:00:00.000Z',
};

/** Free after Premium ended unpaid (product.md#ended-unpaid). */
export const freeEndedStatus: SubscriptionStatusDetails = { ...freeStatus, premiumEnded: { reason: 'PAYMENT_FAILED', date: '2026-12-22T00:00:00.000Z' } };

export const historyFixture: SubscriptionHistoryItem[] = [
  { id: 'h-1', plan: 'Monthly', planType: 'PREMIUM', currency: 'PHP', price: '99.00', status: 'ACTIVE', startDate: '2026-12-15T00:00:00.000Z', endDate: '2027-01-15T00:00:00.000Z', autoRenew: true },
  { id: 'h-2', plan: 'Monthly', planType: 'PREMIUM', currency: 'PHP', price: '99.00', status: 'EXPIRED', startDate: '2026-11-15T00:00:00.000Z', endDate: '2026-12-15T00:00:00.000Z', autoRenew: false },
  { id: 'h-3', plan: 'Free', planType: 'FREE', currency: 'PHP', price: '0.00', status: 'ACTIVE', startDate: '2026-10-01T00:00:00.000Z', endDate: null, autoRenew: false },
];

/** The voucher subscription entity of product.md#voucher-subscription, as the redeem call answers. */
export const redeemedFixture: VoucherSubscription = {
  id: 'sub-v1', userId: demoUser.id, subscriptionPlanId: 4, startDate: '2027-01-15T00:00:00.000Z', endDate: '2027-02-14T00:00:00.000Z',
  status: 'ACTIVE', paymentMethod: 'VOUCHER',
  details: {
    amount: '0.00', createdAt: '2027-01-15T00:00:00.000Z', voucherCode: 'BISAYA30', voucherCycle: 'day', voucherDuration: 30,
    subscriptionDays: 30, originalVoucherTerms: { cycle: 'month', price: '99.00', duration: '1' },
  },
  isTrial: false, trialStartDate: null, trialEndDate: null, pausedDate: null, pauseResumeDate: null, canceledDate: null,
  canceledReason: null, autoRenew: false, isUpgraded: false, previousPlanId: null,
  createdAt: '2027-01-15T00:00:00.000Z', updatedAt: '2027-01-15T00:00:00.000Z',
  user: { id: demoUser.id, email: demoUser.email, firstName: demoUser.firstName, lastName: demoUser.lastName },
  subscriptionPlan: { id: 4, type: 'VOUCHER', name: 'Voucher', price: '0.00', currency: 'PHP', billingCycle: 'voucher', duration: '30' },
};

function payment(id: string, createdAt: string, status: string, referenceId: string, totalAmount = '99.00'): PaymentRecord {
  return {
    id, userId: demoUser.id, subscriptionId: 'sub-premium', checkoutId: null, referenceId, status,
    amount: totalAmount, discountedAmount: '0.00', totalAmount, paymentMethod: 'MAYA_VAULT', paymentLink: null,
    gatewayResponse: null, retryCount: 0, lastRetryDate: null, createdAt, updatedAt: createdAt, planName: 'Monthly',
  };
}

/** Deliberately not newest first: the panel sorts. */
export const paymentsFixture: PaymentRecord[] = [
  payment('p-1', '2026-11-15T00:00:00.000Z', 'PAYMENT_SUCCESS', 'SB-REF-0001'),
  payment('p-3', '2026-12-15T00:00:00.000Z', 'PAYMENT_SUCCESS', 'SB-REF-0003'),
  payment('p-2', '2026-12-14T00:00:00.000Z', 'PAYMENT_FAILED', 'SB-REF-0002'),
];

export function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
const ok = (data: unknown, message = 'OK') => json(200, { success: true, message, data });

export type Answer = ((init?: RequestInit) => Response | Promise<Response>) | undefined;

/** An invoice (issue 34) as the reference server writes it: ₱99.00 = ₱88.39 + ₱10.61, the sample seller. */
export function invoiceDoc(id: string, paymentId: string, number: string, overrides: Partial<TaxDocument> = {}): TaxDocument {
  return {
    id, kind: 'INVOICE', number, issuedAt: '2026-12-15T00:00:00.000Z', paymentId, invoiceId: null, invoiceNumber: null,
    seller: { name: 'Sine Bisaya Sample Seller', tin: '000-000-000-00000', address: 'Cebu City, Philippines', sample: true },
    buyer: { name: `${demoUser.firstName} ${demoUser.lastName}`, email: demoUser.email, tin: null },
    description: 'Premium subscription, Monthly plan', planName: 'Monthly', periodStart: '2026-12-15T00:00:00.000Z', periodEnd: '2027-01-15T00:00:00.000Z',
    vatableSales: '88.39', vat: '10.61', vatRate: '0.12', total: '99.00', currency: 'PHP', paymentMethod: 'MAYA_VAULT',
    card: { type: 'Visa', last4: '4242' }, referenceId: 'SB-REF-0003', mayaPaymentId: 'maya-pay-3', ...overrides,
  };
}

/** What the fake server holds and how it answers; a test changes it between steps. */
export interface FakeServer {
  status: SubscriptionStatusDetails;
  history: SubscriptionHistoryItem[];
  payments: PaymentRecord[];
  /** The viewer's invoices and credit memos (issue 34); none unless a test gives some. */
  invoices: TaxDocument[];
  /** Overrides for one path ('status', 'history', 'payments', 'cancel', 'resubscribe', 'redeem', 'renew', 'invoices', 'pdf'…). */
  answers: Partial<Record<'status' | 'history' | 'payments' | 'cancel' | 'resubscribe' | 'redeem' | 'receipt' | 'renew' | 'invoices' | 'invoice' | 'invoiceOf' | 'pdf', Answer>>;
  calls: string[];
}

export function fakeServer(status: SubscriptionStatusDetails = premiumStatus): FakeServer {
  return { status, history: historyFixture, payments: paymentsFixture, invoices: [], answers: {}, calls: [] };
}

export function fetchFrom(server: FakeServer): typeof fetch {
  return async (url, init) => {
    const path = new URL(String(url), 'http://x').pathname;
    const name = path.endsWith('/subscription/status') ? 'status'
      : path.endsWith('/subscription/history') ? 'history'
      : path.endsWith('/payment/history') ? 'payments'
      : path.endsWith('/subscription/cancel') ? 'cancel'
      : path.endsWith('/subscription/resubscribe') ? 'resubscribe'
      : path.endsWith('/subscription-voucher/redeem') ? 'redeem'
      : path.includes('/payment/receipts/') ? 'receipt'
      : path.endsWith('/payment/invoices') ? 'invoices'
      : path.includes('/payment/invoices/by-payment/') ? 'invoiceOf'
      : path.includes('/payment/invoices/') && path.endsWith('/pdf') ? 'pdf'
      : path.includes('/payment/invoices/') ? 'invoice'
      : path.endsWith('/payment/renewal/pay') ? 'renew'
      : null;
    if (!name) return json(404, { success: false, message: 'Not in this test' });
    server.calls.push(name);
    const answer = server.answers[name];
    if (answer) return answer(init);
    if (name === 'status') return ok(server.status);
    if (name === 'history') return ok(server.history);
    if (name === 'payments') return ok(server.payments);
    // Invoices as the reference server answers them: the viewer's own, else the same 404.
    const notFound = () => json(404, { success: false, message: 'We could not find this invoice.' });
    const last = decodeURIComponent(path.split('/').filter(Boolean).at(name === 'pdf' ? -2 : -1) ?? '');
    if (name === 'invoices') return ok({ items: server.invoices });
    if (name === 'invoice') return ((doc) => (doc ? ok(doc) : notFound()))(server.invoices.find((d) => d.id === last));
    if (name === 'invoiceOf') return ((doc) => (doc ? ok(doc) : notFound()))(server.invoices.find((d) => d.kind === 'INVOICE' && d.paymentId === last));
    if (name === 'pdf') {
      const doc = server.invoices.find((d) => d.id === last);
      if (!doc) return notFound();
      return new Response(new Blob([`%PDF-1.7 ${doc.number} ${new URL(String(url), 'http://x').searchParams.get('lang')}`], { type: 'application/pdf' }), {
        status: 200, headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${doc.number}.pdf"` },
      });
    }
    if (name === 'receipt') {
      // As the reference server: a successful payment of this viewer, else 404.
      const paid = server.payments.find((p) => path.endsWith(`/${p.id}`) && p.status === 'PAYMENT_SUCCESS');
      if (!paid) return json(404, { success: false, message: 'We could not find a receipt for this payment.' });
      return ok({
        id: paid.id, merchant: 'Sine Bisaya', merchantUrl: 'https://sine.example.ph', referenceId: paid.referenceId, paidAt: paid.createdAt,
        planName: paid.planName ?? 'Monthly', periodStart: '2026-12-15T00:00:00.000Z', periodEnd: '2027-01-15T00:00:00.000Z',
        amount: paid.totalAmount, currency: 'PHP', paymentMethod: paid.paymentMethod, customerName: `${demoUser.firstName} ${demoUser.lastName}`, customerEmail: demoUser.email,
        // The card charged, and whether it paid a next period (a renewal's reference starts SB-RN-), as the reference server says.
        card: paid.paymentMethod === 'MAYA_VAULT' ? { type: 'Visa', last4: '4242' } : null, renewal: paid.referenceId.startsWith('SB-RN-'),
      });
    }
    // Like the reference server: cancel keeps the end date (a PAST_DUE one ends with its grace period and its
    // retries stop, product.md#dunning), resubscribe makes it ACTIVE again.
    if (name === 'cancel') {
      const { renewal, ...rest } = server.status;
      const endDate = renewal?.state === 'PAST_DUE' ? renewal.accessEndDate : rest.endDate;
      server.status = { ...rest, status: 'CANCELED', endDate };
      return ok(null, 'Your subscription has been canceled.');
    }
    // The hosted checkout of the period to pay (product.md#checkout-renewal, product.md#pay-now).
    if (name === 'renew') {
      const { subscriptionId } = JSON.parse(String(init?.body)) as { subscriptionId: string };
      return ok({ paymentLink: `https://payments.example/checkout/${subscriptionId}` });
    }
    if (name === 'resubscribe') {
      server.status = { ...server.status, status: 'ACTIVE' };
      return ok(null, 'Your subscription has been reactivated.');
    }
    const code = (JSON.parse(String(init?.body)) as { code: string }).code;
    return json(400, { success: false, message: `Voucher ${code} is not valid` });
  };
}

/**
 * Deferred actors whose answers also land in the query cache, as the real actors' fetchQuery does, so
 * the view (which reads the cache) sees what the harness resolved.
 */
export function cachingActors(actors: Record<string, AnyActorLogic>, queryClient: QueryClient, keys: Record<string, QueryKey>) {
  return Object.fromEntries(
    Object.entries(actors).map(([name, logic]) => {
      const key = keys[name];
      if (!key) return [name, logic];
      return [name, fromPromise(async ({ input, signal }) => {
        const child = createActor(logic, { input });
        signal.addEventListener('abort', () => child.stop());
        child.start();
        const output = await toPromise(child);
        queryClient.setQueryData(key, output);
        return output;
      })];
    }),
  );
}

export const readKeys = {
  loadStatus: queryKeys.subscriptionStatus,
  loadHistory: queryKeys.subscriptionHistory,
  loadPayments: queryKeys.payments,
};

export function renderSubscriptionView(
  ui: ReactNode,
  options: { path: string; server?: FakeServer; queryClient?: QueryClient; overrides?: FlowOverrides } = { path: '/subscription' },
) {
  const server = options.server ?? fakeServer();
  const queryClient = options.queryClient ?? createQueryClient();
  const session = startSession(demoUser);
  const run = renderView(
    <QueryClientProvider client={queryClient}>
      {ui}
      <Toasts />
    </QueryClientProvider>,
    { path: options.path, session, fetch: fetchFrom(server), overrides: options.overrides },
  );
  return { ...run, server, queryClient, user: userEvent.setup() };
}
