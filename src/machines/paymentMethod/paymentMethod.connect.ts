/** What the change-payment-method page shows in each state (pure; the view only renders). */
import type { SnapshotFrom } from 'xstate';
import { m } from '../../i18n';
import type { RenewalConsent, SubscriptionStatusDetails } from '../../api/schemas';
import { addBillingPeriod } from '../../lib/billingPeriod';
import { renewalConsentText, ticked } from '../../lib/renewalConsent';
import type { RenewalConsentProps } from '../../views/parts/RenewalConsent';
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
  /** product.md#renewal-consent: the sentence and its tick for a card or wallet saved on a renewing subscription; null otherwise. */
  consentFor: (status: SubscriptionStatusDetails | undefined) => Omit<RenewalConsentProps, 'disabled'> | null;
  /** The tick as given (the page keeps it across a new card's bank page). */
  renewalConsent: RenewalConsent | null;
}

/**
 * When and at what price a renewing subscription is next charged on the method saved now: at its next
 * billing date, at the next period's price; while PAST_DUE the overdue period is charged at once, so
 * the next renewal is at the end of that period.
 */
export function methodConsentText(status: SubscriptionStatusDetails): string | null {
  if (!status.endDate || (status.status !== 'ACTIVE' && status.status !== 'PAST_DUE')) return null;
  const renewsOn = status.status === 'PAST_DUE'
    ? addBillingPeriod(new Date(status.endDate), status.planBillingCycle, Number(status.planDuration))
    : status.endDate;
  return renewalConsentText({ renewsOn, amount: status.scheduledChange?.planAmount ?? status.planAmount, currency: status.planCurrency });
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
  const { context } = snapshot;
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
    renewalConsent: context.renewalConsent,
    consentFor: (status) => {
      const text = status && context.renewing && (context.option === 'card' || context.option === 'wallet') ? methodConsentText(status) : null;
      return text === null ? null : {
        text,
        checked: context.renewalConsent !== null,
        missing: snapshot.matches('consentMissing'),
        prompts: context.consentPrompts,
        onToggle: (checked: boolean) => send({ type: 'consent.toggle', consent: checked ? ticked(text) : null }),
      };
    },
  };
}
