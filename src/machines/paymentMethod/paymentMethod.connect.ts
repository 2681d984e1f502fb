/** What the change-payment-method page shows in each state (pure; the view only renders). */
import type { SnapshotFrom } from 'xstate';
import { m } from '../../i18n';
import type { ChosenCard } from '../cardEntry/cardEntry.machine';
import { CHECKOUT_CONFIRMATION, type PaymentMethodEvent, type PaymentMethodMachine, type MethodOption } from './paymentMethod.machine';

// Catalog messages (issue 20): the page calls them when rendering.
export const METHOD_NOTE = m.changing_payment_method_will_take;
export const VOUCHER_METHOD_NOTE = m.voucher_subscriptions_cannot_change_2;
export const CHECKOUT_EXPLANATION = [
  m.checkout_is_a_one_time_charge_for,
  m.when_your_renewal_is_due_the_app,
  m.it_suits_those_who_are_testing_the,
] as const;

/**
 * The three options with the spec's names (product.md#change-payment-method), used by the subscribe wizard too,
 * each with a line that says what it is (product.md#method-names).
 */
export const OPTIONS: ReadonlyArray<{ value: MethodOption; label: () => string; hint: () => string }> = [
  { value: 'card', label: m.credit_debit, hint: m.visa_mastercard_or_jcb },
  { value: 'wallet', label: m.wallet, hint: m.maya_wallet },
  { value: 'checkout', label: m.checkout, hint: m.pay_on_maya_s_page_each_period },
];
export { CHECKOUT_CONFIRMATION };

export type PaymentMethodStage = 'loading' | 'failed' | 'noSubscription' | 'voucher' | 'choosing' | 'confirming' | 'saving' | 'charging' | 'saved';

export interface PaymentMethodProps {
  stage: PaymentMethodStage;
  option: MethodOption | null;
  linkStatus: SnapshotFrom<PaymentMethodMachine>['context']['linkStatus'];
  /** The subscription renews from the linked wallet (unlinking it asks first). */
  renewsOnWallet: boolean;
  /** PAST_DUE: a card or wallet saved now is charged at once (the page says so instead of 'next billing cycle'). */
  pastDue: boolean;
  /** The last save's refusal (also toasted); the load failure's message on 'failed'. */
  error: string | null;
  attempt: number;
  busy: boolean;
  select: (option: MethodOption) => void;
  chooseCard: (card: ChosenCard) => void;
  saveWallet: (linkId: string | null) => void;
  saveCheckout: () => void;
  confirmCheckout: () => void;
  declineCheckout: () => void;
  retry: () => void;
}

export function connectPaymentMethod(snapshot: SnapshotFrom<PaymentMethodMachine>, send: (event: PaymentMethodEvent) => void): PaymentMethodProps {
  const stage: PaymentMethodStage = snapshot.matches('loadingStatus') ? 'loading'
    : snapshot.matches('failed') ? 'failed'
    : snapshot.matches('noSubscription') ? 'noSubscription'
    : snapshot.matches('voucher') ? 'voucher'
    : snapshot.matches('confirmingCheckout') ? 'confirming'
    : snapshot.matches('saving') ? 'saving'
    : snapshot.matches('charging') ? 'charging'
    : snapshot.matches('saved') ? 'saved'
    : 'choosing';
  return {
    stage,
    option: snapshot.context.option,
    linkStatus: snapshot.context.linkStatus,
    renewsOnWallet: snapshot.context.renewsOnWallet,
    pastDue: snapshot.context.pastDue,
    error: snapshot.context.error,
    attempt: snapshot.context.attempt,
    // Not while the checkout question is open: the option that asked must keep focus for when it closes.
    busy: stage === 'saving' || stage === 'charging' || stage === 'saved',
    select: (option) => send({ type: 'option.select', option }),
    chooseCard: (card) => send({ type: 'card.chosen', card }),
    saveWallet: (linkId) => send({ type: 'wallet.save', linkId }),
    saveCheckout: () => send({ type: 'checkout.save' }),
    confirmCheckout: () => send({ type: 'checkout.confirm' }),
    declineCheckout: () => send({ type: 'checkout.decline' }),
    retry: () => send({ type: 'load.retry' }),
  };
}
