/**
 * From the server's subscription data to what the subscription page shows (product.md#subscription, product.md#constants): pure, so the
 * page only renders and the wording is tested without a browser. Words come from the catalog (issue 20),
 * called when the view is made, so they are in the language in use. The payment result page's and the
 * receipt's words are in src/views/pages/receipt.format.ts (the subscription page shows neither: bundle budget).
 */
import type { PaymentMethod, PaymentRecord, SubscriptionHistoryItem, SubscriptionStatusDetails } from '../../api/schemas';
import { m } from '../../i18n';
import { formatDate, formatDateTime } from '../../lib/dates';
import { renewNowLabel } from '../renewNow/renewNow.format';
import { formatBillingPeriod, formatPrice } from '../../lib/format';
import { declineReasonOf, gatewayWords, type DeclineReason } from '../../lib/renewal-failures';
import { invoicePath } from '../../lib/invoice-paths';
import { receiptPath } from '../../lib/route-paths';
import type { CancelSubscriptionEvent, Continuation } from '../cancelSubscription/cancelSubscription.machine';

const STATUS_LABELS: Record<string, () => string> = {
  ACTIVE: m.active,
  CANCELED: m.canceled,
  PENDING: m.pending,
  PAST_DUE: m.past_due,
  EXPIRED: m.expired,
  UPCOMING: m.upcoming,
};

/** A known status in words; any other value exactly as the server sent it (never a crash). */
export function statusLabel(status: string): string {
  return STATUS_LABELS[status]?.() ?? status;
}

const PAYMENT_STATUS_LABELS: Record<string, () => string> = {
  PAYMENT_SUCCESS: m.succeeded,
  PAYMENT_FAILED: m.failed,
  PENDING: m.pending,
  PAYMENT_EXPIRED: m.expired,
  PAYMENT_CANCELLED: m.canceled,
};

export function paymentStatusLabel(status: string): string {
  return PAYMENT_STATUS_LABELS[status]?.() ?? status;
}

/** The tone a status badge takes: good, warning (ends soon or failed), neutral (anything else). */
export function statusTone(status: string): 'good' | 'warning' | 'neutral' {
  if (status === 'ACTIVE' || status === 'PAYMENT_SUCCESS') return 'good';
  if (status === 'CANCELED' || status === 'PAST_DUE' || status === 'PAYMENT_FAILED' || status === 'EXPIRED' || status === 'PAYMENT_EXPIRED') return 'warning';
  return 'neutral';
}

const METHOD_NAMES: Record<PaymentMethod, () => string> = {
  MAYA_VAULT: m.card,
  MAYA_WALLET: m.maya_wallet,
  MAYA_CHECKOUT: m.maya_checkout,
  VOUCHER: m.voucher,
};

export function paymentMethodName(method: string): string {
  return METHOD_NAMES[method as PaymentMethod]?.() ?? method;
}

// The price wording lives with the money helpers (the wizard's route uses it without this module's dates).
export { formatPrice } from '../../lib/format';

export interface PaymentMethodView {
  name: string;
  /** The masked card number, or the voucher code; absent for wallet and checkout. */
  detail: string | null;
}

export function paymentMethodView(status: SubscriptionStatusDetails): PaymentMethodView | null {
  if (!status.paymentMethod) return null;
  const details = status.paymentMethodDetails;
  const name = details?.description || paymentMethodName(status.paymentMethod);
  if (status.paymentMethod === 'MAYA_VAULT') return { name, detail: details?.maskedCardNumber ?? null };
  if (status.paymentMethod === 'VOUCHER') return { name, detail: details?.voucherCode ?? status.voucherCode ?? null };
  return { name, detail: null };
}

export type SubscriptionAction =
  | { kind: 'cancel'; open: Extract<CancelSubscriptionEvent, { type: 'dialog.open' }> }
  | { kind: 'reactivate'; open: Extract<CancelSubscriptionEvent, { type: 'dialog.open' }> };

export function continuationOf(status: Pick<SubscriptionStatusDetails, 'paymentMethod' | 'isVoucherSubscription'>): Continuation {
  if (status.paymentMethod === 'VOUCHER' || status.isVoucherSubscription) return 'none';
  return status.paymentMethod === 'MAYA_CHECKOUT' ? 'byHand' : 'automatic';
}

export interface SubscriptionCardView {
  planName: string;
  status: string;
  statusTone: 'good' | 'warning' | 'neutral';
  /**
   * The card's first line, the whole state in one sentence (review expectation 4): 'Premium · renews 01/15/2027
   * for ₱99 on Visa •••• 1381', 'Premium until 02/01/2027; it will not renew'; null for the free plan.
   */
  summary: string | null;
  /** '₱99 monthly'; null for the free plan and a voucher. */
  price: string | null;
  startDate: string;
  /** 'Next Billing Date', or 'End Date' when CANCELED or paid by a voucher (product.md#subscription); null when there is no date, or PAST_DUE (the date has passed: the notice says what comes next). */
  dateLabel: string | null;
  date: string | null;
  /** PAST_DUE: what is owed for the overdue period ('₱99'). */
  amountDue: string | null;
  /** Renew now paid early (product.md#renew-early): when the paid period starts ('03/04/2027 1:09 pm'). */
  nextPeriod: string | null;
  /** A voucher subscription in words ('SUGBO365 · 365 days'); null for any other. */
  voucher: string | null;
  /** The method in the card's words ('Visa •••• 1381', 'Maya Wallet', 'Voucher SUGBO365'). */
  paymentMethod: string | null;
  isFree: boolean;
  /** The free card: what Premium costs (the FAQ's words) and gives. */
  premiumPitch: string | null;
  /** The free card after Premium ended unpaid (product.md#ended-unpaid): when and why. */
  ended: string | null;
  /** Cancel (ACTIVE or PAST_DUE), reactivate (CANCELED), or none for another status. */
  change: SubscriptionAction | null;
  /**
   * The links the card offers, only where the server would take them (product.md#subscription-actions):
   * no plan or method change for a voucher (refused: 'Voucher subscriptions cannot change …'); Redeem
   * Voucher where a voucher adds its days to the Premium running (a renewing card or wallet, or a voucher).
   */
  links: { changePlan: boolean; changePaymentMethod: boolean; redeemVoucher: boolean };
}

/** A card's last four as the card shows it everywhere ('•••• 1381'). */
const lastFour = (masked: string | null | undefined) => (masked ? `•••• ${masked.replace(/\D/g, '').slice(-4)}` : null);

function methodInWords(status: SubscriptionStatusDetails): string | null {
  const method = paymentMethodView(status);
  if (!method) return null;
  if (status.paymentMethod === 'MAYA_VAULT') return [method.name, lastFour(method.detail)].filter(Boolean).join(' ');
  return [method.name, method.detail].filter(Boolean).join(' ');
}

function voucherOf(status: SubscriptionStatusDetails): string | null {
  if (status.paymentMethod !== 'VOUCHER' && !status.isVoucherSubscription) return null;
  const code = status.voucherCode ?? status.paymentMethodDetails?.voucherCode ?? null;
  const days = status.subscriptionDays ?? (status.planBillingCycle === 'voucher' ? Number(status.planDuration) || null : null);
  return [code, days ? (days === 1 ? m.day({ days }) : m.days({ days })) : null].filter(Boolean).join(' · ') || m.voucher();
}

function summaryOf(status: SubscriptionStatusDetails, method: string | null): string | null {
  if (status.planType !== 'PREMIUM') return null;
  const until = status.endDate ? formatDate(status.endDate) : null;
  // The next period is billed on a scheduled move down's plan, at its price (product.md#scheduled-downgrade).
  const amount = formatPrice((status.scheduledChange ?? status).planAmount, status.planCurrency);
  if (status.status === 'PAST_DUE') return m.premium_payment_overdue({ amount });
  if (!until) return null;
  if (status.status === 'CANCELED' || continuationOf(status) === 'none') return m.premium_until_it_will_not_renew({ date: until });
  if (status.status !== 'ACTIVE') return null;
  if (status.nextPeriodStart) return m.premium_paid_through({ date: until });
  // Checkout: the Time to renew notice says the same above the card once it is due.
  if (continuationOf(status) === 'byHand') return status.renewal ? null : m.your_premium_ends_on_maya_checkout({ date: until });
  return method ? m.premium_renews_for_on({ date: until, amount, method }) : m.premium_paid_through({ date: until });
}

export function subscriptionCardView(status: SubscriptionStatusDetails): SubscriptionCardView {
  const isFree = status.planType !== 'PREMIUM';
  const voucher = voucherOf(status);
  const canceled = status.status === 'CANCELED';
  const pastDue = status.status === 'PAST_DUE';
  const date = status.endDate && !pastDue ? formatDateTime(status.endDate) || null : null;
  const method = methodInWords(status);
  let change: SubscriptionAction | null = null;
  if (!isFree && status.subscriptionId) {
    const open = {
      subscriptionId: status.subscriptionId, periodEnd: status.endDate, continuation: continuationOf(status),
      // What it renews at once reactivated (product.md#renewal-consent; a cancel clears a scheduled move down).
      renewalPrice: { amount: status.planAmount, currency: status.planCurrency },
    } as const;
    if (status.status === 'ACTIVE') change = { kind: 'cancel', open: { type: 'dialog.open', change: 'cancel', ...open } };
    else if (canceled) change = { kind: 'reactivate', open: { type: 'dialog.open', change: 'reactivate', ...open } };
    else if (pastDue) {
      // product.md#dunning: canceling stops the retries; access lasts to the end of the grace period, not the unpaid end date.
      const accessEnd = status.renewal?.state === 'PAST_DUE' ? status.renewal.accessEndDate : null;
      change = { kind: 'cancel', open: { type: 'dialog.open', change: 'cancel', ...open, periodEnd: accessEnd, pastDue: true } };
    }
  }
  const renewing = !isFree && continuationOf(status) === 'automatic' && (status.status === 'ACTIVE' || pastDue);
  return {
    planName: status.planName,
    status: statusLabel(status.status),
    statusTone: statusTone(status.status),
    summary: summaryOf(status, method),
    // A voucher bills nothing: it says what it is instead of a price per period.
    price: isFree || voucher
      ? null
      : `${formatPrice(status.planAmount, status.planCurrency)} ${formatBillingPeriod(status.planDuration, status.planBillingCycle)}`,
    startDate: formatDateTime(status.startDate),
    dateLabel: date ? (canceled || voucher ? m.end_date() : m.next_billing_date()) : null,
    date,
    amountDue: pastDue ? formatPrice(status.planAmount, status.planCurrency) : null,
    nextPeriod: status.nextPeriodStart && !isFree ? formatDateTime(status.nextPeriodStart) : null,
    voucher,
    // A voucher's code is its Voucher fact already: no 'Payment Method: Voucher CODE' beside it.
    paymentMethod: voucher ? null : method,
    isFree,
    // The prices as the FAQ says them (spec §9), then what Premium gives.
    premiumPitch: isFree ? `${m.the_monthly_plan_is_php_99_the()} ${m.premium_pitch()}` : null,
    ended: isFree && status.premiumEnded ? m.your_premium_ended_on_because({ date: formatDate(status.premiumEnded.date) }) : null,
    change,
    links: {
      changePlan: !isFree && !voucher,
      changePaymentMethod: !isFree && !voucher,
      redeemVoucher: isFree || renewing || (!!voucher && status.status === 'ACTIVE'),
    },
  };
}

/**
 * What the viewer must do about the next period (product.md#dunning, product.md#checkout-renewal):
 * a failed renewal (why, the next attempt, until when Premium lasts; Change Payment Method, and Renew now
 * to pay the overdue period at once), or a checkout subscription near its end (Renew now). Null when
 * nothing is due.
 */
/** `label`: the renew button's own words when they are not Renew now ('Confirm with your bank', product.md#pay-now). */
export type RenewalNoticeAction = { kind: 'changePaymentMethod' } | { kind: 'renew'; subscriptionId: string; label?: string };

export interface RenewalNoticeView {
  kind: 'pastDue' | 'due';
  title: string;
  lines: string[];
  /** What the notice offers, the way forward first: the view draws the first as the primary button, any other as secondary. */
  actions: RenewalNoticeAction[];
}

const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/** Why a renewal failed (src/lib/renewal-failures.ts) in the reader's language; a gateway's own words as they came. */
const FAILURE_MESSAGES: Record<DeclineReason, () => string> = {
  declined: m.your_payment_was_declined, confirm: m.your_bank_asked_to_confirm_the, cardGone: m.card_not_found, cardExpired: m.your_card_has_expired,
  walletGone: m.your_maya_wallet_is_no_longer_linked, unknown: m.the_payment_gateway_did_not_answer, ours: m.the_payment_gateway_refused_our_request,
};
export function failureReason(text: string): string {
  const reason = declineReasonOf(text);
  // A gateway's own words: what to do in ours, its words kept for support.
  return reason ? FAILURE_MESSAGES[reason]() : m.maya_did_not_accept_your_payment({ details: gatewayWords(text) });
}

export function renewalNotice(status: SubscriptionStatusDetails): RenewalNoticeView | null {
  const renewal = status.renewal;
  if (!renewal || status.planType !== 'PREMIUM') return null;
  if (renewal.state === 'PAST_DUE') {
    // A card whose bank asks to confirm every payment cannot be renewed without the viewer: the way forward
    // is to confirm it on the bank's page (product.md#pay-now), so that button comes first.
    const confirm = declineReasonOf(renewal.failure) === 'confirm';
    const renew: RenewalNoticeAction | null = status.subscriptionId
      ? { kind: 'renew', subscriptionId: status.subscriptionId, ...(confirm ? { label: m.confirm_with_your_bank() } : {}) }
      : null;
    return {
      kind: 'pastDue',
      title: m.your_renewal_payment_failed(),
      lines: [
        sentence(failureReason(renewal.failure)),
        renewal.nextAttemptDate
          ? m.we_will_try_again_on({ date: formatDateTime(renewal.nextAttemptDate) })
          : m.we_will_not_try_this_payment_method(),
        m.change_your_payment_method_to_keep({ date: formatDateTime(renewal.accessEndDate) }),
        ...(renew ? [confirm ? m.your_bank_asks_you_to_confirm_each({ action: m.confirm_with_your_bank() }) : m.or_press_renew_now_to_pay_the({ action: renewNowLabel() })] : []),
      ],
      actions: !renew ? [{ kind: 'changePaymentMethod' }] : confirm ? [renew, { kind: 'changePaymentMethod' }] : [{ kind: 'changePaymentMethod' }, renew],
    };
  }
  if (!status.subscriptionId) return null;
  return {
    kind: 'due',
    title: m.time_to_renew(),
    lines: [
      m.your_premium_ends_on_maya_checkout({ date: formatDateTime(renewal.dueDate) }),
      m.renew_now_and_your_next_period(),
    ],
    actions: [{ kind: 'renew', subscriptionId: status.subscriptionId }],
  };
}

export type HistoryTab = 'active' | 'all';

/**
 * The Active tab shows the PREMIUM items that give Premium now or are paid to come (product.md#history-active):
 * ACTIVE, and also PAST_DUE (retried, still Premium), CANCELED (Premium to its end date) and UPCOMING (paid early).
 */
const IN_FORCE = new Set(['ACTIVE', 'PAST_DUE', 'CANCELED', 'UPCOMING']);
export function historyItems(history: readonly SubscriptionHistoryItem[], tab: HistoryTab): SubscriptionHistoryItem[] {
  return tab === 'all' ? [...history] : history.filter((item) => IN_FORCE.has(item.status) && item.planType === 'PREMIUM');
}

export interface HistoryRow {
  id: string;
  plan: string;
  planType: string;
  price: string;
  status: string;
  statusTone: 'good' | 'warning' | 'neutral';
  period: string;
  autoRenew: string;
}

/**
 * One history item as a row. `all`: the whole history, so that a period renewed early (Renew now before its
 * end, product.md#renew-early) says it was renewed instead of 'Does not renew' beside its UPCOMING next period.
 */
export function historyRow(item: SubscriptionHistoryItem, all: readonly SubscriptionHistoryItem[] = []): HistoryRow {
  const renewedEarly = Boolean(item.endDate) && all.some((other) => other.status === 'UPCOMING' && other.startDate === item.endDate);
  const start = formatDateTime(item.startDate);
  const end = item.endDate ? formatDateTime(item.endDate) : '';
  return {
    id: item.id,
    plan: item.plan,
    planType: item.planType,
    price: formatPrice(item.price, item.currency),
    status: statusLabel(item.status),
    statusTone: statusTone(item.status),
    period: end ? `${start} – ${end}` : start,
    autoRenew: renewedEarly ? m.renewed_the_next_period_is_paid() : item.autoRenew ? m.renews_automatically() : m.does_not_renew(),
  };
}

export interface PaymentRow {
  id: string;
  date: string;
  plan: string;
  method: string;
  amount: string;
  status: string;
  statusTone: 'good' | 'warning' | 'neutral';
  /** How often a renewal was tried again on this record ('Retried 2 times'); null when never. */
  retries: string | null;
  reference: string;
  /** The invoice page of a payment that has one (issue 34), else the receipt page of a successful payment; null for any other. */
  receipt: string | null;
  /** 'Invoice' or 'Receipt': what the link leads to. */
  paper: 'invoice' | 'receipt' | null;
}

/** Newest first, whatever order the server sent. */
export const newestFirst = (payments: readonly PaymentRecord[]) => [...payments].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));

export function paymentRows(payments: readonly PaymentRecord[]): PaymentRow[] {
  return newestFirst(payments)
    .map((p) => ({
      id: p.id,
      date: formatDateTime(p.createdAt),
      plan: p.planName ?? '—',
      method: paymentMethodName(p.paymentMethod),
      amount: formatPrice(p.totalAmount, null),
      status: paymentStatusLabel(p.status),
      statusTone: statusTone(p.status),
      retries: p.retryCount > 0 ? (p.retryCount === 1 ? m.retried_time : m.retried_times)({ retryCount: p.retryCount }) : null,
      reference: p.referenceId,
      receipt: p.invoiceId ? invoicePath(p.invoiceId) : p.status === 'PAYMENT_SUCCESS' ? receiptPath(p.id) : null,
      paper: p.invoiceId ? 'invoice' as const : p.status === 'PAYMENT_SUCCESS' ? 'receipt' as const : null,
    }));
}
