/**
 * The payment result page's and the receipt's words (product.md#payment-result, product.md#receipt), apart from
 * subscription.format.ts so that the subscription page, which shows neither, does not carry them (bundle budget:
 * a module shared by several pages is loaded whole by each).
 */
import type { PaymentRecord, Receipt, SubscriptionStatusDetails } from '../../api/schemas';
import { m } from '../../i18n';
import { formatDate, formatDateTime } from '../../lib/dates';
import { formatPrice } from '../../lib/format';
import { paymentPaperPath } from '../../lib/invoice-paths';
import { newestFirst, paymentMethodName, paymentStatusLabel, subscriptionCardView } from '../../machines/subscription/subscription.format';

/** The newest payment is still waiting for Maya's word (the result page asks again meanwhile). */
export const isConfirming = (payments: readonly PaymentRecord[]) => newestFirst(payments)[0]?.status === 'PENDING';
/** The newest payment (the one a payment result is about). */
export const latestPayment = (payments: readonly PaymentRecord[]): PaymentRecord | undefined => newestFirst(payments)[0];

/** The payment result page's details of the newest payment (beyond product.md#payment-result). */
export interface PaymentResultView {
  /** What the page says first: being activated while Maya confirms, active once paid, renewed for a next period; null when the newest payment did not succeed. */
  lead: string | null;
  /** Said while Maya has not confirmed the payment yet (the page asks again by itself). */
  confirming: string | null;
  rows: Array<{ label: string; value: string }>;
  /** The invoice page (or, for a payment without one, the receipt page), once the payment is confirmed. */
  receipt: string | null;
  /** 'View invoice' or 'View receipt'. */
  receiptLabel: string;
}

/** A payment's method as a receipt names it: the card's type and last four ('Visa **** 1381'), else the method's name (review finding 19). */
export function receiptMethod(paymentMethod: string, card: Receipt['card']): string {
  return card ? `${card.type} **** ${card.last4}` : paymentMethodName(paymentMethod);
}

/** `receipt`: the newest payment's receipt once it succeeded (its card, and whether it renewed), when read. */
export function paymentResultView(payments: readonly PaymentRecord[], status: SubscriptionStatusDetails | null, receipt: Receipt | null = null): PaymentResultView | null {
  const latest = newestFirst(payments)[0];
  if (!latest) return null;
  const paid = latest.status === 'PAYMENT_SUCCESS';
  const own = paid && receipt?.id === latest.id ? receipt : null;
  const rows: PaymentResultView['rows'] = [
    { label: m.plan(), value: latest.planName ?? '—' },
    { label: m.amount(), value: formatPrice(latest.totalAmount, null) },
    { label: m.payment_method_2(), value: receiptMethod(latest.paymentMethod, own?.card) },
    { label: m.reference(), value: latest.referenceId },
    { label: m.date(), value: formatDateTime(latest.createdAt) },
    { label: m.status(), value: paymentStatusLabel(latest.status) },
  ];
  if (status && paid && status.planType === 'PREMIUM') {
    const card = subscriptionCardView(status);
    if (card.dateLabel && card.date) rows.push({ label: card.dateLabel, value: card.date });
  }
  const lead = latest.status === 'PENDING'
    ? m.thank_you_your_premium_subscription()
    : !paid ? null
      : own?.renewal && own.periodEnd ? m.your_premium_subscription_is_renewed({ date: formatDate(own.periodEnd) })
        : m.your_premium_subscription_is_active();
  return {
    lead,
    confirming: latest.status === 'PENDING' ? m.maya_is_still_confirming_this() : null,
    rows,
    receipt: paid ? paymentPaperPath(latest) : null,
    receiptLabel: latest.invoiceId ? m.view_invoice() : m.view_receipt(),
  };
}

/** A receipt's lines, in the order a printed receipt reads (issue 19). */
export interface ReceiptView {
  merchant: string;
  merchantUrl: string;
  rows: Array<{ label: string; value: string }>;
  total: string;
}

export function receiptView(receipt: Receipt): ReceiptView {
  const period = receipt.periodStart && receipt.periodEnd
    ? m.to({ start: formatDate(receipt.periodStart), end: formatDate(receipt.periodEnd) })
    : null;
  const rows: ReceiptView['rows'] = [
    { label: m.billed_to(), value: `${receipt.customerName} (${receipt.customerEmail})` },
    { label: m.plan(), value: `${receipt.planName} (PREMIUM)` },
    ...(period ? [{ label: m.period(), value: period }] : []),
    { label: m.payment_method_2(), value: receiptMethod(receipt.paymentMethod, receipt.card) },
    { label: m.reference(), value: receipt.referenceId },
    { label: m.date_paid(), value: formatDateTime(receipt.paidAt) },
    { label: m.status(), value: m.paid() },
  ];
  // Pesos written one way (product.md#money-format).
  return { merchant: receipt.merchant, merchantUrl: receipt.merchantUrl, rows, total: formatPrice(receipt.amount, receipt.currency) };
}
