/** What the change-payment-method page shows in each state (pure; the view only renders). */
import type { SnapshotFrom } from 'xstate';
import type { ChosenCard } from '../cardEntry/cardEntry.machine';
import type { PaymentMethodEvent, PaymentMethodMachine, MethodOption } from './paymentMethod.machine';

export const METHOD_NOTE = 'Changing payment method will take effect in next billing cycle.';
export const VOUCHER_METHOD_NOTE = 'Voucher subscriptions cannot change payment methods. Your voucher subscription will remain active until it expires.';
export const CHECKOUT_EXPLANATION = [
  'Checkout is a one-time charge for each subscription period: it does not renew automatically.',
  'When your renewal is due, the app reminds you to pay for the next period.',
  'It suits those who are testing the subscription.',
];

export const OPTIONS: ReadonlyArray<{ value: MethodOption; label: string }> = [
  { value: 'card', label: 'Credit/Debit' },
  { value: 'wallet', label: 'Wallet' },
  { value: 'checkout', label: 'Checkout' },
];

export type PaymentMethodStage = 'loading' | 'failed' | 'noSubscription' | 'voucher' | 'choosing' | 'confirming' | 'saving' | 'saved';

export interface PaymentMethodProps {
  stage: PaymentMethodStage;
  option: MethodOption | null;
  linkStatus: SnapshotFrom<PaymentMethodMachine>['context']['linkStatus'];
  /** The subscription renews from the linked wallet (unlinking it asks first). */
  renewsOnWallet: boolean;
  /** The last save's refusal (also toasted); the load failure's message on 'failed'. */
  error: string | null;
  attempt: number;
  busy: boolean;
  select: (option: MethodOption) => void;
  chooseCard: (card: ChosenCard) => void;
  saveWallet: (linkId: string | null) => void;
  saveCheckout: () => void;
  retry: () => void;
}

export function connectPaymentMethod(snapshot: SnapshotFrom<PaymentMethodMachine>, send: (event: PaymentMethodEvent) => void): PaymentMethodProps {
  const stage: PaymentMethodStage = snapshot.matches('loadingStatus') ? 'loading'
    : snapshot.matches('failed') ? 'failed'
    : snapshot.matches('noSubscription') ? 'noSubscription'
    : snapshot.matches('voucher') ? 'voucher'
    : snapshot.matches('confirmingCheckout') ? 'confirming'
    : snapshot.matches('saving') ? 'saving'
    : snapshot.matches('saved') ? 'saved'
    : 'choosing';
  return {
    stage,
    option: snapshot.context.option,
    linkStatus: snapshot.context.linkStatus,
    renewsOnWallet: snapshot.context.renewsOnWallet,
    error: snapshot.context.error,
    attempt: snapshot.context.attempt,
    busy: stage === 'confirming' || stage === 'saving' || stage === 'saved',
    select: (option) => send({ type: 'option.select', option }),
    chooseCard: (card) => send({ type: 'card.chosen', card }),
    saveWallet: (linkId) => send({ type: 'wallet.save', linkId }),
    saveCheckout: () => send({ type: 'checkout.save' }),
    retry: () => send({ type: 'load.retry' }),
  };
}
