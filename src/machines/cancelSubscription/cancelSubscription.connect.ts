/** What the cancel / reactivate dialog says and allows in each state (pure; the view only renders), in the language in use. */
import type { SnapshotFrom } from 'xstate';
import { m } from '../../i18n';
import { formatDateTime } from '../../lib/dates';
import { renewalConsentText, ticked } from '../../lib/renewalConsent';
import type { CancelSubscriptionEvent, CancelSubscriptionMachine, Continuation } from './cancelSubscription.machine';

export interface CancelDialogProps {
  open: boolean;
  pending: boolean;
  title: string;
  /** The exact date access ends (cancel) or the next renewal (reactivate), and the refund rule; for a PAST_DUE subscription, that its payment is no longer tried. */
  body: string[];
  confirmLabel: string;
  /** Canceling ends something: its button reads as a warning, not as the way forward. */
  destructive: boolean;
  dismissLabel: string;
  error: string | null;
  /** product.md#renewal-consent: reactivating a card or wallet subscription, the sentence and its tick. */
  consent: { text: string; checked: boolean; missing: boolean; prompts: number; onToggle: (checked: boolean) => void } | null;
  confirm: () => void;
  dismiss: () => void;
  /** Opens the dialog for the change the subscription card offers (subscriptionCardView's `change.open`). */
  request: (open: Extract<CancelSubscriptionEvent, { type: 'dialog.open' }>) => void;
}

const sentence = (text: string) => `${text}.`;

/** What reactivating continues, by how the subscription goes on (a Premium subscription always has its end date: without one, the line is left out). */
const REACTIVATE_TEXT: Record<Continuation, (date: string) => string> = {
  automatic: (date) => m.your_premium_plan_continues_and({ date }),
  // Checkout is paid by hand each period (reminded 3 days before): it ends on its date unless paid.
  byHand: (date) => m.your_premium_ends_on_maya_checkout({ date }),
  none: (date) => sentence(m.premium_until_it_will_not_renew({ date })),
};

export function connectCancelSubscription(snapshot: SnapshotFrom<CancelSubscriptionMachine>, send: (event: CancelSubscriptionEvent) => void): CancelDialogProps {
  const { change, periodEnd, pastDue, continuation, error } = snapshot.context;
  const handlers = {
    confirm: () => send({ type: 'dialog.confirm' }),
    dismiss: () => send({ type: 'dialog.cancel' }),
    request: (open: Extract<CancelSubscriptionEvent, { type: 'dialog.open' }>) => send(open),
  };
  const pending = snapshot.matches('canceling') || snapshot.matches('reactivating');
  const date = periodEnd ? formatDateTime(periodEnd) : '';
  const open = !snapshot.matches('closed');
  const rejected = snapshot.matches({ open: 'rejected' }) ? error : null;
  const keepsAccess = date ? m.you_keep_premium_access_until_asia({ date }) : '';
  const { renewalPrice } = snapshot.context;
  const consentText = change === 'reactivate' && continuation === 'automatic' && periodEnd && renewalPrice
    ? renewalConsentText({ renewsOn: periodEnd, amount: renewalPrice.amount, currency: renewalPrice.currency })
    : null;
  const consent = consentText === null ? null : {
    text: consentText,
    checked: snapshot.context.renewalConsent !== null,
    missing: snapshot.matches({ open: 'consentMissing' }),
    prompts: snapshot.context.consentPrompts,
    onToggle: (checked: boolean) => send({ type: 'consent.toggle', consent: checked ? ticked(consentText) : null }),
  };
  if (change === 'cancel' && pastDue) {
    // product.md#dunning: no more attempts, Premium until the grace period ends (periodEnd); the overdue period was never
    // charged, so the refund rule says nothing of 'the current period'.
    return {
      ...handlers, open, pending, error: rejected, consent: null,
      title: m.cancel_your_subscription(),
      body: [m.we_will_stop_trying_to_charge_your(), keepsAccess, m.subscription_fees_are_non_refundable_2()].filter(Boolean),
      confirmLabel: pending ? m.canceling() : m.cancel_subscription(),
      destructive: true,
      dismissLabel: m.keep_subscription(),
    };
  }
  if (change === 'cancel') {
    return {
      ...handlers, open, pending, error: rejected, consent: null,
      title: m.cancel_your_subscription(),
      body: [keepsAccess, m.subscription_fees_are_non_refundable()].filter(Boolean),
      confirmLabel: pending ? m.canceling() : m.cancel_subscription(),
      destructive: true,
      dismissLabel: m.keep_subscription(),
    };
  }
  return {
    ...handlers, open, pending, error: rejected, consent,
    title: m.reactivate_your_subscription(),
    // Only a card or wallet renews by itself (review finding 10): checkout is paid by hand after a reminder, a voucher just ends.
    body: [date ? REACTIVATE_TEXT[continuation](date) : '', m.subscription_fees_are_non_refundable_2()].filter(Boolean),
    confirmLabel: pending ? m.reactivating() : m.reactivate_subscription(),
    destructive: false,
    dismissLabel: m.not_now(),
  };
}
