/** What the cancel / reactivate dialog says and allows in each state (pure; the view only renders). */
import type { SnapshotFrom } from 'xstate';
import { formatDateTime } from '../../lib/dates';
import type { CancelSubscriptionEvent, CancelSubscriptionMachine } from './cancelSubscription.machine';

export interface CancelDialogProps {
  open: boolean;
  pending: boolean;
  title: string;
  /** The exact date access ends (cancel) or the next renewal (reactivate), and the refund rule. */
  body: string[];
  confirmLabel: string;
  /** Canceling ends something: its button reads as a warning, not as the way forward. */
  destructive: boolean;
  dismissLabel: string;
  error: string | null;
  confirm: () => void;
  dismiss: () => void;
  /** Opens the dialog for the change the subscription card offers (subscriptionCardView's `change.open`). */
  request: (open: Extract<CancelSubscriptionEvent, { type: 'dialog.open' }>) => void;
}

export function connectCancelSubscription(snapshot: SnapshotFrom<CancelSubscriptionMachine>, send: (event: CancelSubscriptionEvent) => void): CancelDialogProps {
  const { change, periodEnd, error } = snapshot.context;
  const handlers = {
    confirm: () => send({ type: 'dialog.confirm' }),
    dismiss: () => send({ type: 'dialog.cancel' }),
    request: (open: Extract<CancelSubscriptionEvent, { type: 'dialog.open' }>) => send(open),
  };
  const pending = snapshot.matches('canceling') || snapshot.matches('reactivating');
  const date = periodEnd ? formatDateTime(periodEnd) : '';
  const open = !snapshot.matches('closed');
  const rejected = snapshot.matches({ open: 'rejected' }) ? error : null;
  if (change === 'cancel') {
    return {
      ...handlers, open, pending, error: rejected,
      title: 'Cancel your subscription?',
      body: [
        date
          ? `You keep PREMIUM access until ${date} (Asia/Manila). After that your plan returns to Free.`
          : 'You keep PREMIUM access until the end of your current billing period. After that your plan returns to Free.',
        'Subscription fees are non-refundable: the current period is not refunded.',
      ],
      confirmLabel: pending ? 'Canceling...' : 'Cancel Subscription',
      destructive: true,
      dismissLabel: 'Keep Subscription',
    };
  }
  return {
    ...handlers, open, pending, error: rejected,
    title: 'Reactivate your subscription?',
    body: [
      date
        ? `Your PREMIUM plan continues and renews on ${date} (Asia/Manila) with your current payment method.`
        : 'Your PREMIUM plan continues and renews at the end of the current period with your current payment method.',
      'Subscription fees are non-refundable.',
    ],
    confirmLabel: pending ? 'Reactivating...' : 'Reactivate Subscription',
    destructive: false,
    dismissLabel: 'Not Now',
  };
}
